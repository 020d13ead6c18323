"""``fs rm`` gives back the slot weight ``fs negotiate`` charged, end to end, and ``fs config
check`` saying what weighs 1.0."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

NOW = "2026-11-21T12:00:00Z"
LATER = "2026-11-21T12:10:00Z"

POOL = """
[pool]
uid_domain = "example.org"
defaults = "legacy"

[negotiator]
use_slot_weights = true
slot_weight = "Memory / 1024"

[[machines]]
name = "exec"
count = 1
attributes = { Cpus = 1, Memory = 4096 }
"""


def in_use(run: Any, args: list[str], when: str) -> dict[str, float]:
    result = run("userprio", *args, "--allusers", "--json", "--now", when)
    assert result.exit_code == 0, result.stderr
    return {r["name"]: r["weighted_resources_in_use"] for r in json.loads(result.stdout)}


def test_negotiate_charges_4_and_rm_gives_4_back(
    tmp_path: Path, run: Any, write_config: Any
) -> None:
    """4096 MB / 1024: a weight of 4 charged, 4 released (before the fix: 2, leaving 2.0)."""
    args = ["--config", str(write_config(POOL)), "--state", str(tmp_path / "state.json")]
    assert run("submit", *args, "--owner", "alice", "--now", NOW).exit_code == 0
    result = run("negotiate", *args, "--now", NOW)
    assert result.exit_code == 0, result.stderr
    assert in_use(run, args, NOW) == {"<none>": 4.0, "alice@example.org": 4.0}
    claims = json.loads((tmp_path / "state.json").read_text())["negotiator"]["claims"]
    assert claims["slot1@exec001"]["weight"] == 4.0
    result = run("rm", "1", *args, "--now", LATER)
    assert result.stdout == "Removed 1 job: 1\n"
    assert in_use(run, args, LATER) == {"<none>": 0.0, "alice@example.org": 0.0}


def test_config_check_names_machines_that_weigh_one(run: Any, write_config: Any) -> None:
    cfg = write_config(POOL + '\n[[machines]]\nname = "bare"\nattributes = { Cpus = 4 }\n')
    result = run("config", "check", "--config", str(cfg))
    assert result.exit_code == 0
    assert result.stderr == (
        'fs: warning: [negotiator] slot_weight "Memory / 1024" is undefined on the slots of '
        'machine "bare", not a number of 0 or more; each of them weighs 1.0\n'
    )
    assert result.stdout.splitlines()[1].startswith(f"# {cfg}: valid")  # after the profile


def test_config_check_is_quiet_when_every_slot_weighs(run: Any, write_config: Any) -> None:
    result = run("config", "check", "--config", str(write_config(POOL)), "--json")
    assert result.exit_code == 0
    assert result.stderr == ""
    assert json.loads(result.stdout)["negotiator"]["slot_weight"] == "Memory / 1024"


THIRDS = """
[pool]
uid_domain = "example.org"

[negotiator]
use_slot_weights = true
slot_weight = "Cpus / 3.0"

