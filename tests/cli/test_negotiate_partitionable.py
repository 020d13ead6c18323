"""Partitionable slots end to end: config, ``fs negotiate``, ``fs userprio``, ``fs rm``,
``fs quota`` (the rules are in tests/core/htcondor/test_negotiator_partitionable.py).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

NOW = "2026-11-21T12:00:00Z"
LATER = "2026-11-21T12:10:00Z"

POOL = """
[pool]
uid_domain = "example.org"
defaults = "current"

[[machines]]
name = "big"
partitionable = true
attributes = { Cpus = 16, Memory = 65536 }
"""

CP_POOL = POOL + "consumption_policy = true\n"


def _args(tmp_path: Path, write_config: Any, text: str = POOL) -> list[str]:
    return ["--config", str(write_config(text)), "--state", str(tmp_path / "state.json")]


def _submit(run: Any, args: list[str], cpus: int) -> None:
    result = run("submit", *args, "--owner", "alice", "--cpus", str(cpus), "--now", NOW)
    assert result.exit_code == 0, result.stderr


def _in_use(run: Any, args: list[str], when: str) -> dict[str, float]:
    result = run("userprio", *args, "--allusers", "--json", "--now", when)
    assert result.exit_code == 0, result.stderr
    return {r["name"]: r["weighted_resources_in_use"] for r in json.loads(result.stdout)}


def test_negotiate_json_shows_the_charge_of_a_pslot_match(
    tmp_path: Path, run: Any, write_config: Any
) -> None:
    """No consumption policy: the 16-CPU partitionable slot takes one match this cycle,
    charged its whole ``SLOT_WEIGHT`` (``Cpus`` = 16, ``Accountant::AddMatch`` of the
    partitionable slot's ad); the claim holds the dynamic slot's own weight, 4, and the
    other jobs wait (the pool is one slot ad)."""
    args = _args(tmp_path, write_config)
    for cpus in (4, 4):
        _submit(run, args, cpus)
    table = run("negotiate", *args, "--now", NOW, "--dry-run")
    assert table.exit_code == 0, table.stderr
    row = next(line for line in table.stdout.splitlines() if "slot1_1@big001" in line)
    assert row.rstrip().endswith("│  16.00")
    result = run("negotiate", *args, "--now", NOW, "--json")
    assert result.exit_code == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["matches"] == [
        {
            "job_id": "1",
            "submitter": "alice@example.org",
            "slot": "slot1_1@big001",
            "reason": "no_preemption",
            "preempted_job": None,
            "charge": 16.0,
        }
    ]
    assert out["unmatched"][0]["reason"] == "pool_exhausted"
    claims = json.loads((tmp_path / "state.json").read_text())["negotiator"]["claims"]
    assert claims["slot1_1@big001"]["weight"] == 4.0


def test_negotiate_carves_userprio_charges_rm_gives_back(
    tmp_path: Path, run: Any, write_config: Any
) -> None:
    """A consumption policy: jobs of 4, 4, 8, 2 CPUs on a 16-CPU partitionable slot: three
    dynamic slots
    slot1_1..3 (the 2-CPU job finds 0 CPUs left); userprio's weighted in use is
    SLOT_WEIGHT = Cpus of each carved slot, 4 + 4 + 8 = 16. ``fs rm`` of the 8-CPU job gives
    8 back (16 - 8 = 8), and the next cycle carves the 2-CPU job into slot1_3 again."""
    args = _args(tmp_path, write_config, CP_POOL)
    for cpus in (4, 4, 8, 2):
        _submit(run, args, cpus)
    result = run("negotiate", *args, "--now", NOW, "--json")
    assert result.exit_code == 0, result.stderr
    out = json.loads(result.stdout)
    assert [(m["job_id"], m["slot"]) for m in out["matches"]] == [
        ("1", "slot1_1@big001"),
        ("2", "slot1_2@big001"),
        ("3", "slot1_3@big001"),
    ]
    assert _in_use(run, args, NOW) == {"<none>": 16.0, "alice@example.org": 16.0}
    claims = json.loads((tmp_path / "state.json").read_text())["negotiator"]["claims"]
    assert claims["slot1_3@big001"]["resources"] == {"Cpus": 8, "Memory": 128}
    assert claims["slot1_3@big001"]["weight"] == 8.0
    assert run("rm", "3", *args, "--now", LATER).exit_code == 0
    assert _in_use(run, args, LATER) == {"<none>": 8.0, "alice@example.org": 8.0}
    result = run("negotiate", *args, "--now", LATER)
    assert result.exit_code == 0, result.stderr
    assert "│ 4   │ slot1_3@big001 │" in result.stdout
    assert _in_use(run, args, LATER) == {"<none>": 10.0, "alice@example.org": 10.0}


def test_quota_pool_is_the_pslots_cpus(tmp_path: Path, run: Any, write_config: Any) -> None:
    """Two 16-CPU partitionable slots, slot weights on: the quota pool is Σ SLOT_WEIGHT =
    32, and group_a's dynamic quota 0.25 is 8."""
    text = POOL.replace('name = "big"', 'name = "big"\ncount = 2') + (
        '\n[groups."group_a"]\ndynamic_quota = 0.25\n'
    )
    result = run("quota", *_args(tmp_path, write_config, text), "--json", "--now", NOW)
    assert result.exit_code == 0, result.stderr
    rows = {r["group"]: r for r in json.loads(result.stdout)}
    assert rows["group_a"]["quota"] == 8.0
    assert rows["<none>"]["subtree_quota"] == 32.0


@pytest.mark.parametrize(
    ("stanza", "message"),
    [
        (
            'partitionable = "yes"',
            "machines[0].partitionable",
        ),
        (
            "partitionable = true\nattributes = { Memory = 4096 }",
            "machines[0].partitionable: a partitionable slot needs attributes.Cpus",
        ),
        (
            "partitionable = true\nattributes = { Cpus = 2.5 }",
            "machines[0].partitionable: a partitionable slot needs attributes.Cpus",
        ),
        (
            "consumption_policy = true\nattributes = { Cpus = 2 }",
            "machines[0].consumption_policy: a consumption policy is for a partitionable slot",
        ),
        (
            "partitionable = true\nnum_claims = 2\nattributes = { Cpus = 2 }",
            "machines[0].num_claims: only with consumption_policy = true",
        ),
        (
            "partitionable = true\nconsumption_policy = true\nnum_claims = 0\n"
            "attributes = { Cpus = 2 }",
            "machines[0].num_claims",
        ),
        (
            "partitionable = true\nconsumption_policy = true\nconsumption_cpus = ' '\n"
            "attributes = { Cpus = 2 }",
            "machines[0].consumption_cpus: expected a ClassAd expression",
        ),
        (
            "partitionable = true\nconsumption_policy = 1\nattributes = { Cpus = 2 }",
            "machines[0].consumption_policy: expected true or false",
        ),
    ],
)
def test_bad_partitionable_is_one_line_exit_2(
    tmp_path: Path, run: Any, write_config: Any, stanza: str, message: str
) -> None:
    text = f'[pool]\nuid_domain = "example.org"\n\n[[machines]]\nname = "big"\n{stanza}\n'
    result = run("config", "check", "--config", str(write_config(text)))
    assert result.exit_code == 2
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("resources", [{"Cpus": -1}, {"Cpus": "4"}, [4], {"Cpus": True}], ids=str)
def test_bad_claim_resources_are_refused(
    tmp_path: Path, run: Any, write_config: Any, resources: object
) -> None:
    """A claim's ``resources`` must map names to amounts of 0 or more: else exit 2 with
    one line naming the key, and the state file is left as it was."""
    args = _args(tmp_path, write_config)
    _submit(run, args, 4)
    assert run("negotiate", *args, "--now", NOW).exit_code == 0
    path = tmp_path / "state.json"
    raw = json.loads(path.read_text())
    raw["negotiator"]["claims"]["slot1_1@big001"]["resources"] = resources
    path.write_text(json.dumps(raw))
    before = path.read_bytes()
    result = run("negotiate", *args, "--now", LATER)
    assert result.exit_code == 2
    assert "negotiator.claims.slot1_1@big001.resources: expected resource name -> amount" in (
        result.stderr
    )
    assert len(result.stderr.strip().splitlines()) == 1
    assert path.read_bytes() == before


def test_simulate_gives_carved_cpus_back_when_jobs_end(
    tmp_path: Path, run: Any, write_config: Any
) -> None:
    """Three 4-CPU jobs of 600 s then one 8-CPU job of 1200 s on 16 CPUs: cycle 0 carves
    4 + 4 + 4 = 12 CPUs in job order and the 8-CPU job does not fit the 4 left; at 600 s
    the three end and give their 12 back, and the 8-CPU job takes 8; at 1200 s it still
    runs; at 1800 s it ends: 0. The pool row counts the dynamic slots' CPUs against the
    partitionable slot's 16."""
    workload = tmp_path / "w.json"
    workload.write_text(
        json.dumps(
            [
                {"id": "1.0", "owner": "alice", "run_time": 600, "request_cpus": 4, "count": 3},
                {"id": "2.0", "owner": "alice", "run_time": 1200, "request_cpus": 8},
            ]
        )
    )
    args = _args(tmp_path, write_config)
    result = run(
        "simulate",
        *args,
        "--now",
        NOW,
        "--workload",
        str(workload),
        "--until",
        "1800",
        "--cycle",
        "600",
        "--output",
        "json",
    )
    assert result.exit_code == 0, result.stderr
    pool = [(r["slots"], r["capacity"]) for r in json.loads(result.stdout) if r["kind"] == "pool"]
    assert pool == [(12.0, 16.0), (8.0, 16.0), (8.0, 16.0), (0.0, 16.0)]


def test_running_jobs_submitted_carve_their_dynamic_slots(
    tmp_path: Path, run: Any, write_config: Any
) -> None:
    """A running 6-CPU, 2000 MB job naming slot1_2@big001 holds it with 6 CPUs and 2048 MB
    (2000 rounded up to 16 × 128); a running 3-CPU job naming no slot gets the lowest free
    number, slot1_1, with 3 CPUs and 128 MB (0 rounded up to 128). 16 - 6 - 3 = 7 CPUs are
    left, so an 8-CPU job matches nothing; charged 6 and 3 (SLOT_WEIGHT = Cpus)."""
    args = _args(tmp_path, write_config)
    for owner, cpus, memory, extra in (
        ("x", "6", "2000", ["--set", "slot=slot1_2@big001"]),
        ("y", "3", "0", []),
    ):
        result = run(
            "submit",
            *args,
            "--owner",
            owner,
            "--cpus",
            cpus,
            "--memory",
            memory,
            "--set",
            "status=running",
            *extra,
            "--now",
            NOW,
        )
        assert result.exit_code == 0, result.stderr
    claims = json.loads((tmp_path / "state.json").read_text())["negotiator"]["claims"]
    assert {s: (c["job_id"], c["resources"], c["weight"]) for s, c in claims.items()} == {
        "slot1_1@big001": ("2", {"Cpus": 3, "Memory": 128}, 3.0),
        "slot1_2@big001": ("1", {"Cpus": 6, "Memory": 2048}, 6.0),
    }
    _submit(run, args, 8)
    result = run("negotiate", *args, "--now", NOW, "--json", "--dry-run")
    assert json.loads(result.stdout)["unmatched"] == [
        {"job_id": "3", "submitter": "alice@example.org", "reason": "no_matching_slot"}
    ]


def test_consumption_expression_that_does_not_parse_is_exit_2(
    tmp_path: Path, run: Any, write_config: Any
) -> None:
    """A ``consumption_cpus`` that is not a ClassAd expression: one line naming the file,
    the machine and the key, exit 2, when the config is loaded (the submit as well as the
    negotiation), before anything is written."""
    args = _args(tmp_path, write_config, CP_POOL + 'consumption_cpus = "target.RequestCpus +"\n')
    for command in (
        ["submit", "--owner", "alice", "--cpus", "1"],
        ["negotiate", "--dry-run"],
    ):
        result = run(*command, *args, "--now", NOW)
        assert result.exit_code == 2
        assert "machine big consumption_cpus: cannot parse" in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "state.json").exists()


