"""An idle job's start is not read, so ``real("INF")`` there is no refusal (the running
job's is: tests/cli/test_import_cmd_condor_nonfinite.py)."""

from __future__ import annotations

import json

from fairshare_cli.io.importers.classad_dumps import Expr
from fairshare_cli.io.importers.condor_q import job_from_ad
from tests.conftest import FIXTURES


def test_an_idle_jobs_start_is_not_read() -> None:
    ads = json.loads((FIXTURES / "htcondor-25.0" / "flat_users" / "condor_q.json").read_text())
    ad = next(ad for ad in ads if ad["JobStatus"] == 1 and "JobCurrentStartDate" in ad)
    ad["JobCurrentStartDate"] = Expr('real("INF")')
    job = job_from_ad(ad, "q.json:1", frozenset())
    assert job is not None and (job.status, job.start_time) == ("idle", None)
