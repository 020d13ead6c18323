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


def test_a_group_knob_with_its_group_name_names_the_group_table(run: Run, tmp_path: Path) -> None:
    """fs config check --config t.toml of 'GROUP_QUOTA_group_cms = 6' (as condor_config
    writes a group's quota) listed the top-level tables and no hint; it names the group's
    table and key. A misspelt longer knob of the same start is still found as such."""
    config = tmp_path / "t.toml"
    cases = (
        ("GROUP_QUOTA_group_cms = 6\n",
         "unknown key 'GROUP_QUOTA_group_cms' (GROUP_QUOTA_group_cms is groups.\"group_cms\".quota;"
         " write it as quota in [groups.\"group_cms\"])"),
        ("[negotiator]\nGROUP_ACCEPT_SURPLUS_group_cms = true\n",
         "unknown key 'negotiator.GROUP_ACCEPT_SURPLUS_group_cms' (GROUP_ACCEPT_SURPLUS_group_cms"
         " is groups.\"group_cms\".accept_surplus; write it as accept_surplus in"
         " [groups.\"group_cms\"])"),
        ("[negotiator]\nGROUP_QUOTA_ROUND_ROBIN_RAT = 4\n",
         "unknown key 'negotiator.GROUP_QUOTA_ROUND_ROBIN_RAT' (did you mean"
         " 'GROUP_QUOTA_ROUND_ROBIN_RATE', that is negotiator.group_quota_round_robin_rate?)"),
    )  # fmt: skip
    for text, message in cases:
        config.write_text(text, encoding="utf-8")
        result = run("config", "check", "--config", str(config))
        assert result.exit_code == 2
        assert result.stderr.startswith(f"fs: error: {config}: {message}; known keys: ")
        assert result.stderr.count("\n") == 1


def test_a_slot_attribute_in_a_machine_names_attributes(run: Run, tmp_path: Path) -> None:
    """fs config check --config t.toml of a [[machines]] entry with 'cpus = 4' (or NUM_CPUS,
    Memory) listed the entry's keys and no hint; it points to the slot's attributes."""
    config = tmp_path / "t.toml"
    for key, attribute in (("cpus", "Cpus"), ("NUM_CPUS", "Cpus"), ("Memory", "Memory")):
        config.write_text(f'[[machines]]\nname = "a"\n{key} = 4\n', encoding="utf-8")
        result = run("config", "check", "--config", str(config))
        assert result.exit_code == 2
        assert result.stderr.startswith(
            f"fs: error: {config}: unknown key 'machines[0].{key}' (a slot's {attribute} is one"
            f" of its attributes: attributes = {{ {attribute} = N }}, per slot); known keys: "
        )


def test_a_close_key_is_not_told_another_schedulers_knob(tmp_path: Path, run: Run) -> None:
    """fs config check of [priority.weight] (for weights): its close key, and no word of
    DIRAC's Weight knob, which no Slurm table holds; a top-level [group."g"] still hears
    of both (groups, and DIRAC's Group)."""
    slurm = tmp_path / "w.toml"
    slurm.write_text('[pool]\ndefaults = "current"\n[priority.weight]\nage = 1000\n')
    result = run("config", "check", "--config", str(slurm))
    assert result.exit_code == 2
    assert result.stderr.startswith(
        f"fs: error: {slurm}: unknown key 'priority.weight' (did you mean 'weights'?); known keys:"
    )
    top = tmp_path / "g.toml"
    top.write_text('[pool]\ndefaults = "current"\n[group."g"]\nx = 1\n')
    result = run("config", "check", "--config", str(top))
    assert result.exit_code == 2
    assert "(did you mean 'groups'? Group is dirac.correction.instances.group;" in result.stderr


def test_another_schedulers_knob_spelt_exactly_is_named(tmp_path: Path, run: Run) -> None:
    """fs config check of [accountant] PriorityDecayHalfLife = "7-0" (Slurm's knob in
    HTCondor's table) said only (did you mean 'priority_halflife'?), HTCondor's half-life;
    it now also says where Slurm's knob goes. The config is left as it was."""
    config = tmp_path / "t.toml"
    text = '[pool]\ndefaults = "current"\n[accountant]\nPriorityDecayHalfLife = "7-0"\n'
    config.write_text(text, encoding="utf-8")
    result = run("config", "check", "--config", str(config))
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == (
        f"fs: error: {config}: unknown key 'accountant.PriorityDecayHalfLife' (did you mean"
        " 'priority_halflife'? PriorityDecayHalfLife is priority.decay_halflife; write it in"
        " [priority]); known keys: priority_halflife, default_prio_factor,"
        " nice_user_prio_factor, remote_prio_factor\n"
    )
    assert config.read_text(encoding="utf-8") == text