def test_config_check_shows_the_consumption_policy(
    tmp_path: Path, run: Any, write_config: Any
) -> None:
    """``fs config check`` prints the effective keys, defaults of the policy included."""
    result = run("config", "check", "--config", str(write_config(CP_POOL)))
    assert result.exit_code == 0, result.stderr
    assert "consumption_policy = true" in result.stdout
    assert 'consumption_memory = "quantize(target.RequestMemory,{128})"' in result.stdout


def test_bad_claim_concurrency_limits_are_refused(
    tmp_path: Path, run: Any, write_config: Any
) -> None:
    """A claim's ``concurrency_limits`` must be a string (the slot ad's
    ``ConcurrencyLimits``): else exit 2 with one line naming the key, state untouched."""
    args = _args(tmp_path, write_config)
    _submit(run, args, 4)
    assert run("negotiate", *args, "--now", NOW).exit_code == 0
    path = tmp_path / "state.json"
    raw = json.loads(path.read_text())
    raw["negotiator"]["claims"]["slot1_1@big001"]["concurrency_limits"] = 3
    path.write_text(json.dumps(raw))
    before = path.read_bytes()
    result = run("negotiate", *args, "--now", LATER)
    assert result.exit_code == 2
    assert "negotiator.claims.slot1_1@big001.concurrency_limits: expected a" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert path.read_bytes() == before


