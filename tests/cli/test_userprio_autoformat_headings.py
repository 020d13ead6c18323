"""``fs userprio -af:h A -af B ...``: the headings of an ``-af`` without ``h`` after one with it.

``parse_autoformat_args`` (``ad_printmask.cpp``) heads each such expression with its own
text, and only an expression that is neither an attribute nor a literal
(``kind > ExpressionKind::Attr``) and is longer than 16 characters with ``(expr)``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]


def test_later_af_heads_attributes_and_short_expressions_with_their_text(
    run: Callable[..., Any], tmp_path: Path
) -> None:
    """fs headed every expression of the later ``-af`` ``(expr)`` (``Name (expr) (expr)
    (expr)``); condor_userprio keeps ``Priority``, ``Priority*2`` (10 characters) and the
    24-character attribute name, and writes ``(expr)`` for ``PriorityFactor*1000+1``."""
    state = tmp_path / "s.json"
    state.write_bytes((REPO / "sample_configs" / "sample-state.json").read_bytes())
    before = state.read_bytes()
    result = run(
        "userprio", "-af:h", "Name", "-af", "Priority*2", "PriorityFactor*1000+1",
        "WeightedAccumulatedUsage", "-constraint", "ResourcesUsed >= 8",
        "--config", str(REPO / "sample_configs" / "pool.toml"), "--state", str(state),
        "--now", "2026-11-21T12:00:00Z",
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[0] == ("Name Priority*2 (expr) WeightedAccumulatedUsage")
    assert state.read_bytes() == before


def test_headed_columns_pad_by_bytes(run: Callable[..., Any], tmp_path: Path) -> None:
    """``AttrListPrintMask::display`` measures a value with ``strlen`` and pads with
    ``width - strlen`` blanks: ``jürgen@example.org`` is 18 characters, 19 bytes, so
    ``bob@example.org`` (15) gets 4 blanks before the separator. fs padded by characters
    (3 blanks), one column off condor_userprio's under any non-ASCII name."""
    (tmp_path / "pool.toml").write_text('[pool]\nuid_domain = "example.org"\n', encoding="utf-8")
    (tmp_path / "h.jsonl").write_text(
        '{"owner": "jürgen", "start": "2026-11-21T06:00:00Z", "end": null, "slots": 1}\n'
        '{"owner": "bob", "start": "2026-11-21T00:00:00Z", "end": null, "slots": 2}\n',
        encoding="utf-8",
    )
    args = ["--config", str(tmp_path / "pool.toml"), "--state", str(tmp_path / "s.json"),
            "--now", "2026-11-21T12:00:00Z"]  # fmt: skip
    assert run("import", "history", str(tmp_path / "h.jsonl"), *args).exit_code == 0
    before = (tmp_path / "s.json").read_bytes()
    result = run("userprio", "-af:h", "Name", "ResourcesUsed", *args)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines() == [
        "Name ResourcesUsed",
        "jürgen@example.org 1            ",
        "bob@example.org     2            ",
        "<none>              3            ",
    ]
    assert (tmp_path / "s.json").read_bytes() == before
