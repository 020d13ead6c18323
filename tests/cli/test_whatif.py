"""``fs whatif``: before and after side by side, replay of the kept usage history."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
NOW = "2026-11-21T12:00:00Z"


@pytest.fixture
def sample(tmp_path: Path, run: Callable[..., Any]) -> dict[str, Path]:
    """The sample pool's config, its state built by importing its history (store kept)."""
    config = tmp_path / "pool.toml"
    shutil.copy(REPO / "sample_configs" / "pool.toml", config)
    state = tmp_path / "state.json"
    hist = REPO / "sample_configs" / "history.csv"
    args = ["--config", str(config), "--state", str(state), "--now", NOW]
    assert run("import", "history", str(hist), *args).exit_code == 0
    return {"config": config, "state": state, "history": hist}


def _args(s: dict[str, Path]) -> list[str]:
    return ["--config", str(s["config"]), "--state", str(s["state"]), "--now", NOW]


def test_no_change_says_no_differences(sample: dict[str, Path], run: Callable[..., Any]) -> None:
    result = run(
        "whatif", "--set", "accountant.priority_halflife=86400", "userprio", *_args(sample)
    )
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[0].endswith("no differences")
    assert result.stdout.splitlines()[1].startswith("Note: every --set value is the config's")
    doc = json.loads(
        run("whatif", "--set", "pool.name=x", "quota", *_args(sample), "--json").stdout
    )
    assert doc["changes"] == [] and doc["before"] == doc["after"]


def test_half_life_replay_matches_an_import_under_that_half_life(
    sample: dict[str, Path], tmp_path: Path, run: Callable[..., Any]
) -> None:
    """86400 -> 3600 on the sample pool: the after side is the kept history replayed under
    a 3600 s half-life, so it must equal a fresh import of the same history under a config
    that says 3600; and ranks move (recent usage weighs far more under the short one)."""
    change = ["--set", "accountant.priority_halflife=3600"]
    result = run("whatif", *change, "userprio", "--allusers", *_args(sample), "--json")
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert any(c["field"] == "rank" for c in doc["changes"])
    short = tmp_path / "short.toml"
    text = sample["config"].read_text(encoding="utf-8")
    short.write_text(text.replace("priority_halflife = 86400", "priority_halflife = 3600"))
    assert short.read_text() != text
    state2 = tmp_path / "state2.json"
    args2 = ["--config", str(short), "--state", str(state2), "--now", NOW]
    assert run("import", "history", str(sample["history"]), *args2).exit_code == 0
    direct = json.loads(run("userprio", "--allusers", *args2, "--json").stdout)
    assert doc["after"] == direct
    # The same replay from --history FILE instead of the kept store.
    again = run(
        "whatif", *change, "--history", str(sample["history"]), "userprio", "--allusers",
        *_args(sample), "--json",
    )  # fmt: skip
    assert json.loads(again.stdout)["after"] == direct


