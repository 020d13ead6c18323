"""``fs import squeue`` checks a pending job of several QOS (Slurm 24.11 on) against its
priority under its lowest QOS, the one slurmctld sums it in once a pass has run.

slurmctld's schedulers try such a job under each of its QOS, highest priority first
(``sort_job_queue2``), setting ``job_ptr->qos_ptr`` and its priority to each record's,
so the decay pass (``_get_priority_internal``) and ``scontrol show jobs`` give it its
lowest QOS's. The 26.05 capture ``ft2_idle``: job 8 of QOS high (priority 100 of 100,
weighted by PriorityWeightQOS 3000) prints Priority=7021; edited to ``high,low`` (low's
priority 20: 600), it prints 7021 - 2400 = 4621, which fs compared with high's 7021
(``8 (printed 4621, computed 7021)``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.cli.test_slurm_fixtures_local import TODAY, _build, _times

Run = Callable[..., Any]


def test_a_job_of_several_qos_adds_up_under_its_lowest(tmp_path: Path, run: Run) -> None:
    common = _build(tmp_path, run, 1, TODAY)
    text = (TODAY / "ft2_idle" / "scontrol_show_jobs.txt").read_text()
    old = "Priority=7021 Nice=0 Account=hep QOS=high\n"
    assert text.count(old) == 1
    dump = tmp_path / "two_qos.txt"
    dump.write_text(text.replace(old, "Priority=4621 Nice=0 Account=hep QOS=high,low\n"))
    last = _times(TODAY, "ft2_idle")[1]
    res = run("import", "squeue", str(dump), *common, "--last-decay", last)
    assert res.exit_code == 0, res.stderr
    # job 12 alone, whose site factor (250, set by scontrol update) no dump prints
    assert "; 1 printed priority the dumps do not give: 12 (printed 8121, computed 7871) (" in (
        res.stderr
    )
