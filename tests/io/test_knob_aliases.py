"""Real knob names in the config: aliases in their own table, hints anywhere else."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from fairshare_cli.errors import ConfigError
from fairshare_cli.io.config import load_config
from fairshare_cli.io.knob_aliases import KNOBS, table_pattern


def test_knob_names_are_read_as_their_keys(write_config: Callable[[str], Path]) -> None:
    config = load_config(
        write_config(
            "[accountant]\nPRIORITY_HALFLIFE = 3600\nremote_prio_factor = 50\n"
            '[priority]\nPriorityDecayHalfLife = "1-0"\n'
            "[priority.weights]\nPriorityWeightFairshare = 10\n"
            '[groups."g"]\nGROUP_QUOTA = 5\n'
            "[negotiator]\nnegotiator_use_slot_weights = true\n"
        )
    )
    assert config.accountant.priority_halflife == 3600
    assert config.accountant.remote_prio_factor == 50
    assert config.priority.decay_halflife == 86400  # "1-0" is one day
    assert config.priority.weights.fairshare == 10
    assert config.groups["g"].quota == 5
    assert config.negotiator.use_slot_weights is True  # knob names ignore case


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        pytest.param(
            "[pool]\nPRIORITY_HALFLIFE = 3\n",
            "(PRIORITY_HALFLIFE is accountant.priority_halflife; write it in [accountant])",
            id="wrong-table",
        ),
        pytest.param(
            "[accountant]\nPRIORITY_HALFLIF = 3\n",
            "did you mean 'PRIORITY_HALFLIFE', that is accountant.priority_halflife?",
            id="misspelt-knob",
        ),
        pytest.param(
            "PriorityDecayHalfLife = 3\n",
            "PriorityDecayHalfLife is priority.decay_halflife",
            id="top-level",
        ),
        pytest.param(
            "[accountant]\npriority_halflife = 3\nPRIORITY_HALFLIFE = 3\n",
            "accountant.priority_halflife is set twice",
            id="both",
        ),
    ],
)
def test_knob_hints(write_config: Callable[[str], Path], text: str, needle: str) -> None:
    with pytest.raises(ConfigError) as info:
        load_config(write_config(text))
    assert needle in str(info.value)


#: A valid value for each knob whose value is not a plain number.
VALUES = {
    "OverTimeLimit": '"5"',  # (minutes as slurm.conf writes them; a TOML number is seconds)
    "UID_DOMAIN": '"x"',
    "ACCOUNTANT_LOCAL_DOMAIN": '["x"]',
    "SLOT_WEIGHT": '"Cpus"',
    "NEGOTIATOR_SLOT_CONSTRAINT": '"true"',
    "NEGOTIATOR_SLOT_POOLSIZE_CONSTRAINT": '"true"',
    "NEGOTIATOR_SUBMITTER_CONSTRAINT": '"true"',
    "NEGOTIATOR_JOB_CONSTRAINT": '"true"',
    "PREEMPTION_REQUIREMENTS": '"false"',
    "PREEMPTION_RANK": '"0"',
    "NEGOTIATOR_PRE_JOB_RANK": '"0"',
    "NEGOTIATOR_POST_JOB_RANK": '"0"',
    "GROUP_SORT_EXPR": '"0"',
    "START": '"true"',
    "RANK": '"0"',
    "CONSUMPTION_CPUS": '"1"',
    "CONSUMPTION_MEMORY": '"128"',
    "CONSUMPTION_DISK": '"1024"',
    "PriorityType": '"basic"',
    "PriorityUsageResetPeriod": '"NONE"',
    "EnforcePartLimits": '"ALL"',
    "PriorityFlags": "[]",
    "PriorityWeightTRES": "{ cpu = 1 }",
    "AccountingStorageTRES": '"gres/gpu"',
    "GresTypes": '"gpu"',
    "GROUP_QUOTA_DYNAMIC": "0.5",
    "PriorityCalcPeriod": '"5"',
    "TRESBillingWeights": '"CPU=1.0"',
    "Parent": '"root"',
    "Group": '""',
    "Version": '["v9r1p22"]',
    "Project": '"LHCb"',
    "VO": '"lhcb"',
    "VirtualOrganization": '"lhcb"',
}
FLAGS = (
    "NEGOTIATOR_USE_SLOT_WEIGHTS",
    "NEGOTIATOR_ALLOW_QUOTA_OVERSUBSCRIPTION",
    "NEGOTIATOR_STRICT_ENFORCE_QUOTA",
    "NEGOTIATOR_USE_WEIGHTED_DEMAND",
    "GROUP_ACCEPT_SURPLUS",
    "GROUP_AUTOREGROUP",
    "NEGOTIATOR_CONSIDER_PREEMPTION",
    "NEGOTIATOR_DEPTH_FIRST",
    "NEGOTIATOR_MATCHLIST_CACHING",
    "NEGOTIATOR_IGNORE_USER_PRIORITIES",
    "CONSUMPTION_POLICY",
    "SLOT_TYPE_1_PARTITIONABLE",
    "Default",
    "PriorityFavorSmall",
    "EnableSharesCorrection",
    "AllowBackgroundTQs",
    "CheckVersion",
)


#: What a machine knob needs beside it: a consumption policy's knobs are for partitionable
#: slots that have one.
_POLICY = "\npartitionable = true\nconsumption_policy = true"
_NEEDS = {
    "CONSUMPTION_POLICY": "\npartitionable = true",
    **dict.fromkeys(("NUM_CLAIMS", "CONSUMPTION_CPUS", "CONSUMPTION_MEMORY"), _POLICY),
    "CONSUMPTION_DISK": _POLICY,
}


def test_every_alias_names_a_key_the_reader_accepts(write_config: Callable[[str], Path]) -> None:
    """Each knob, written in its table, loads: the alias table cannot name a missing key."""
    arrays = {
        "machines": "[[machines]]\nname = 'm'\nattributes = { Cpus = 4 }",
        "dirac.correction.instances": "[[dirac.correction.instances]]\nslices = [{ weight = 1 }]",
        "dirac.correction.instances.slices": (
            "[[dirac.correction.instances]]\n[[dirac.correction.instances.slices]]"
        ),
    }
    for pattern, knobs in KNOBS.items():
        head = arrays.get(pattern, f"[{pattern}]").replace("*", '"g"')
        for knob in knobs:
            value = "true" if knob in FLAGS else VALUES.get(knob, "5")
            needs = _NEEDS.get(knob, "") if pattern == "machines" else ""
            load_config(write_config(f"{head}{needs}\n{knob} = {value}\n"))


def test_table_pattern() -> None:
    assert table_pattern('groups."group_physics.hep"') == "groups.*"
    assert table_pattern("machines[3]") == "machines"
    assert table_pattern("dirac.groups.lhcb_user") == "dirac.groups.*"
    assert table_pattern("priority.weights") == "priority.weights"


def _aliases_by_knob() -> dict[str, set[tuple[str, ...]]]:
    """knob (lower case) -> the config paths its alias stands for (``*``: a named table).

    ``GROUP_ACCEPT_SURPLUS`` is the global default in ``[negotiator]`` and a group's own in
    ``[groups."<name>"]``, as HTCondor's knob is with and without the ``_<name>`` suffix.
    """
    out: dict[str, set[tuple[str, ...]]] = {}
    for pattern, knobs in KNOBS.items():
        for knob, key in knobs.items():
            out.setdefault(knob.lower(), set()).add((*pattern.split("."), key))
    return out


def test_aliases_agree_with_the_slurm_conf_importer() -> None:
    """``fs import slurm-conf`` maps the same knobs to the same keys (one meaning per knob).

    The importer also converts values from slurm.conf's syntax; the aliases only rename
    keys inside TOML, so knobs whose value needs converting (ClusterName's case,
    AccountingStorageEnforce's list) are the importer's alone.
    """
    from fairshare_cli.io.importers.slurm_conf import KNOBS as SLURM_CONF

    aliases = _aliases_by_knob()
    for knob, (path, _) in SLURM_CONF.items():
        if knob in ("clustername", "accountingstorageenforce"):
            continue
        assert path in aliases.get(knob, set()), knob


def test_aliases_agree_with_the_condor_config_importer() -> None:
    """``fs import condor-config`` maps the same HTCondor knobs to the same keys."""
    knobs = pytest.importorskip("fairshare_cli.io.importers.condor_knobs")
    aliases = _aliases_by_knob()
    for knob, (section, key, _) in knobs.SIMPLE.items():
        if knob.lower() in aliases:
            assert (section, key) in aliases[knob.lower()], knob
