"""``fs sshare -o GrpTRESRaw``: each association's TRES usage in minutes, as sshare prints
it (``process.c``: ``usage_tres_raw / 60`` per TRES, ``slurmdb_make_tres_string_from_arrays``,
which leaves out only INFINITE counts), all zero on a cluster without
``AccountingStorageEnforce=limits``: ``_handle_assoc_tres_run_secs`` returns before adding
to ``usage_tres_raw`` there. The Slurm 26.05.3 capture shows it: ``sshare -a -l --json``
lists every association's TRES usage as 0.0 beside usage of 4401 seconds at root, and
``scontrol show assoc_mgr`` its ``GrpTRESMins=cpu=N(0)``. fs printed a blank cell.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.cli.test_slurm_imports_26_05 import CAPTURE, JOBS, USAGE, _build

ZEROS = "cpu=0,mem=0,energy=0,node=0,billing=0,fs/disk=0,vmem=0,pages=0"


def test_grp_tres_raw_is_the_captures_tres_usage(tmp_path: Path, run: Callable[..., Any]) -> None:
    text = (CAPTURE / "sshare_a_l_json.txt").read_text()
    shares = json.loads(text[text.index("{") :])["shares"]["shares"]
    minutes = {
        ",".join(f"{t['name']}={int(t['value'] / 60)}" for t in share["tres"]["usage"])
        for share in shares
    }
    assert minutes == {ZEROS}
    common = _build(tmp_path, run, USAGE[0], JOBS[0])
    res = run("sshare", "-a", "-P", "-n", "-o", "Account,User,RawUsage,GrpTRESRaw", *common)
    assert res.exit_code == 0, res.stderr
    rows = [line.split("|") for line in res.stdout.splitlines()]
    assert len(rows) == len(shares)
    assert {row[3] for row in rows} == {ZEROS}
    assert rows[0][:3] == ["root", "", "4401"]
    table = run("sshare", "-a", "-o", "Account,GrpTRESRaw", *common)
    assert (
        table.stdout.splitlines()[2].rstrip()
        == "root                 cpu=0,mem=0,energy=0,node=0,b+"
    )
