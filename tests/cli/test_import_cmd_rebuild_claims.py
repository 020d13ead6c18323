"""``fs import history FILE --rebuild`` of a state whose slots are claimed by cycles
(cli/import_cmd.py, ``core/operations/usage_log.reopened_claims``).

The rebuild replaces the usage history store by the file's records, and the accountant it
rebuilds charges the claims the state still holds from ``--now`` on. The store had lost
those claims' records: ``fs whatif`` replayed the pool with alice's running job charged to
no one (``in use 1 -> 0``, her priority as if she had stopped) under any change, however
small. Now the rebuild writes each such claim a record from ``--now`` under its key, which
the cycle that ends the claim ends.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

T0 = "2026-11-20T00:00:00Z"
T1 = "2026-11-20T01:00:00Z"
T2 = "2026-11-20T03:00:00Z"
T3 = "2026-11-20T05:00:00Z"
TINY = """\
[pool]
name = "tiny"
uid_domain = "example.org"

[[machines]]
name = "m"
count = 2
slots = 1
attributes = { Cpus = 1 }
"""
HISTORY = (
    "owner,start,end,slots,cpus\n"
    "carol,2026-11-19T20:00:00Z,2026-11-19T22:00:00Z,1,1\n"
    "alice,2026-11-19T21:00:00Z,2026-11-19T21:30:00Z,1,1\n"
)


def _pool(tmp_path: Path, run: Callable[..., Any]) -> Callable[..., Any]:
    config = tmp_path / "tiny.toml"
    config.write_text(TINY, encoding="utf-8")
    state = tmp_path / "state.json"

    def fs(*args: str, now: str) -> Any:
        result = run(*args, "--config", str(config), "--state", str(state), "--now", now)
        assert result.exit_code == 0, result.stderr
        return result

    history = tmp_path / "history.csv"
    history.write_text(HISTORY, encoding="utf-8")
    fs("submit", "--owner", "alice", now=T0)
    fs("negotiate", now=T0)
    fs("import", "history", str(history), "--rebuild", now=T1)
    return fs


def test_the_rebuilt_accountant_charges_the_claims_kept(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``fs userprio --allusers`` two hours after the rebuild: alice, whose job holds a
    slot, showed 0 in use and only the file's half hour, her running job charged to no
    one; now 1 in use and the two hours since the rebuild on top (``AddMatch`` at the
    rebuild, as ``CheckMatches`` finds the claim)."""
    fs = _pool(tmp_path, run)
    result = fs("userprio", "--allusers", now=T2)
    (alice,) = (line for line in result.stdout.splitlines() if line.startswith("alice"))
    assert alice.split()[1:5] == ["0.53", "1.00", "1", "2.50"]


def test_a_small_change_replays_the_claim_a_cycle_made(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``fs whatif --set accountant.priority_halflife=86400.0001 userprio --allusers``
    after the rebuild: it showed alice ``in use 1 -> 0`` and her priority falling; now no
    differences, the replay charging her claim from the rebuild on, as the state does."""
    fs = _pool(tmp_path, run)
    result = fs(
        "whatif",
        "--set",
        "accountant.priority_halflife=86400.0001",
        "userprio",
        "--allusers",
        now=T2,
    )
    assert result.stdout.endswith(": no differences\n")


def test_the_cycle_that_ends_the_claim_ends_its_record(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``fs rm 1`` then a half-life of an hour: the after side charges alice's job from
    the rebuild to its removal, as the state does (its usage grows, she holds no slot)."""
    fs = _pool(tmp_path, run)
    fs("rm", "1", now=T2)
    same = fs(
        "whatif",
        "--set",
        "accountant.priority_halflife=86400.0001",
        "userprio",
        "--allusers",
        now=T3,
    )
    assert same.stdout.endswith(": no differences\n")
    result = fs(
        "whatif",
        "--set",
        "accountant.priority_halflife=3600",
        "userprio",
        "--allusers",
        "--json",
        now=T3,
    )
    doc = json.loads(result.stdout)
    (alice,) = (row for row in doc["after"] if row["name"] == "alice@example.org")
    assert alice["resources_in_use"] == 0
    # (her half hour of the file and her job's two hours from the rebuild, T1, to its
    # removal, T2: the replay that lost the claim charged the half hour alone)
    assert alice["accumulated_usage_hours"] == 2.5
    assert doc["changes"] == []
