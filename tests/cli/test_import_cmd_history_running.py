"""A usage-history record still running (``end`` empty) holds slots under a job id that
names it, ``history:SUBMITTER:START:N.K``, as docs/htcondor.md says: fs negotiate shows
that id under Preempts (``preempted_job``), where an admin met it unexplained."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

POOL = '[pool]\nuid_domain = "example.org"\n[[machines]]\nname = "exec"\ncount = 1\nslots = 2\n'
#: record 1 ended; record 2, alice on 2 slots since 08:00, is still running at --now
HISTORY = (
    "owner,start,end,slots\n"
    "carol,2026-11-21T00:00:00Z,2026-11-21T01:00:00Z,1\n"
    "alice,2026-11-21T08:00:00Z,,2\n"
)


def test_a_running_record_holds_its_slots_under_an_id_naming_it(
    run: Callable[..., Any], tmp_path: Path
) -> None:
    (tmp_path / "pool.toml").write_text(POOL, encoding="utf-8")
    (tmp_path / "history.csv").write_text(HISTORY, encoding="utf-8")
    state = tmp_path / "state.json"
    files = ["--config", str(tmp_path / "pool.toml"), "--state", str(state)]
    result = run(
        "import", "history", str(tmp_path / "history.csv"), *files,
        "--now", "2026-11-21T12:00:00Z",
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    claims = json.loads(state.read_text(encoding="utf-8"))["negotiator"]["claims"]
    # 2026-11-21T08:00:00Z is epoch 1795248000; record 2 of the file, its slots 0 and 1
    assert {slot: claim["job_id"] for slot, claim in claims.items()} == {
        "slot1@exec001": "history:alice@example.org:1795248000:2.0",
        "slot2@exec001": "history:alice@example.org:1795248000:2.1",
    }
