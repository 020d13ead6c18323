"""fs config check reads each real knob name docs/config.md gives in its knob column.

The tables of ``[[machines]]``, ``[partitions.<name>]``, ``[accounts.<name>]``,
``[[dirac.correction.instances]]`` (and their ``slices``) and ``[dirac.job_description]``
took only the config keys: ``NUM_SLOTS = 2`` in a machine, ``MaxCPUTime`` in the job
description were unknown keys (the latter hinted at ``partitions.<name>.max_time``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

Run = Callable[..., Any]

CONFIG = """
[pool]
defaults = "current"
[[machines]]
name = "m"
NUM_SLOTS = 2
SLOT_TYPE_1_PARTITIONABLE = true
CONSUMPTION_POLICY = true
NUM_CLAIMS = 3
CONSUMPTION_CPUS = "quantize(target.RequestCpus,{2})"
attributes = { Cpus = 4, Memory = 4096 }
[partitions.p]
Default = true
TRESBillingWeights = "CPU=2.0"
[accounts.a]
[accounts.b]
Parent = "a"
[dirac.groups.lhcb]
[[dirac.correction.instances]]
Group = "lhcb"
MaxGlobalCorrection = 4
slices = [{ TimeSpan = 3600, Weight = 2, MaxCorrection = 2 }]
[dirac.job_description]
DefaultCPUTime = 1000
MinCPUTime = 10
MaxCPUTime = 5000
DefaultPriority = 2
MinPriority = 1
MaxPriority = 5
"""


def test_knob_names_of_the_knob_column_are_read_as_their_keys(
    write_config: Callable[[str], Path], run: Run
) -> None:
    res = run("config", "check", "--config", str(write_config(CONFIG)), "--json")
    assert res.exit_code == 0, res.stderr
    got = json.loads(res.stdout)
    machine = got["machines"][0]
    assert (machine["slots"], machine["partitionable"], machine["consumption_policy"]) == (
        2,
        True,
        True,
    )
    assert machine["num_claims"] == 3
    assert machine["consumption_cpus"] == "quantize(target.RequestCpus,{2})"
    assert got["partitions"]["p"]["default"] is True
    assert got["partitions"]["p"]["billing_weights"] == "CPU=2.0"
    assert got["accounts"]["b"]["parent"] == "a"
    assert got["dirac"]["correction"]["instances"] == [
        {
            "name": "instance0",
            "group": "lhcb",
            "max_global_correction": 4,
            "slices": [{"time_span": 3600, "weight": 2, "max_correction": 2}],
            "corrector": "WMSHistory",
        }
    ]
    assert got["dirac"]["job_description"] == {
        "default_cpu_time": 1000,
        "min_cpu_time": 10,
        "max_cpu_time": 5000,
        "default_priority": 2,
        "min_priority": 1,
        "max_priority": 5,
    }


def test_a_knob_and_its_key_together_are_refused(
    write_config: Callable[[str], Path], run: Run
) -> None:
    config = '[[machines]]\nname = "m"\nNUM_SLOTS = 2\nslots = 3\n'
    res = run("config", "check", "--config", str(write_config(config)))
    assert res.exit_code == 2
    assert res.stderr.strip().endswith(
        "machines[0].slots is set twice: as 'slots' and as its knob name 'NUM_SLOTS'"
    ), res.stderr


def test_a_misspelt_job_description_knob_hints_at_its_own_key(
    write_config: Callable[[str], Path], run: Run
) -> None:
    res = run(
        "config", "check", "--config", str(write_config("[dirac.job_description]\nMaxCPUTim = 5\n"))
    )
    assert res.exit_code == 2
    assert "did you mean 'MaxCPUTime', that is dirac.job_description.max_cpu_time?" in res.stderr
