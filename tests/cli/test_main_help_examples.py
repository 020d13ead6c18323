"""Every example in every ``--help`` runs: each ``fs ...`` line of a help text's
``Examples:`` block is run as written, exit 0, in a folder holding the sample pool.

The examples name a few files of their own (a ``condor_status`` dump, an ``sacct``
listing, ...): :data:`INPUTS` makes each from the real captures under tests/fixtures,
under the name the example gives. An example that runs the real tool first
(``condor_q -allusers -json > queue.json && fs import condor-q queue.json``,
``condor_config_val -dump | fs import condor-config - ...``) runs its fs part, on the
capture written under that name or piped in; a capture from another pool than the sample
(the HTCondor 25.0 and Slurm 26.05 clusters) is read in that pool (:data:`CAPTURE_POOLS`).
The folder is made as every help's closing note says (:data:`EXAMPLES_NOTE`: ``fs init
--example sample_configs`` in an empty folder, then its ``export`` line), so the examples
work on a copy of the sample state and nothing more: the edits name its records, and an
example that needs a job in the queue submits it first (``fs submit ... && fs prio ...``),
so that each runs as shown on the sample pool.
"""

from __future__ import annotations

import re
import shlex
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import click
import pytest

from fairshare_cli.cli.main import EXAMPLES_NOTE, cli

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "fixtures"
NOW = "2026-11-21T12:00:00Z"
HTC = FIXTURES / "htcondor-25.0" / "flat_users"
SLURM = FIXTURES / "slurm-22.05"
TODAY = FIXTURES / "slurm-26.05" / "ft4_t2_idle"
#: What condor_history -json prints of a job that ran (attributes the import reads), for a
#: submitter the sample state has no record of: 2 CPUs 09:00-11:00 on 2026-11-21.
HISTORY_ADS = (
    '[{"ClusterId": 501, "ProcId": 0, "Owner": "zoe", "User": "zoe@example.org", '
    '"JobStatus": 4, "JobCurrentStartDate": 1795251600, "CompletionDate": 1795258800, '
    '"RequestCpus": 2}]\n'
)

#: (the command's words, a file an example names) -> the capture it is made from.
INPUTS: dict[tuple[str, str], Path | str] = {
    ("import condor-config", "/etc/condor/condor_config"): HTC / "condor_config",
    ("import condor-config", "-"): HTC / "condor_config_val.dump.txt",
    ("import condor-history", "jobs.json"): HISTORY_ADS,
    ("import condor-q", "queue.json"): HTC / "condor_q.json",
    ("import condor-userprio", "prio.txt"): HTC / "condor_userprio.long_allusers.txt",
    ("import condor-status", "slots.json"): HTC / "condor_status.json",
    ("import dirac-cfg", "dirac.cfg"): FIXTURES / "dirac-cfg" / "dirac.cfg",
    ("import sacct", "jobs.txt"): SLURM / "sacct_jobs_1_13.txt",
    ("import sacctmgr", "assoc.txt"): SLURM / "ft1_running" / "sacctmgr_assoc_tree.txt",
    ("import sacctmgr", "qos.txt"): SLURM / "ft1_running" / "sacctmgr_qos.txt",
    ("import scontrol-assoc", "assoc_mgr.txt"): SLURM / "ft1_running" / "scontrol_assoc_mgr.txt",
    ("import slurm-conf", "/etc/slurm/slurm.conf"): SLURM / "config" / "slurm.conf.fairtree",
    ("import squeue", "jobs.txt"): SLURM / "ft1_running" / "scontrol_show_jobs.txt",
    ("import squeue", "jobs.json"): TODAY / "squeue_json.txt",
    ("import sshare", "shares.txt"): SLURM / "ft1_running" / "sshare_a_l_P.txt",
}
#: Commands whose examples start from no state (the Slurm captures' cluster), and the
#: Slurm imports' capture time as --now.
FRESH_STATE = ("import scontrol-assoc", "import squeue", "import sshare")
SLURM_NOW = (SLURM / "ft1_running" / "date.txt").read_text().splitlines()[3]
#: (the command's words, the file its example names) -> the config (in the examples'
#: folder) and --now of the pool a capture comes from, read into a new state.
CAPTURE_POOLS = {
    ("import condor-q", "queue.json"): ("htcondor.toml", "2026-11-23T18:25:33Z"),
    ("import condor-userprio", "prio.txt"): ("htcondor.toml", "2026-11-23T18:25:33Z"),
    ("import squeue", "jobs.json"): (
        "slurm-26.05.toml",
        (TODAY / "date.txt").read_text().splitlines()[3],
    ),
}


