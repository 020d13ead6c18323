"""Open ``--html`` pages in headless Chromium: no console message, every plot drawn.

    python tools/check_html.py PAGE.html [...]    # exit 1 if a page fails, 0 if all pass

The page's own script (``fairshare_cli/templates/sweep.html.j2``) counts the plots whose
SVG has a non-empty bounding box and something drawn in it, into ``data-plots`` and
``data-plots-drawn`` on ``<body>``; Chromium's ``--dump-dom`` shows the page after the
script ran, and ``--enable-logging=stderr`` prints each console message as a ``CONSOLE``
line. CI runs this when a browser is installed (``tests/cli/test_sweep.py``); without
one it says so and exits 0.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

BROWSERS = ("chromium", "chromium-browser", "google-chrome")


def check(page: Path, browser: str) -> list[str]:
    """What is wrong with ``page`` (nothing: an empty list)."""
    with tempfile.TemporaryDirectory() as profile:
        done = subprocess.run(
            [
                browser, "--headless", "--no-sandbox", "--disable-gpu",
                f"--user-data-dir={profile}", "--enable-logging=stderr", "--v=0",
                "--virtual-time-budget=5000", "--dump-dom", page.resolve().as_uri(),
            ],
            capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip
    problems = [f"console: {line}" for line in done.stderr.splitlines() if ":CONSOLE" in line]
    if done.returncode != 0:
        problems.append(f"{browser} exited {done.returncode}")
    body = re.search(r'<body[^>]*data-plots="(\d+)"[^>]*data-plots-drawn="(\d+)"', done.stdout)
    if body is None:
        problems.append("the page's check script did not run")
    elif body.group(1) == "0" or body.group(1) != body.group(2):
        problems.append(f"{body.group(2)} of {body.group(1)} plots drawn")
    return problems


def main(argv: list[str]) -> int:
    browser = next((b for b in BROWSERS if shutil.which(b)), None)
    if browser is None:
        print("check_html: no Chromium found; nothing checked")
        return 0
    failed = 0
    for name in argv:
        problems = check(Path(name), browser)
        for problem in problems:
            print(f"{name}: {problem}")
        failed += bool(problems)
        if not problems:
            print(f"{name}: ok")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
