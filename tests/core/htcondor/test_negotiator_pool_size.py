"""``pool_size``: the pool's slot weight without a negotiation cycle.

The numbers are derived by hand from HTCondor's rule (``Matchmaker::negotiationTime`` sums
``SLOT_WEIGHT`` over the startd ads, or counts them without slot weights; a weight that
is not a non-negative number counts as 1.0).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from fairshare_cli.core.config import MachineSpec
from fairshare_cli.core.htcondor.negotiator import (
    Claim,
    NegotiatorKnobs,
    SubmitterPrio,
    negotiate_cycle,
    pool_size,
    snapshot,
)

NOW = 1_795_000_000.0
#: 3 machines × 4 slots of 1 CPU / 4096 MB, and 2 machines × 2 slots of 4 CPUs / 6144 MB.
MACHINES = [
    MachineSpec("exec", 3, 4, {"Cpus": 1, "Memory": 4096}),
    MachineSpec("big", 2, 2, {"Cpus": 4, "Memory": 6144}),
]
CLAIMS = [Claim("slot1@exec001", "alice@example.org", "1.0", NOW - 600)]


def _weights(expr: str) -> NegotiatorKnobs:
    return NegotiatorKnobs(use_slot_weights=True, slot_weight=expr)


@pytest.mark.parametrize(
    ("knobs", "size"),
    [
        pytest.param(NegotiatorKnobs(use_slot_weights=False), 16.0, id="slot-count"),
        # 12 slots × 1 + 4 slots × 4
        pytest.param(_weights("Cpus"), 28.0, id="cpus"),
        # 12 × 4096/1024 + 4 × 6144/1024 = 48 + 24
        pytest.param(_weights("Memory / 1024"), 72.0, id="memory"),
        # 12 × 2 + 4 × 8
        pytest.param(_weights("2 * Cpus"), 56.0, id="twice-cpus"),
        # per slot: 3 machines × (1+2+3+4) + 2 machines × (1+2)
        pytest.param(_weights("SlotID"), 36.0, id="per-slot"),
        # the claimed slot weighs 10, the 15 others 1
        pytest.param(_weights('ifThenElse(State == "Claimed", 10, 1)'), 25.0, id="claimed"),
        # undefined and negative weights count as 1.0, as the negotiator takes them
        pytest.param(_weights("NoSuchAttribute"), 16.0, id="undefined"),
        pytest.param(_weights("-Cpus"), 16.0, id="negative"),
    ],
)
def test_pool_size_by_hand(knobs: NegotiatorKnobs, size: float) -> None:
    assert pool_size(MACHINES, CLAIMS, knobs, NOW) == size


def _kept(constraint: str, weights: bool = True) -> NegotiatorKnobs:
    return NegotiatorKnobs(use_slot_weights=weights, slot_poolsize_constraint=constraint)


@pytest.mark.parametrize(
    ("knobs", "size"),
    [
        # NEGOTIATOR_SLOT_POOLSIZE_CONSTRAINT: only the slot ads it is true on count
        # the 4 slots of 4 CPUs: weighed 4 × 4, counted 4
        pytest.param(_kept("Cpus >= 4"), 16.0, id="big-weighed"),
        pytest.param(_kept("Cpus >= 4", weights=False), 4.0, id="big-counted"),
        # the first slot of each machine: 3 × 1 + 2 × 4
        pytest.param(_kept("SlotID == 1"), 11.0, id="first-slots"),
        # the claimed slot's ad says so: 1
        pytest.param(_kept('State == "Claimed"', weights=False), 1.0, id="claimed"),
        # a non-zero number is true (every Cpus), undefined is not, nor a string
        pytest.param(_kept("Cpus"), 28.0, id="number"),
        pytest.param(_kept("NoSuchAttribute"), 0.0, id="undefined"),
        pytest.param(_kept("Name", weights=False), 0.0, id="string"),
        pytest.param(_kept("false"), 0.0, id="none"),
    ],
)
def test_pool_size_with_a_constraint_by_hand(knobs: NegotiatorKnobs, size: float) -> None:
    assert pool_size(MACHINES, CLAIMS, knobs, NOW) == size


@pytest.mark.parametrize(
    "expr",
    [
        "Cpus",
        "Memory / 1000.0 + 0.1",
        "SlotID * Cpus",
        "TotalJobRuntime / 100",
        "RemoteUserPrio",
        "Rank + 1",
        "Requirements",
        '"text"',
        "",
    ],
)
@pytest.mark.parametrize("constraint", [None, "SlotID <= 2", 'State =!= "Claimed"'])
def test_pool_size_is_the_cycles(expr: str, constraint: str | None) -> None:
    """The same float, to the last bit, as a cycle over the same pool finds."""
    knobs = replace(_weights(expr), slot_poolsize_constraint=constraint)
    cycle = negotiate_cycle(
        MACHINES,
        CLAIMS,
        [],
        lambda job: job.owner,
        lambda name: SubmitterPrio(0.5),
        None,
        knobs,
        NOW,
    )
    assert pool_size(MACHINES, CLAIMS, knobs, NOW) == cycle.pool_size


def test_quota_and_userprio_build_no_cycle(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    write_config: Callable[[str], Path],
    run: Callable[..., Any],
) -> None:
    """``fs quota`` and ``fs userprio`` with groups need the pool size, not a cycle."""

    def no_cycle(*args: object, **kwargs: object) -> None:
        raise AssertionError("a negotiation cycle was built")

    monkeypatch.setattr(snapshot.Snapshot, "__init__", no_cycle)
    cfg = write_config(
        '[pool]\nuid_domain = "d.org"\n[negotiator]\nuse_slot_weights = true\n'
        'slot_weight = "Memory / 1024"\n'
        '[[machines]]\nname = "exec"\ncount = 2\nslots = 4\n'
        "attributes = { Cpus = 1, Memory = 2048 }\n"
        '[groups."grp"]\nquota = 3\n'
    )
    args = ["--config", str(cfg), "--state", str(tmp_path / "s.json")]
    args += ["--now", "2026-11-21T12:00:00Z"]
    quota = run("quota", "--json", *args)
    assert quota.exit_code == 0
    rows = {r["group"]: r for r in json.loads(quota.stdout)}
    assert rows["<none>"]["subtree_quota"] == 16.0  # 8 slots of weight 2048/1024
    assert run("userprio", *args).exit_code == 0


def test_a_size_that_reads_no_claim_is_kept_and_one_that_does_is_not() -> None:
    """``fs simulate`` asks the same pool's size every cycle. ``Cpus`` reads no claim: the
    size (28, as above) is kept for the same machines and knobs, whatever the claims, and
    other knobs are not given it (``2 * Cpus``: 56). A weight that reads the claim state
    is worked out again: 10 for each claimed slot, 1 for the others (16 slots)."""
    machines = tuple(MACHINES)
    assert pool_size(machines, CLAIMS, _weights("Cpus"), NOW) == 28.0
    assert pool_size(machines, [], _weights("Cpus"), NOW + 60) == 28.0
    assert pool_size(machines, [], _weights("2 * Cpus"), NOW) == 56.0
    claimed = _weights('ifThenElse(State == "Claimed", 10, 1)')
    two = [*CLAIMS, Claim("slot2@exec001", "bob@example.org", "2.0", NOW - 60)]
    assert pool_size(machines, CLAIMS, claimed, NOW) == 10 + 15
    assert pool_size(machines, two, claimed, NOW) == 2 * 10 + 14
    assert pool_size(machines, [], claimed, NOW) == 16
