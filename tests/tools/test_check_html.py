"""``tools/check_html.py`` fails a page with a console error or a plot that drew nothing."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))

import check_html  # tools/ is not a package: found through sys.path

PAGE = """<!DOCTYPE html><html><head><meta charset="utf-8"><title>t</title></head><body>
<figure class="plot"><svg xmlns="http://www.w3.org/2000/svg" width="40" height="40">
<path d="M 0 0 L 30 30" stroke="black"/></svg></figure>{extra}
<script>
var plots = document.querySelectorAll(".plot svg"), drawn = 0;
plots.forEach(function (s) { var b = s.getBBox();
  if (b.width > 0 && b.height > 0 && s.querySelector("path, image")) { drawn += 1; } });
document.body.setAttribute("data-plots", plots.length);
document.body.setAttribute("data-plots-drawn", drawn);
</script></body></html>"""

BROWSER = next((b for b in check_html.BROWSERS if shutil.which(b)), None)


@pytest.mark.skipif(BROWSER is None, reason="no Chromium on this machine")
@pytest.mark.parametrize(
    ("extra", "problem"),
    [
        pytest.param("", None, id="good"),
        pytest.param("<script>notDefined();</script>", "console", id="console error"),
        pytest.param(
            '<figure class="plot"><svg width="9" height="9"></svg></figure>',
            "1 of 2 plots drawn",
            id="empty plot",
        ),
    ],
)
def test_check_finds_console_errors_and_empty_plots(
    tmp_path: Path, extra: str, problem: str | None
) -> None:
    assert BROWSER is not None
    page = tmp_path / "page.html"
    page.write_text(PAGE.replace("{extra}", extra), encoding="utf-8")
    found = check_html.check(page, BROWSER)
    if problem is None:
        assert found == []
    else:
        assert any(problem in p for p in found), found
