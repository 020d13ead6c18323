"""``fs sweep``'s point table (render/sweep.py): axis values as the spec writes them."""

from __future__ import annotations

from typing import Any

from fairshare_cli.render.sweep import table_text


def _result(index: int, value: Any) -> dict[str, Any]:
    metrics = {"share_error": 0.5, "jain": 1.0, "wait_mean": 10.0, "wait_p95": 20.0}
    return {"index": index, "point": {"priority.max_age": value}, "jobs_finished": 3,
            "utilization": 0.25, **metrics}  # fmt: skip


def test_a_string_that_reads_as_a_number_is_quoted() -> None:
    """``values = ["3600", 3600]``: the string is 3600 minutes (a Slurm time string), the
    number 3600 seconds; both rows printed ``3600``."""
    text = table_text([_result(0, "3600"), _result(1, 3600), _result(2, "7-0")],
                      ["priority.max_age"], None)  # fmt: skip
    assert [line.split()[1] for line in text.splitlines()[1:]] == ['"3600"', "3600", "7-0"]
