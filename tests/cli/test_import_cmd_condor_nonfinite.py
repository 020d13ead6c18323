"""A real that is not finite in an HTCondor dump is refused where fs reads it as a number.

HTCondor writes a NaN or infinite real as a call, ``real("NaN")``, ``real("INF")``,
``real("-INF")``, in ``-json`` (``"/Expr(real(\\"INF\\"))/"``, src/classad/jsonSink.cpp) and
``-long`` (src/classad/sink.cpp, ``UnparseReal``) alike, and evaluating it gives that real
back: ``real()`` converts a string with ``strtod`` (``convertValueToRealValue``,
src/classad/value.cpp), which reads ``INF`` and ``NaN``. So ``RequestCpus = real("INF")``
is an infinite request, no count of CPUs (the job's ``TARGET.Cpus >= RequestCpus`` holds
for no slot, and for NaN no comparison holds): there is no definite value to use. fs took
it for any expression: the default, 1 CPU; a slot's ``Cpus`` was dropped as an ignored
attribute. Now each is a one-line refusal naming file, the ad's line, the ad and the
attribute, exit 2.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import common, refused
from tests.conftest import FIXTURES

POOL = FIXTURES / "htcondor-25.0" / "flat_users"
NONFINITE = ['real("INF")', 'real("-INF")', 'real("NaN")']


@pytest.mark.parametrize("value", NONFINITE)
@pytest.mark.parametrize(
    "key", ["RequestCpus", "RequestMemory", "JobPrio", "JobStatus", "QDate", "JobCurrentStartDate"]
)
def test_condor_q_json_refuses_a_nonfinite_number(
    env: dict[str, Path], run: Callable[..., Any], key: str, value: str
) -> None:
    """``fs import condor-q q.json --dry-run`` with ``"RequestCpus": "/Expr(real(\\"INF\\"))/"``
    in the first ad that has the attribute (job 1.0, on line 2), for ``JobCurrentStartDate``
    the first running job's (an idle job's start is not read)."""
    ads = json.loads((POOL / "condor_q.json").read_text(encoding="utf-8"))
    at = next(
        n
        for n, ad in enumerate(ads)
        if key in ad and (key != "JobCurrentStartDate" or ad["JobStatus"] == 2)
    )
    ads[at][key] = f"/Expr({value})/"
    text = json.dumps(ads, indent=1)
    start = [n for n, line in enumerate(text.splitlines(), 1) if line == " {"][at]
    dump = env["dir"] / "q.json"
    dump.write_text(text, encoding="utf-8")
    result = run("import", "condor-q", str(dump), "--dry-run", *common(env))
    job = f"{ads[at]['ClusterId']}.{ads[at]['ProcId']}"
    refused(
        result,
        f"{dump}:{start}: job {job}: {key} = {value}, a real that "
        "is not finite (NaN or an infinity); expected a finite number",
    )


def test_condor_q_long_refuses_an_infinite_request(
    env: dict[str, Path], run: Callable[..., Any]
) -> None:
    """``fs import condor-q q.txt --dry-run`` with ``RequestCpus = real("INF")`` (``-long``)
    in the first ad, which starts on line 1."""
    text = (POOL / "condor_q.long.txt").read_text(encoding="utf-8")
    dump = env["dir"] / "q.txt"
    dump.write_text(text.replace("RequestCpus = 1\n", 'RequestCpus = real("INF")\n', 1))
    result = run("import", "condor-q", str(dump), "--dry-run", *common(env))
    refused(result, f'{dump}:1: job 1.0: RequestCpus = real("INF"), a real that is not finite')


@pytest.mark.parametrize("value", NONFINITE)
def test_condor_status_json_refuses_a_nonfinite_cpus(
    env: dict[str, Path], run: Callable[..., Any], value: str
) -> None:
    """``fs import condor-status s.json --dry-run`` with ``"Cpus": "/Expr(real(\\"NaN\\"))/"``
    in the first ad (slot1@x01.htc.test, whose ``{`` is line 2)."""
    text = (POOL / "condor_status.json").read_text(encoding="utf-8")
    dump = env["dir"] / "s.json"
    dump.write_text(text.replace('  "Cpus": 1,', f'  "Cpus": {json.dumps(f"/Expr({value})/")},', 1))
    result = run("import", "condor-status", str(dump), "--dry-run", *common(env))
    refused(
        result,
        f"{dump}:2: slot1@x01.htc.test: Cpus = {value}, a real that is not finite",
    )


def test_condor_status_long_refuses_an_infinite_claim_start(
    env: dict[str, Path], run: Callable[..., Any]
) -> None:
    """``fs import condor-status s.txt --dry-run`` with ``JobStart = real("-INF")`` in the
    claimed slot slot1@x02.htc.test, whose ad starts after the first blank line."""
    text = (POOL / "condor_status.long.txt").read_text(encoding="utf-8")
    lines = text.splitlines()
    start = lines.index("") + 2  # (the line after the first blank one, counted from 1)
    assert lines[start - 1 :].index('Name = "slot1@x02.htc.test"') < lines[start - 1 :].index("")
    dump = env["dir"] / "s.txt"
    dump.write_text(text.replace("JobStart = 1795458279\n", 'JobStart = real("-INF")\n', 1))
    result = run("import", "condor-status", str(dump), "--dry-run", *common(env))
    refused(result, f'{dump}:{start}: slot1@x02.htc.test: JobStart = real("-INF"), a real')


@pytest.mark.parametrize("value", NONFINITE)
def test_condor_history_refuses_a_nonfinite_number(
    env: dict[str, Path], run: Callable[..., Any], value: str
) -> None:
    """``fs import condor-history h.json --dry-run`` of one completed job whose
    ``RequestCpus`` (its usage's CPUs) is ``real("INF")``; the ad's ``{`` is line 2."""
    ad = {
        "ClusterId": 7,
        "ProcId": 3,
        "Owner": "ann",
        "JobStatus": 4,
        "JobCurrentStartDate": 1795200000,
        "CompletionDate": 1795203600,
        "RequestCpus": f"/Expr({value})/",
    }
    dump = env["dir"] / "h.json"
    dump.write_text(json.dumps([ad], indent=1), encoding="utf-8")
    result = run("import", "condor-history", str(dump), "--dry-run", *common(env))
    refused(result, f"{dump}:2: job 7.3: RequestCpus = {value}, a real that is not finite")
