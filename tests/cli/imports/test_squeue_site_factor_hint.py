"""``fs import squeue`` of a dump whose printed priorities lie above what the factors give,
with the right ``--last-decay``: the summary names the likely cause, a site factor set with
``scontrol update`` (no dump prints it), and the option that reads it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.conftest import REPO

CAPTURE = REPO / "tests" / "fixtures" / "slurm-26.05-local"
RUN = CAPTURE / "ft1_running"
NOW, PASS = "1796217383", "1796217382"  # date.txt, last_decay.txt


def _args(tmp_path: Path, run: Callable[..., Any]) -> list[str]:
    """The capture's cluster and its assoc_mgr usage, as docs/slurm.md imports them."""
    config = tmp_path / "fairshare.toml"
    for kind, file in (
        ("slurm-conf", CAPTURE / "config" / "slurm.conf.fairtree"),
        ("sacctmgr", RUN / "sacctmgr_assoc_tree.txt"),
        ("sacctmgr", RUN / "sacctmgr_qos.txt"),
    ):
        assert run("import", kind, str(file), "--into", str(config)).exit_code == 0
    args = ["--config", str(config), "--state", str(tmp_path / "s.json"), "--now", NOW]
    dump = str(RUN / "scontrol_assoc_mgr.txt")
    assert run("import", "scontrol-assoc", dump, "--last-decay", PASS, *args).exit_code == 0
    return args


def test_a_priority_above_the_factors_points_to_the_site_factor(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """fs import squeue scontrol_show_jobs.txt --last-decay 1796217382: job 12's site
    factor of 250 (scontrol update jobid=12 sitefactor=250, README) was named as a printed
    priority the dumps do not give, and nothing said what to do about it."""
    args = _args(tmp_path, run)
    dump = str(RUN / "scontrol_show_jobs.txt")
    result = run("import", "squeue", dump, "--last-decay", PASS, *args)
    assert result.exit_code == 0, result.stderr
    assert (
        "; 1 printed priority the dumps do not give: 12 (printed 11054, computed 10804) (a "
        "site factor, set with scontrol update and printed in no dump? "
        "--site-factor-from-priority reads it off the printed Priority); ignored 1: 5 "
        "(finished)\n"
    ) in result.stderr
    again = run("import", "squeue", dump, "--last-decay", PASS, "--site-factor-from-priority",
                *args)  # fmt: skip
    assert again.exit_code == 0, again.stderr
    assert "do not give" not in again.stderr and "site factor from Priority: 12=250" in (
        again.stderr
    )