def _commands(cmd: click.Command, path: list[str]) -> Iterator[tuple[list[str], click.Command]]:
    yield path, cmd
    if isinstance(cmd, click.Group):
        ctx = click.Context(cmd, info_name=path[-1])
        for name in cmd.list_commands(ctx):
            sub = cmd.get_command(ctx, name)
            assert sub is not None
            yield from _commands(sub, [*path, name])


def examples() -> list[tuple[str, str]]:
    """(the command's words, one example line) for every example of every help text;
    a line ending in a backslash goes on, and '#' starts a comment."""
    out = []
    for path, cmd in _commands(cli, ["fs"]):
        lines = (cmd.help or "").splitlines()
        joined: list[str] = []
        for line in lines:
            text = line.strip()
            if joined and joined[-1].endswith("\\"):
                joined[-1] = joined[-1][:-1] + " " + text
            else:
                joined.append(text)
        for text in joined:
            if text.startswith("fs ") or re.search(r"(&&|\|) fs ", text):
                out.append((" ".join(path[1:]), text.split("  #")[0].split(" #")[0].strip()))
    return out


EXAMPLES = examples()


def test_the_examples_were_found() -> None:
    assert len(EXAMPLES) > 50
    assert {words for words, _ in EXAMPLES} >= {"whatif", "simulate", "userprio", "import sacct"}
    after_a_tool = {words for words, line in EXAMPLES if not line.startswith("fs ")}
    assert after_a_tool == {
        "import condor-config",
        "import condor-history",
        "import condor-q",
        "import condor-userprio",
        "import squeue",
    }


#: The note's lines: ``fs init --example DIR``, then ``export NAME=VALUE ...``.
NOTE_LINES = [line.strip() for line in EXAMPLES_NOTE.splitlines()]