def _long(run: Any, args: list[str], when: str) -> dict[str, str]:
    """alice's ``fs userprio -l`` attributes (like ``condor_userprio -l``)."""
    result = run("userprio", *args, "-l", "--now", when)
    assert result.exit_code == 0, result.stderr
    block = result.stdout.split('Name = "alice@example.org"')[1].split("\n\n")[0]
    return dict(line.split(" = ", 1) for line in block.strip().splitlines())


def _real(seen: dict[str, str]) -> float:
    """The real priority: ``Priority`` (effective) over ``PriorityFactor`` (``current``: 1000)."""
    return float(seen["Priority"]) / float(seen["PriorityFactor"])


def test_committed_pslot_match_is_charged_its_whole_weight_until_the_next_cycle(
    tmp_path: Path, run: Any, write_config: Any
) -> None:
    """A 4-CPU job committed at NOW on the 16-CPU partitionable slot (half-life 86400 s).

    ``Accountant::AddMatch`` holds SlotWeight 16 (the partitionable slot's ad) until the
    next cycle; at LATER (600 s on) its ``UpdatePriorities`` charges 16 * 600 = 9600
    weighted seconds, P = 0.5*beta + 16*(1 - beta) with beta = 0.5**(600/86400)
    (0.574430..., stored with six decimals: ``SetAttributeFloat`` writes ``%f``; 0.57443
    times the factor 1000 is the double 574.4299999999999, which ``Priority`` prints with
    ``%.16G``). ``CheckMatches`` then holds the dynamic slot at its own 4, so 600 s more
    make 9600 + 4 * 600 = 12000 and P = 0.57443*beta + 4*(1 - beta) = 0.590879 (590.879)."""
    args = _args(tmp_path, write_config)
    _submit(run, args, 4)
    assert run("negotiate", *args, "--now", NOW).exit_code == 0
    beta = 0.5 ** (600 / 86400)
    p = round(0.5 * beta + 16 * (1 - beta), 6)
    seen = _long(run, args, LATER)
    assert (seen["WeightedResourcesUsed"], seen["WeightedAccumulatedUsage"]) == ("16.0", "9600.0")
    assert (_real(seen), seen["Priority"]) == (pytest.approx(p, rel=1e-12), "574.4299999999999")
    result = run("negotiate", *args, "--now", LATER)
    assert result.exit_code == 0, result.stderr
    seen = _long(run, args, LATER)
    assert (seen["ResourcesUsed"], seen["WeightedResourcesUsed"]) == ("1", "4.0")
    assert seen["WeightedAccumulatedUsage"] == "9600.0"
    seen = _long(run, args, "2026-11-21T12:20:00Z")
    assert seen["WeightedAccumulatedUsage"] == "12000.0"
    later = round(p * beta + 4 * (1 - beta), 6)
    assert (_real(seen), seen["Priority"]) == (pytest.approx(later, rel=1e-12), "590.879")
