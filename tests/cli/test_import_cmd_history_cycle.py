"""``fs import history --cycle`` with ``--now`` between two cycles, then a committed cycle.

Hand-derived from HTCondor 25.0's ``Accountant.cpp`` (``UpdateOnePriority``, ``AddMatch``,
``RemoveMatch``) with ``--now`` counted as a cycle, as docs/htcondor.md says: the import
ends with an accountant update at ``--now``, which the negotiator on the grid never runs.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from fairshare_cli.core.htcondor import accountant as acct

POOL = """
[pool]
uid_domain = "example.org"
[accountant]
priority_halflife = 600
[[machines]]
name = "exec"
count = 2
slots = 1
attributes = { Cpus = 1, Memory = 4096 }
"""

HISTORY = """\
{"owner": "bob", "start": "2026-11-21T12:00:00Z", "end": null}
{"owner": "alice", "start": "2026-11-21T12:01:00Z", "end": "2026-11-21T12:07:00Z"}
{"owner": "carol", "start": "2026-11-21T12:11:00Z", "end": "2026-11-21T12:12:00Z"}
"""


def test_now_between_two_cycles_is_an_update(
    tmp_path: Path, write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    """Cycles every 300 s from 12:00, half-life 600 s: β = 0.5**0.5 per 300 s, γ =
    0.5**0.25 per 150 s.

    ``fs import history h.jsonl --cycle 300 --now 2026-11-21T12:12:30Z``: cycles at 12:00,
    12:05, 12:10, and the update at --now. bob matched at 12:00; alice 60 s into the
    12:00 cycle (uncharged -60), her end seen at 12:10; carol 60 s into the 12:10 cycle
    (-60), her end seen at --now. Then ``fs negotiate --now 2026-11-21T12:15:00Z``:

    - bob: RUP 0.5 → 1 - 0.5β (12:05) → 0.75 (12:10) → 1 - 0.25β at 12:15 (two steps of
      γ: 0.75γ² + 1 - γ²); 900 s = 0.25 h.
    - alice: 0.5β + 0.8(1 - β) (12:05), ·β + (1 - β) (12:10), then unused: (1 - 0.2β -
      0.3β²)·β; 240 + 300 = 540 s = 0.15 h; last used 12:10.
    - carol: at --now, recent usage 1 - 60/150 = 0.6: RUP 0.5γ + 0.6(1 - γ) = 0.5159, 90 s;
      at 12:15 max(0.5159γ, 0.5) = 0.5; 90 s = 0.025 h; begin and last usage 12:12:30, the
      import's --now (the negotiator's first update after her match is 12:15's).
    - <none>: its subtree held 2 slots to 12:10: RUP 0.5β + 2(1 - β), then 1.25; with
      carol's slot to --now, 1.25γ + 2(1 - γ); then bob's alone: ·γ + (1 - γ) = 1.3106
      (1 + 0.25β = 1.1768 had its subtree held bob's slot alone from 12:10);
      540 + 600 + 240 + 150 = 1530 s = 0.425 h.

    The replay keeps its numbers whole; the update at --now and the cycle at 12:15 each
    store six decimals (``%f``), so each RUP at 12:15 is its value at --now (one γ step from
    12:10), stored, then one more γ step, stored.
    """
    hist = tmp_path / "h.jsonl"
    hist.write_text(HISTORY)
    config = write_config(POOL)
    state = ["--config", str(config), "--state", str(tmp_path / "state.json")]
    imported = run(
        "import", "history", str(hist), "--cycle", "300", *state, "--now", "2026-11-21T12:12:30Z"
    )
    assert imported.exit_code == 0, imported.stderr
    records = json.loads((tmp_path / "state.json").read_text())["accountant"]["records"]
    assert {r["last_update"] for r in records.values()} == {1795263150.0}  # 12:12:30
    cycle = run("negotiate", *state, "--now", "2026-11-21T12:15:00Z")
    assert cycle.exit_code == 0, cycle.stderr
    out = run("userprio", "--allusers", "--json", *state, "--now", "2026-11-21T12:15:00Z")
    rows = {r["name"]: r for r in json.loads(out.stdout)}
    beta, gamma, stored = 0.5**0.5, 0.5**0.25, acct.as_stored
    bob = stored(stored(0.75 * gamma + 1 - gamma) * gamma + 1 - gamma)
    alice = stored(stored((1 - 0.2 * beta - 0.3 * beta**2) * gamma) * gamma)
    root = stored(stored(1.25 * gamma + 2 * (1 - gamma)) * gamma + (1 - gamma))
    assert (bob, alice, root) == (0.823223, 0.501041, 1.310567)
    want = {
        "bob@example.org": (bob, 0.25, "12:05:00", "12:15:00"),
        "alice@example.org": (alice, 0.15, "12:05:00", "12:10:00"),
        "carol@example.org": (0.5, 0.025, "12:12:30", "12:12:30"),
        "<none>": (root, 0.425, "12:05:00", "12:15:00"),
    }
    for name, (rup, hours, begin, last) in want.items():
        row = rows[name]
        assert abs(row["real_priority"] - rup) < 1e-12, name
        assert abs(row["accumulated_usage_hours"] - hours) < 1e-12, name
        assert row["begin_usage_time"] == f"2026-11-21T{begin}Z", name
        assert row["last_usage_time"] == f"2026-11-21T{last}Z", name


@pytest.mark.parametrize("cycle", ["1e-320", "1e-300", "0.0009", "0", "-0", "nan", "inf"])
def test_a_cycle_shorter_than_a_millisecond_is_refused(
    tmp_path: Path, write_config: Callable[[str], Path], run: Callable[..., Any], cycle: str
) -> None:
    """``fs import history h.jsonl --cycle 1e-320``: before, the grid's cycle number of a
    start, (start − phase) / cycle, overflowed to infinity (an OverflowError traceback,
    exit 1); cycles down to a millisecond keep every cycle number exact in a float."""
    config = write_config(POOL)
    history = tmp_path / "h.jsonl"
    history.write_text(HISTORY)
    state = tmp_path / "state.json"
    args = ["--config", str(config), "--state", str(state), "--now", "2026-11-21T12:12:30Z"]
    res = run("import", "history", str(history), "--cycle", cycle, *args)
    assert res.exit_code == 2, res.stderr
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in res.stderr
    assert lines[0].startswith(
        f"fs: error: --cycle {cycle}: expected a finite number of seconds of at least 0.001"
    )
    assert not state.exists()
    ok = run("import", "history", str(history), "--cycle", "0.001", *args)
    assert ok.exit_code == 0, ok.stderr


def test_a_cycle_of_1e400_is_refused_as_not_finite(
    tmp_path: Path, write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    """``fs import history h.jsonl --cycle 1e400``: it was "expected a number of seconds of
    at least 0.001", which infinity is (and named the value ``inf``, not as typed); the state
    is not written."""
    config = write_config(POOL)
    history = tmp_path / "h.jsonl"
    history.write_text(HISTORY)
    state = tmp_path / "state.json"
    args = ["--config", str(config), "--state", str(state), "--now", "2026-11-21T12:12:30Z"]
    res = run("import", "history", str(history), "--cycle", "1e400", *args)
    assert (res.exit_code, res.stdout) == (2, "")
    assert res.stderr == (
        "fs: error: --cycle 1e400: expected a finite number of seconds of at least 0.001 "
        "(see 'cli import history --help')\n"
    )
    assert not state.exists()


def test_the_help_names_the_shortest_cycle(run: Callable[..., Any]) -> None:
    """``fs import history --help`` gives the bound ``--cycle 1e-320`` is refused by, as
    docs/htcondor.md does (at least a millisecond)."""
    res = run("import", "history", "--help")
    assert res.exit_code == 0, res.stderr
    assert "cycling every SECONDS (at least 0.001; or a Slurm time string, 5:00) would" in (
        " ".join(res.stdout.split())
    )


def test_an_empty_cycle_start_is_refused(
    tmp_path: Path, write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    """``fs import history h.jsonl --cycle 300 --cycle-start ""`` (a script's
    ``"$UNSET"``) took the default grid in silence, where ``--last-decay ""`` and
    ``--now ""`` are refused; now one line, exit 2, nothing written."""
    config = write_config(POOL)
    history = tmp_path / "h.jsonl"
    history.write_text(HISTORY)
    state = tmp_path / "state.json"
    args = ["--config", str(config), "--state", str(state), "--now", "2026-11-21T12:12:30Z"]
    res = run("import", "history", str(history), "--cycle", "300", "--cycle-start", "", *args)
    assert (res.exit_code, res.stdout) == (2, "")
    assert res.stderr == (
        "fs: error: --cycle-start: expected epoch seconds or an ISO-8601 time like "
        '2026-11-21T12:00:00Z, got ""\n'
    )
    assert not state.exists()


@pytest.mark.parametrize("cycle", ["5:00", "0-0:5:0"])
def test_a_cycle_given_as_a_slurm_time_string_is_that_many_seconds(
    tmp_path: Path, write_config: Callable[[str], Path], run: Callable[..., Any], cycle: str
) -> None:
    """``fs import history h.jsonl --cycle 5:00`` replays on the 300-second grid of
    ``--cycle 300``, as ``fs simulate --cycle 5:00`` reads it; it was refused with
    "'5:00' is not a valid float"."""
    config = write_config(POOL)
    history = tmp_path / "h.jsonl"
    history.write_text(HISTORY)
    states: list[Any] = []
    for value in ("300", cycle):
        state = tmp_path / f"state-{len(states)}.json"
        args = ["--config", str(config), "--state", str(state), "--now", "2026-11-21T12:12:30Z"]
        res = run("import", "history", str(history), "--cycle", value, *args)
        assert res.exit_code == 0, res.stderr
        section = json.loads(state.read_text())["accountant"]
        states.append(section)
    assert states[0] == states[1]
    assert states[0]["records"]  # (a replay took place)


def test_a_point_in_time_as_the_cycle_is_refused(
    tmp_path: Path, write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    """``fs import history h.jsonl --cycle 2026-11-21T18:00:00Z`` says it is a point in
    time, as ``fs simulate --cycle`` does; the state is not written."""
    config = write_config(POOL)
    history = tmp_path / "h.jsonl"
    history.write_text(HISTORY)
    state = tmp_path / "state.json"
    args = ["--config", str(config), "--state", str(state), "--now", "2026-11-21T12:12:30Z"]
    res = run("import", "history", str(history), "--cycle", "2026-11-21T18:00:00Z", *args)
    assert (res.exit_code, res.stdout) == (2, "")
    assert res.stderr == (
        'fs: error: --cycle: "2026-11-21T18:00:00Z" is a point in time, not a duration; give '
        "a length of time: seconds or a Slurm time string (6:00:00 is six hours)\n"
    )
    assert not state.exists()
