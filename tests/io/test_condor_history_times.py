"""``fs import condor-history``: job times far outside any real date are refused where the
reader reads them (``io.condor_history.read_condor_history``), naming the ad and the attribute.

HTCondor keeps these attributes as ``time_t`` epoch seconds and 0 for "not yet"
(``CompletionDate`` of a job that has not completed); a negative time or one past the
year 9999 is no time HTCondor wrote. Such an ad was skipped as "never ran" before.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
NOW = "2026-11-21T12:00:00Z"
START = 1795250000  # 2026-11-21T08:33:20Z


@pytest.mark.parametrize(
    ("attr", "value", "text"),
    [
        ("CompletionDate", -1e30, "-1e+30"),
        ("JobCurrentStartDate", 10**18, str(10**18)),  # (10**30: beyond 64 bits, refused as read)
        ("EnteredCurrentStatus", -1, "-1"),
        ("JobStartDate", 253402300800, "253402300800"),
    ],
)
def test_a_time_outside_any_real_date_is_refused(
    attr: str, value: float, text: str, tmp_path: Path, run: Callable[..., Any]
) -> None:
    ad: dict[str, Any] = {"Owner": "a", "User": "a@d", "JobStatus": 4}
    ad.update({"JobCurrentStartDate": START, "CompletionDate": START + 600})
    ad[attr] = value
    dump = tmp_path / "history.json"
    dump.write_text("[\n" + json.dumps(ad) + "\n]\n", encoding="utf-8")
    state = tmp_path / "state.json"
    shutil.copy(REPO / "sample_configs" / "sample-state.json", state)
    before = state.read_bytes()
    result = run(
        "import", "condor-history", str(dump),
        "--config", str(REPO / "sample_configs" / "pool.toml"), "--state", str(state),
        "--now", NOW,
    )  # fmt: skip
    assert result.exit_code == 2
    assert result.stderr == (
        f"fs: error: {dump}:2: {attr}: expected epoch seconds between 0 and 253402300799 "
        f"(the year 9999), got {text}\n"
    )
    assert state.read_bytes() == before


def test_zero_is_not_yet_and_stays_accepted(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``CompletionDate = 0`` on a removed job (JobStatus 3, which HTCondor leaves 0 when a
    job is removed): charged up to its ``EnteredCurrentStatus``, the removal."""
    ad = {"Owner": "a", "User": "a@d", "JobStatus": 3, "JobCurrentStartDate": START}
    ad.update(CompletionDate=0, EnteredCurrentStatus=START + 3600)
    done = {"Owner": "b", "JobStatus": 4, "JobCurrentStartDate": START, "CompletionDate": START}
    dump = tmp_path / "history.json"
    dump.write_text(json.dumps([ad, done]), encoding="utf-8")
    result = run(
        "import", "condor-history", str(dump),
        "--config", str(REPO / "sample_configs" / "pool.toml"),
        "--state", str(tmp_path / "state.json"), "--now", NOW,
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("Imported 2 usage records ")
