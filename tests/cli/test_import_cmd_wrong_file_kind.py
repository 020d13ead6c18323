"""An import handed another tool's dump says which import the file is for.

Every import fed every capture under tests/fixtures that is not its own input is refused in
one line (exit 2, nothing written), and where the file shows whose it is, the line ends by
naming the import that reads it. Before, ``fs import condor-config dirac.cfg`` said only
``dirac.cfg:1: expected NAME = value (a condor_config line), got 'DIRAC'`` and ``fs import
history pool.toml`` ``unknown usage history field '# A realistic sample pool...'``: true,
but the admin was left to work out that the file wanted ``fs import dirac-cfg`` (or
``--config``). A capture no import reads says what it is and what fs reads in its place
(``sprio``'s table: ``fs sprio`` computes it; ``squeue``'s table: ``fs import squeue``
reads ``squeue --json``); before, each was refused with no word of it. Logs and READMEs
name nothing. The fixtures begin with the shell line that made them (``$ sshare -a -l -P``); a
file saved from the tool has no such line, and the guess skips it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import refused
from tests.conftest import FIXTURES, REPO

NOW = "2026-11-23T18:25:33Z"
SAMPLE = REPO / "sample_configs"

#: What each capture is, by its name: the imports that read it (the words the refusal ends
#: with), or what the refusal says instead for fs's own files; None: nothing tells whose
#: it is (no log, no README).
READS: dict[str, tuple[str, ...] | str | None] = {
    "dirac.cfg": ("dirac-cfg",),
    "condor_config": ("condor-config",),
    "condor_config_val.dump.txt": ("condor-config",),
    "condor_q.json": ("condor-q", "condor-history"),
    "condor_q.long.txt": ("condor-q", "condor-history"),
    "condor_status.json": ("condor-status",),
    "condor_status.long.txt": ("condor-status",),
    "condor_userprio.long.txt": ("condor-userprio",),
    "condor_userprio.long_allusers.txt": ("condor-userprio",),
    "condor_userprio.txt": ("condor-userprio",),
    "condor_userprio.allusers_all.txt": ("condor-userprio",),
    "condor_userprio.quotas.txt": ("condor-userprio",),
    "sacctmgr_assoc_tree.txt": ("sacctmgr",),
    "sacctmgr_qos.txt": ("sacctmgr",),
    "scontrol_assoc_mgr.txt": ("scontrol-assoc",),
    "scontrol_show_jobs.txt": ("squeue",),
    "scontrol_show_partition.txt": ("slurm-conf",),
    "scontrol_show_config_prior.txt": ("slurm-conf",),
    "sshare_a_l_P.txt": ("sshare",),
    "sshare_a_l.txt": ("sshare",),
    "sshare_a_P_fields.txt": ("sshare",),
    "sshare_json.txt": ("sshare",),
    "sshare_a_l_json.txt": ("sshare",),
    "sacct_jobs_1_13.txt": ("sacct",),
    "sacct.txt": ("sacct",),
    "sacct_P.txt": ("sacct",),
    "slurm.conf.classic": ("slurm-conf",),
    "slurm.conf.fairtree": ("slurm-conf",),
    "slurm.conf.flags": ("slurm-conf",),
    "slurm.conf.basic": ("slurm-conf",),
    "slurm.conf.basic_fairtree": ("slurm-conf",),
    "squeue_json.txt": ("squeue",),
    "history.csv": ("history",),
    "pool.toml": "give it as --config",
    "sample-state.json": "give it as --state",
    "jobs.json": "fs submit --file",
    "squeue.txt": "it looks like squeue's table: fs import squeue reads squeue --json or "
    "scontrol show jobs output instead",
}
SPRIO = "it looks like sprio output: fs sprio computes it, from the queue fs import squeue reads"
READS |= {name: SPRIO for name in ("sprio.txt", "sprio_l.txt", "sprio_n_l.txt", "sprio_w.txt")}
READS |= {"sprio_long_format.txt": SPRIO}
#: Every capture (the three other Slurm 22.05 clusters' files are cl1_idle's again), and
#: fs's own sample files.
COPIES = {"cl2_idle", "ft1_running", "ft2_idle", "basic_fairtree"}
FILES = sorted(p for p in FIXTURES.rglob("*") if p.is_file() and p.parent.name not in COPIES)
FILES += [SAMPLE / name for name in ("history.csv", "pool.toml", "sample-state.json", "jobs.json")]
KINDS = ["condor-config", "condor-history", "condor-q", "condor-status", "condor-userprio"]
KINDS += ["dirac-cfg", "history", "sacct", "sacctmgr", "scontrol-assoc", "slurm-conf"]
KINDS += ["squeue", "sshare"]
#: The kinds that write the state (the others print a config fragment).
STATE_KINDS = {"condor-history", "condor-q", "condor-status", "condor-userprio", "history"}
STATE_KINDS |= {"sacct", "scontrol-assoc", "squeue", "sshare"}


def _lines() -> list[Any]:
    out = []
    for path in FILES:
        reads = READS.get(path.name)
        for kind in KINDS:
            if isinstance(reads, tuple) and kind in reads:
                continue
            name = f"{path.parent.name}/{path.name}"
            out.append(pytest.param(kind, path, reads, id=f"fs import {kind} {name}"))
    return out


@pytest.mark.parametrize(("kind", "path", "reads"), _lines())
def test_a_dump_for_another_import_is_refused_naming_that_import(
    kind: str,
    path: Path,
    reads: tuple[str, ...] | str | None,
    tmp_path: Path,
    run: Callable[..., Any],
) -> None:
    argv = ["import", kind, str(path)]
    if kind in STATE_KINDS:
        config = tmp_path / "pool.toml"
        config.write_text('[pool]\ndefaults = "current"\n', encoding="utf-8")
        argv += ["--config", str(config), "--state", str(tmp_path / "state.json"), "--now", NOW]
    result = run(*argv)
    refused(result, path.name)
    assert result.stdout == ""
    said = result.stderr
    if isinstance(reads, tuple):
        assert any(f"fs import {k}" in said for k in reads), said
    elif isinstance(reads, str):
        assert reads in said, said
    else:
        assert "it looks like" not in said, said
    assert not (tmp_path / "state.json").exists()


def test_the_exact_line_of_a_dirac_cfg_given_to_condor_config(run: Callable[..., Any]) -> None:
    result = run("import", "condor-config", str(FIXTURES / "dirac-cfg" / "dirac.cfg"))
    refused(result, "dirac.cfg")
    assert result.stderr.endswith(
        "dirac.cfg:1: expected NAME = value (a condor_config line), got 'DIRAC'; "
        "it looks like a DIRAC configuration: fs import dirac-cfg reads it\n"
    )


@pytest.mark.parametrize(
    ("capture", "kind", "said"),
    [
        pytest.param("squeue.txt", "squeue", 'squeue.txt:2: expected "JobId=..." (scontrol show '
                     "jobs) or squeue --json output; it looks like squeue's table: fs import squeue "
                     "reads squeue --json or scontrol show jobs output instead", id="squeue-table"),
        pytest.param("sprio_l.txt", "sshare", "sprio_l.txt:2: expected sshare's header (with -P, or "
                     "a table); it looks like sprio output: fs sprio computes it, from the queue fs "
                     "import squeue reads (squeue --json or scontrol show jobs output)", id="sprio"),
    ],
)  # fmt: skip
def test_the_exact_line_of_a_queue_table_given_to_an_import(
    capture: str, kind: str, said: str, tmp_path: Path, run: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    """``fs import squeue squeue.txt`` (squeue's default table, not the parsable output fs
    reads) said only ``expected "JobId=..." ...``, and ``fs import sshare sprio_l.txt``
    ``expected sshare's header``: no word of what the file was, nor where sprio's numbers
    come from."""
    (tmp_path / capture).write_bytes((FIXTURES / "slurm-22.05" / "cl1_idle" / capture).read_bytes())
    (tmp_path / "pool.toml").write_text('[pool]\ndefaults = "current"\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = run(
        "import", kind, capture, "--config", "pool.toml", "--state", "s.json", "--now", NOW
    )
    refused(result)
    assert result.stderr == f"fs: error: {said}\n"
    assert not (tmp_path / "s.json").exists()


@pytest.mark.parametrize(
    ("argv", "env", "said"),
    [
        pytest.param(["import", "sacct", "sshare.txt"], {"FAIRSHARE_NOW": "yesterday"},
                     'FAIRSHARE_NOW: expected epoch seconds or an ISO-8601 time like '
                     '2026-11-21T12:00:00Z, got "yesterday"', id="now-from-the-environment"),
        pytest.param(["import", "sacct", "sshare.txt", "--now", NOW, "--last-decay", "soon"], {},
                     "--last-decay: expected epoch seconds or an ISO-8601 time like "
                     '2026-11-21T12:00:00Z, got "soon"', id="last-decay"),
    ],
)  # fmt: skip
def test_a_refused_option_gets_no_guess_at_the_file(
    argv: list[str], env: dict[str, str], said: str, tmp_path: Path, run: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    """``FAIRSHARE_NOW=yesterday fs import sacct sshare.txt``: the refusal is of the time, and
    it ended ``; it looks like sshare output: fs import sshare reads it``, as if the file
    were the fault. What the file looks like is added only to a refusal that names it."""
    shares = FIXTURES / "slurm-22.05" / "cl1_idle" / "sshare_a_l_P.txt"
    (tmp_path / "sshare.txt").write_bytes(shares.read_bytes())
    (tmp_path / "pool.toml").write_text('[pool]\ndefaults = "current"\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = run(*argv, "--config", "pool.toml", "--state", "s.json", env=env)
    refused(result)
    assert result.stderr == f"fs: error: {said}\n"
    assert not (tmp_path / "s.json").exists()