[[machines]]
name = "exec"
count = 3
attributes = { Cpus = 1 }
"""


def test_fractional_weights_are_charged_one_match_at_a_time(
    tmp_path: Path, run: Any, write_config: Any
) -> None:
    """Three one-CPU slots weigh 1/3 each. ``AddMatch`` stores each sum with ``%f``:
    0.333333, 0.666666 (0.333333 + 0.3333333...), 0.999999, not 1.0 (fs charged the three
    at once and printed 1.0). The cycle at 12:10 charges 600 s of 0.999999:
    WeightedAccumulatedUsage 599.9994, RUP 0.5 * b + 0.999999 * (1 - b) = 0.502401 (b =
    0.5**(600/86400)). ``fs rm`` at 12:20 first updates (another 600 s: 1199.9988), then
    ``RemoveMatch`` takes back each resource record's ``SlotWeight`` as stored (0.333333):
    0.666666, 0.333333, 0.0."""
    args = ["--config", str(write_config(THIRDS)), "--state", str(tmp_path / "state.json")]
    for _ in range(3):
        assert run("submit", *args, "--owner", "alice", "--now", NOW).exit_code == 0
    assert run("negotiate", *args, "--now", NOW).exit_code == 0
    assert in_use(run, args, NOW) == {"<none>": 0.999999, "alice@example.org": 0.999999}
    assert run("negotiate", *args, "--now", LATER).exit_code == 0
    long = run("userprio", "-l", "--allusers", *args, "--now", LATER).stdout.splitlines()
    b = 0.5 ** (600 / 86400)
    assert round(0.5 * b + 0.999999 * (1 - b), 6) == 0.502401
    for n in (1, 2):  # <none>, then alice
        assert f"WeightedResourcesUsed{n} = 0.999999" in long
        assert f"WeightedAccumulatedUsage{n} = 599.9994" in long
        assert f"Priority{n} = 0.502401" in long
    assert "HierWeightedResourcesUsed1 = 0.999999" in long
    result = run("rm", "1", "2", "3", *args, "--now", "2026-11-21T12:20:00Z")
    assert result.exit_code == 0, result.stderr
    assert in_use(run, args, "2026-11-21T12:20:00Z") == {"<none>": 0.0, "alice@example.org": 0.0}
    result = run("userprio", "--allusers", "--json", *args, "--now", "2026-11-21T12:20:00Z")
    alice = next(r for r in json.loads(result.stdout) if r["name"] == "alice@example.org")
    assert alice["weighted_accumulated_usage_hours"] == 1199.9988 / 3600


def test_the_cycles_check_of_the_claims_keeps_six_decimals(
    tmp_path: Path, run: Any, write_config: Any
) -> None:
    """Two slots of 1/3: ``AddMatch`` stores 0.333333, then 0.666666. The next cycle's
    check of the counts against the claims (two records of ``SlotWeight`` 0.333333) finds
    them agreeing; fs found 0.666667 (the two charged at once) against the claims' whole
    sum 0.6666666666666666 and stored that, which ``-l`` printed with 16 digits."""
    args = ["--config", str(write_config(THIRDS)), "--state", str(tmp_path / "state.json")]
    for _ in range(2):
        assert run("submit", *args, "--owner", "alice", "--now", NOW).exit_code == 0
    assert run("negotiate", *args, "--now", NOW).exit_code == 0
    assert run("negotiate", *args, "--now", LATER).exit_code == 0
    long = run("userprio", "-l", "--allusers", *args, "--now", LATER).stdout.splitlines()
    assert "WeightedResourcesUsed2 = 0.666666" in long
    assert "WeightedAccumulatedUsage2 = 399.9996" in long  # 0.666666 * 600


ERROR_WEIGHT = """
[pool]
uid_domain = "example.org"
defaults = "current"

[negotiator]
use_slot_weights = true
slot_weight = "1/0"

[[machines]]
name = "exec"
count = 3
attributes = { Cpus = 2, Memory = 4096 }
"""


def test_a_slot_weight_of_error_weighs_each_slot_one(
    tmp_path: Path, run: Any, write_config: Any
) -> None:
    """``SLOT_WEIGHT = 1/0`` is ``error`` on every slot. The negotiator puts its own
    ``SLOT_WEIGHT`` into an ad whose ``SlotWeight`` does not read as a number
    (matchmaker.cpp: ``LookupFloat`` fails, ``AssignExpr(ATTR_SLOT_WEIGHT, slotWeightStr)``:
    the same 1/0), and ``Accountant::GetSlotWeight`` takes 1.0 when ``LookupFloat`` fails
    (a D_FULLDEBUG line, no stop). By hand: three slots of 2 CPUs weigh 1.0 each, not 2
    (``Cpus``): pool size 3 (alice's limit, her share 1.0 of it), the match charges 1.0; after 600 s alice holds
    WeightedAccumulatedUsage 1.0 × 600 = 600 and priority 0.5 × b + 1.0 × (1 − b) =
    0.502401 (b = 0.5**(600/86400)), × her factor 1000: 502.401."""
    args = ["--config", str(write_config(ERROR_WEIGHT)), "--state", str(tmp_path / "s.json")]
    assert run("submit", *args, "--owner", "alice", "--now", NOW).exit_code == 0
    dry = run("negotiate", "--dry-run", "--json", *args, "--now", NOW)
    assert dry.exit_code == 0, dry.stderr
    assert dry.stderr == ""
    cycle = json.loads(dry.stdout)
    assert [s["limit"] for s in cycle["submitters"]] == [3.0]  # (share 1.0 of the pool)
    assert [m["charge"] for m in cycle["matches"]] == [1.0]
    assert run("negotiate", *args, "--now", NOW).exit_code == 0
    assert in_use(run, args, NOW) == {"<none>": 1.0, "alice@example.org": 1.0}
    long = run("userprio", "-l", "--allusers", *args, "--now", LATER)
    assert long.exit_code == 0, long.stderr
    lines = long.stdout.splitlines()
    b = 0.5 ** (600 / 86400)
    assert round((0.5 * b + 1.0 * (1 - b)) * 1000, 3) == 502.401
    for n in (1, 2):
        assert f"WeightedResourcesUsed{n} = 1.0" in lines
        assert f"WeightedAccumulatedUsage{n} = 600.0" in lines
        assert f"Priority{n} = 502.401" in lines