def test_table_marks_moves_and_counts_them(
    sample: dict[str, Path], run: Callable[..., Any]
) -> None:
    result = run(
        "whatif", "--set", "accountant.priority_halflife=3600", "--wide", "userprio",
        *_args(sample),
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    last = result.stdout.strip().splitlines()[-1]
    assert " rows changed, " in last and " moved, " in last
    assert " -> " in result.stdout


def test_unknown_key_is_refused_with_a_hint(
    sample: dict[str, Path], run: Callable[..., Any]
) -> None:
    result = run("whatif", "--set", "accountant.priority_halflif=3600", "userprio", *_args(sample))
    assert result.exit_code == 2
    assert "did you mean 'priority_halflife'" in result.stderr
    assert result.stderr.count("\n") == 1


NOTE = (
    "Note: no usage history is kept beside {state}, so the after side revalues no recorded "
    "usage: keep one with 'fs import history FILE' (or sacct, condor-history; --rebuild to "
    "rebuild the state from it), or pass --history FILE"
)


def test_state_without_kept_history_says_so_in_its_output(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """A half-life preview of a state with no usage history beside it: the table's footer
    (and --json's notes) say why nothing moved and name fs import history."""
    state = tmp_path / "state.json"
    shutil.copy(REPO / "sample_configs" / "sample-state.json", state)
    args = ["--config", str(REPO / "sample_configs" / "pool.toml"), "--state", str(state)]
    line = ["whatif", "--set", "accountant.priority_halflife=3600", "userprio", *args]
    result = run(*line, "--now", NOW)
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        "fs userprio with accountant.priority_halflife=3600: before -> after: no differences",
        NOTE.format(state=state),
    ]
    doc = json.loads(run(*line, "--now", NOW, "--json").stdout)
    assert doc["notes"] == [NOTE.format(state=state).removeprefix("Note: ")]
    assert doc["changes"] == []


def test_an_empty_history_file_is_no_history_and_stays_unwritten(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """An empty file where the history would be (an import that died on a full disk, a
    ``touch``): the preview says no history is kept, as with none, and writes nothing
    into it (it once made its tables there, then replayed none of the state's records:
    every row "gone")."""
    state = tmp_path / "state.json"
    shutil.copy(REPO / "sample_configs" / "sample-state.json", state)
    kept = tmp_path / "state.history.sqlite"
    kept.write_bytes(b"")
    args = ["--config", str(REPO / "sample_configs" / "pool.toml"), "--state", str(state)]
    result = run("whatif", "--set", "accountant.priority_halflife=3600", "userprio", *args,
                 "--now", NOW)  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[-1] == NOTE.format(state=state)
    assert kept.read_bytes() == b""


def test_a_history_lacking_the_states_records_is_not_replayed(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """The sample state beside a copy of its history cut to its first 5 records (the
    state includes 401): not this state's history, said so, nothing revalued (a replay of
    5 records would show nearly every row's usage gone), the file left as it was."""
    import sqlite3

    state = tmp_path / "state.json"
    shutil.copy(REPO / "sample_configs" / "sample-state.json", state)
    kept = tmp_path / "state.history.sqlite"
    shutil.copy(REPO / "sample_configs" / "sample-state.history.sqlite", kept)
    with sqlite3.connect(kept) as conn:
        conn.execute("DELETE FROM records WHERE id > 5")
    conn.close()
    before = kept.read_bytes()
    args = ["--config", str(REPO / "sample_configs" / "pool.toml"), "--state", str(state)]
    result = run("whatif", "--set", "accountant.priority_halflife=3600", "userprio", *args,
                 "--now", NOW)  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines() == [
        "fs userprio with accountant.priority_halflife=3600: before -> after: no differences",
        f"Note: the usage history {kept} lacks records the state includes (it is not this "
        "state's), so the after side revalues no recorded usage: pass --history FILE, or "
        "move it aside and keep a new one with 'fs import history FILE --rebuild'",
    ]
    assert kept.read_bytes() == before


def test_the_sample_pool_keeps_the_history_its_half_life_preview_needs(
    run: Callable[..., Any],
) -> None:
    """sample_configs ships sample-state.history.sqlite (history.csv's 401 records, which
    the sample state was built from): the half-life preview moves without --history, and
    moves exactly as with --history sample_configs/history.csv."""
    args = ["--config", str(REPO / "sample_configs" / "pool.toml"), "--now", NOW]
    line = ["whatif", "--set", "accountant.priority_halflife=3600", "userprio", *args]
    result = run(*line)
    assert result.exit_code == 0, result.stderr
    assert "Note:" not in result.stdout and result.stderr == ""
    assert " rows changed, " in result.stdout.splitlines()[-1]
    kept = json.loads(run(*line, "--json").stdout)
    history = ["--history", str(REPO / "sample_configs" / "history.csv")]
    given = json.loads(run(*line[:3], *history, *line[3:], "--json").stdout)
    assert kept["changes"] and kept == given


def test_only_the_models_a_key_revalues_are_replayed() -> None:
    """A half-life or slot weight revalues the accountant's past, a Slurm decay or usage
    factor Slurm's; other models keep their stored sections (all replay with --history
    alone)."""
    from fairshare_cli.cli.whatif_replay import needs_replay, replayed_sections

    half = {"accountant.priority_halflife": 3600}
    assert needs_replay(half) == ["accountant.priority_halflife"]
    assert replayed_sections(half) == {"accountant"}
    slurm = {"priority.decay_halflife": "1-0", 'qos."long".usage_factor': 2.0}
    assert replayed_sections(slurm) == {"slurm"}
    assert replayed_sections({**half, **slurm, "pool.name": "x"}) == {"accountant", "slurm"}
    assert replayed_sections({"pool.name": "x"}) == frozenset()


SAMPLE = [
    "--config",
    str(REPO / "sample_configs" / "pool.toml"),
    "--now",
    NOW,
]
QUOTA_300 = ["whatif", "--set", 'groups."group_physics".quota=300']


@pytest.mark.parametrize(
    "line",
    [
        pytest.param([*QUOTA_300, "quota", *SAMPLE, "--output", "json"], id="after-the-view"),
        pytest.param([*QUOTA_300, "quota", *SAMPLE, "--output=json"], id="with-equals"),
        pytest.param([*QUOTA_300, "--output", "json", "quota", *SAMPLE], id="before-the-view"),
    ],
)
def test_output_json_is_the_comparison_as_json(line: list[str], run: Callable[..., Any]) -> None:
    """fs whatif --set 'groups."group_physics".quota=300' quota ... --output json prints the
    document --json prints (it printed the table), whichever side of the view it stands."""
    result = run(*line)
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == json.loads(
        run(*QUOTA_300, "quota", *SAMPLE, "--json").stdout
    )


@pytest.mark.parametrize("fmt", ["csv", "ndjson"])
def test_output_csv_of_a_view_is_refused_naming_what_it_takes(
    fmt: str, run: Callable[..., Any]
) -> None:
    """fs whatif --set ... quota --output csv was refused as '--json and --output csv
    disagree', naming a --json nobody gave."""
    result = run(*QUOTA_300, "quota", *SAMPLE, "--output", fmt)
    assert result.exit_code == 2
    assert "--json and" not in result.stderr
    assert f"--output {fmt}: fs whatif quota prints one table or one JSON document" in result.stderr


def test_json_with_another_output_is_refused(run: Callable[..., Any]) -> None:
    result = run(*QUOTA_300, "quota", *SAMPLE, "--json", "--output", "table")
    assert result.exit_code == 2
    assert "--json and --output table disagree" in result.stderr


def test_output_csv_reaches_a_simulation(run: Callable[..., Any]) -> None:
    workload = str(REPO / "sample_configs" / "workload.json")
    sim = ["--workload", workload, "--until", "1:00:00", "--cycle", "1800"]
    result = run(*QUOTA_300, "--output", "csv", "simulate", *sim, *SAMPLE)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[0].startswith("policy,time,kind,name,")


def test_a_history_of_another_kind_is_refused(
    sample: dict[str, Path], run: Callable[..., Any], tmp_path: Path
) -> None:
    """``fs whatif --history FILE --set accountant.priority_halflife=3600 userprio`` with a
    FILE that is a one-line text of another kind: refused at its header (it was read as a
    history of no record, and every row shown "gone")."""
    junk = tmp_path / "junk.txt"
    junk.write_text("garbage here\n", encoding="utf-8")
    line = ["whatif", "--history", str(junk), "--set", "accountant.priority_halflife=3600"]
    result = run(*line, "userprio", *_args(sample))
    assert result.exit_code == 2, result.stdout
    assert result.stderr == f"fs: error: {junk}:1: unknown usage history field 'garbage here'\n"
    assert result.stdout == ""


@pytest.mark.parametrize("flags", [["-w"], ["--weights"], ["-lw", "--json"]])
def test_sprio_weights_are_refused_rather_than_shown_as_no_differences(
    flags: list[str], run: Callable[..., Any]
) -> None:
    """``fs whatif --set priority.weights.age=5000 sprio -w`` printed "no differences" (and
    ``changes: []`` beside an age weight of 1000 before and 5000 after): the comparison is
    of jobs, and -w prints none. Now one line, exit 2."""
    sample = REPO / "sample_configs"
    line = ["--config", str(sample / "pool.toml"), "--jobs-file", str(sample / "jobs.json")]
    result = run(
        "whatif", "--set", "priority.weights.age=5000", "sprio", *flags, *line, "--now", NOW
    )
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        "fs: error: fs whatif sprio compares the jobs' priorities and sprio -w prints no job, "
        "only the weights (fs config check shows them): drop -w (see 'cli whatif --help')\n"
    )  # (whatif's refusal: the help of the command typed, not 'fs sprio --help')


def test_a_slurm_replay_that_moves_nothing_says_no_differences(run: Callable[..., Any]) -> None:
    """The sample state's Slurm usage and its history replayed sum the same charges in
    another order: figures equal to 4e-15 are not changes (it listed 13 rows changed,
    0.027320935097171557 -> 0.027320935097171546 ...). A usage factor of a QOS no recorded
    job ran in revalues nothing, but replays the history."""
    config = str(REPO / "sample_configs" / "pool.toml")
    result = run(
        *("whatif", "--set", "qos.high.usage_factor=3", "sshare", "-a"),
        *("--config", config, "--now", NOW),
    )
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[0].endswith("no differences")


def test_a_group_knob_the_view_prints_is_a_difference(run: Callable[..., Any]) -> None:
    """accept_surplus=true on group_chemistry.lab moves no number (nothing is idle), but
    fs quota's Surplus column says yes where it said no: that is a change (it said 'no
    differences')."""
    result = run(
        *("whatif", "--set", 'groups."group_chemistry.lab".accept_surplus=true', "quota"),
        *SAMPLE,
    )
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[-1] == "1 row changed, 0 moved, 0 appeared, 0 left (1 change)"
    assert [line.split("│")[-1].strip() for line in lines if "group_chemistry.lab " in line] == [
        "no -> yes"
    ]


def test_an_association_s_raw_shares_the_view_prints_are_a_difference(
    run: Callable[..., Any],
) -> None:
    """Doubling both astro users' shares leaves their NormShares (their part of astro's)
    but changes sshare's RawShares: changes (it said 'no differences')."""
    erin, frank = "accounts.astro.users.erin=2", "accounts.astro.users.frank=2"
    result = run("whatif", "--set", erin, "--set", frank, "sshare", "-a", *SAMPLE, "--json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["changes"] == [
        {"key": f"astro/{user}", "field": "raw_shares", "before": 1, "after": 2}
        for user in ("erin", "frank")
    ]


@pytest.mark.parametrize(
    "key", ["accountant.PRIORITY_HALFLIFE", "accountant.priority_halflife_in_file_as_knob"]
)
def test_a_knob_name_in_set_is_its_config_key(
    key: str, tmp_path: Path, run: Callable[..., Any]
) -> None:
    """fs whatif --set accountant.PRIORITY_HALFLIFE=3600 userprio on the sample pool said
    "accountant.priority_halflife is set twice" (the file sets priority_halflife), as did
    --set accountant.priority_halflife=3600 on a file that writes PRIORITY_HALFLIFE; the
    knob name, accepted in the file, now replaces the file's value under either name and
    replays the history as the key does: 19 rows change, as in the README's session."""
    from tests.conftest import REPO

    pool = REPO / "sample_configs" / "pool.toml"
    if key.endswith("_as_knob"):
        config = tmp_path / "pool.toml"
        text = pool.read_text().replace("priority_halflife =", "PRIORITY_HALFLIFE =")
        config.write_text(
            text.replace(
                'state = "sample-state.json"', f'state = "{REPO}/sample_configs/sample-state.json"'
            )
        )
        key, pool = "accountant.priority_halflife", config
    result = run(
        "whatif", "--set", f"{key}=3600", "userprio", "--config", str(pool),
        "--now", "2026-11-21T12:00:00Z",
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[-1] == (
        "19 rows changed, 3 moved, 0 appeared, 0 left (41 changes)"
    )


@pytest.mark.parametrize(
    ("assignment", "spelt"),
    [
        ("PRIORITY_HALFLIFE=3600", "--set accountant.priority_halflife=3600"),
        ("GROUP_QUOTA=4", "--set groups.<name>.quota=4"),
        ("START=true", "--set pool.start=true or --set machines.<N>.start=true"),
    ],
)
def test_a_bare_knob_name_in_set_names_the_key_to_write(
    run: Callable[..., Any], assignment: str, spelt: str
) -> None:
    """``fs whatif --set PRIORITY_HALFLIFE=3600 userprio`` was refused with the config
    file's hint ("write it in [accountant]"), no help on a command line. ``--set`` takes
    dotted config keys, a knob name only as the last part (``accountant.PRIORITY_HALFLIFE``,
    as the config file takes it inside its table), so a bare knob stays refused, in one
    line naming the ``--set`` to write instead (every key the knob stands for), exit 2."""
    pool = str(REPO / "sample_configs" / "pool.toml")
    result = run("whatif", "--set", assignment, "userprio", "--config", pool, "--now", NOW)
    assert (result.exit_code, result.stdout) == (2, "")
    knob = assignment.partition("=")[0]
    assert result.stderr == (
        f"fs: error: --set {assignment}: {knob} alone names no table (--set takes dotted "
        f"config keys); write {spelt}\n"
    )


def test_a_top_level_table_in_set_is_no_knob(run: Callable[..., Any]) -> None:
    """``priority`` is the config's ``[priority]`` table, though ``Priority`` is also a
    knob (of ``[qos.<name>]``): ``--set priority=1`` keeps the config's own refusal."""
    pool = str(REPO / "sample_configs" / "pool.toml")
    result = run("whatif", "--set", "priority=1", "sshare", "--config", pool, "--now", NOW)
    assert result.exit_code == 2
    assert "alone names no table" not in result.stderr


def test_a_view_with_no_rows_says_so_beside_no_differences(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """fs whatif --set priority.weights.fairshare=1 sprio on the sample pool, whose state
    holds no queue: it said 'no differences' alone, as if the weight changed nothing.
    The note says the view is empty and where its jobs come from."""
    state = tmp_path / "state.json"
    shutil.copy(REPO / "sample_configs" / "sample-state.json", state)
    args = ["--config", str(REPO / "sample_configs" / "pool.toml"), "--state", str(state)]
    line = ["whatif", "--set", "priority.weights.fairshare=1", "sprio", *args, "--now", NOW]
    note = (
        "fs sprio shows no rows under either config, so nothing can differ; its jobs come "
        "from the state's queue or --jobs-file FILE"
    )
    result = run(*line)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines() == [
        "fs sprio with priority.weights.fairshare=1: before -> after: no differences",
        f"Note: {note}",
    ]
    assert json.loads(run(*line, "--json").stdout) == {
        "before": [],
        "after": [],
        "changes": [],
        "notes": [note],
    }
    jobs = str(REPO / "sample_configs" / "jobs.json")
    result = run(*line, "--jobs-file", jobs)
    assert result.exit_code == 0, result.stderr
    assert "Note:" not in result.stdout
    assert result.stdout.splitlines()[-1].endswith("changes)")


def test_quota_whatif_heads_the_effective_quota_as_fs_quota_means_it(
    run: Callable[..., Any],
) -> None:
    """``fs whatif --set 'groups."group_physics".quota=300' quota`` headed fs quota's
    Effective Quota "quota", beside "config quota" (the config's): it says "eff. quota";
    and the column of group names, headed "quota" too (the view's name), says "group".
    By hand, group_physics' 300 is 30 once its subgroups' dynamic 0.3 and 0.6 (90, 180)
    are taken out, as its 200 was 20 (docs/htcondor.md)."""
    result = run(*QUOTA_300, "quota", *SAMPLE, "--jobs-file", str(REPO / "sample_configs" /
                 "jobs.json"))  # fmt: skip
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert [c.strip() for c in lines[1].split("┃")] == [
        "group", "rank", "subtree", "eff. quota", "limit", "config quota"
    ]  # fmt: skip
    physics = next(x for x in lines if x.startswith("group_physics "))
    assert [c.strip() for c in physics.split("│")][2:4] == ["200 -> 300", "20 -> 30"]