def _note_exports(folder: Path) -> dict[str, str]:
    """The variables the note's ``export`` line sets, ``$PWD`` being ``folder``."""
    words = next(line.split() for line in NOTE_LINES if line.startswith("export "))
    pairs = (word.replace("$PWD", str(folder)).split("=", 1) for word in words[1:])
    return dict(pairs)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def pool(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder every example starts from: the sample pool, a copy of its state (and of
    the usage history beside it), and the Slurm captures' cluster."""
    from click.testing import CliRunner

    folder = tmp_path_factory.mktemp("examples")
    init = next(line.split() for line in NOTE_LINES if line.startswith("fs init "))
    result = CliRunner().invoke(cli, [*init[1:-1], str(folder / init[-1])])
    assert result.exit_code == 0, result.stderr
    for name, dumps in (
        ("slurm.toml", (SLURM, SLURM / "ft1_running")),  # the Slurm 22.05 captures
        ("slurm-26.05.toml", (TODAY.parent, TODAY)),
        ("htcondor.toml", ()),
    ):
        config = folder / name
        config.write_text('[pool]\ndefaults = "current"\n', encoding="utf-8")
        imports = [["import", "condor-config", str(HTC / "condor_config")]]
        if dumps:
            top, capture = dumps
            imports = [
                ["import", "slurm-conf", str(top / "config" / "slurm.conf.fairtree")],
                ["import", "sacctmgr", str(capture / "sacctmgr_assoc_tree.txt")],
                ["import", "sacctmgr", str(capture / "sacctmgr_qos.txt")],
            ]
        for words in imports:
            result = CliRunner().invoke(cli, [*words, "--into", str(config)])
            assert result.exit_code == 0, (words, result.stderr)
    return folder


@pytest.mark.parametrize(("words", "line"), EXAMPLES, ids=[line for _, line in EXAMPLES])
def test_every_help_example_runs(
    words: str,
    line: str,
    pool: Path,
    tmp_path: Path,
    run: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    work = tmp_path / "work"
    shutil.copytree(pool, work)
    monkeypatch.chdir(work)
    exports = _note_exports(work)
    assert exports["FAIRSHARE_NOW"] == NOW
    for name, value in exports.items():  # (the state: the copy's own)
        monkeypatch.setenv(name, value)
    if words in FRESH_STATE:
        monkeypatch.setenv("FAIRSHARE_STATE", str(work / "fresh.json"))
    if words.startswith("import s"):  # the Slurm dumps: as of their capture, their cluster
        monkeypatch.setenv("FAIRSHARE_NOW", SLURM_NOW)
        monkeypatch.setenv("FAIRSHARE_CONFIG", str(work / "slurm.toml"))
    stdin = None
    for (command, name), capture in INPUTS.items():
        if command != words or name not in line.split():
            continue
        text = capture if isinstance(capture, str) else capture.read_text(encoding="utf-8")
        if name == "-":
            stdin = text
            continue
        target = work / Path(name).name
        target.write_text(text, encoding="utf-8")
        line = line.replace(name, str(target)) if name.startswith("/") else line
        if (command, name) in CAPTURE_POOLS:
            config, now = CAPTURE_POOLS[command, name]
            monkeypatch.setenv("FAIRSHARE_CONFIG", str(work / config))
            monkeypatch.setenv("FAIRSHARE_STATE", str(work / "fresh.json"))
            monkeypatch.setenv("FAIRSHARE_NOW", now)
    for part in line.split(" && "):
        _tool, piped, fs_part = part.partition(" | ")
        argv = shlex.split(fs_part if piped else part)
        if argv[0] != "fs":  # (the real tool writing its dump: its capture is there)
            assert ">" in argv, part
            continue
        result = run(*argv[1:], input=stdin if piped else None)
        assert result.exit_code == 0, (part, result.stderr)


HELPS = [words for words, _ in _commands(cli, ["fs"])]


@pytest.mark.parametrize("words", HELPS, ids=[" ".join(words) for words in HELPS])
def test_an_examples_block_ends_in_a_blank_line(words: list[str]) -> None:
    """``fs submit --help``: the text after the examples is a paragraph of its own, set off
    by a blank line, as click sets off the paragraphs it wraps (it ran on from the last
    example: ``fs submit --file sample_configs/jobs.json --dry-run`` then ``The submit time
    is --now ...`` on the next line)."""
    from click.testing import CliRunner

    result = CliRunner().invoke(cli, [*words[1:], "--help"], env={"COLUMNS": "100"})
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    heads = [i for i, line in enumerate(lines) if line.strip() in ("Example:", "Examples:")]
    for head in heads:
        indent = len(lines[head]) - len(lines[head].lstrip())
        after = next(line for line in lines[head + 1 :] if len(line) - len(line.lstrip()) <= indent)
        assert after == "", (lines[head], after)


@pytest.mark.parametrize("words", HELPS, ids=[" ".join(words) for words in HELPS])
def test_a_help_with_examples_says_how_to_run_them(words: list[str]) -> None:
    """``fs setfactor --help`` showed ``fs setfactor ivan@example.org 4``, which fails on an
    ``fs init`` config: a help that shows examples ends with the note naming the sample
    pool and the lines that make a copy of it to run them in (which the test above runs)."""
    from click.testing import CliRunner

    result = CliRunner().invoke(cli, [*words[1:], "--help"], env={"COLUMNS": "100"})
    shown = [line.strip() for line in result.stdout.splitlines()]
    if "Examples:" in shown or "Example:" in shown:
        assert shown[-len(NOTE_LINES) + 1 :] == NOTE_LINES[1:]  # (after click's \b)
