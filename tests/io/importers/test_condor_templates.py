"""``use CATEGORY : NAME`` templates: what each sets (io/importers/condor_templates.py).

The knob names were read off HTCondor 25.0.13's ``src/condor_utils/param_info.in``
(``[$CATEGORY.NAME]`` sections, ``default : @end`` bodies); the expectations below were
checked there by hand.
"""

from __future__ import annotations

import pytest

from fairshare_cli.errors import InputError
from fairshare_cli.io.importers import condor_templates
from fairshare_cli.io.importers.condor_knobs import _modelled
from fairshare_cli.io.importers.condor_templates import templates_used


def test_names_are_split_as_meta_knob_and_args_splits_them() -> None:
    """Blanks or commas between names, each with optional ``(...)`` arguments (nested
    parentheses and brackets kept inside), names and categories in any case."""
    found = templates_used(
        "feature", "PartitionableSlot(1, (100%)), gpus  Monitor (a,[b)])", "cc:1"
    )
    assert [t.label for t in found] == [
        "FEATURE : PartitionableSlot",
        "FEATURE : GPUs",
        "FEATURE : Monitor",
    ]


def test_a_template_brings_the_templates_it_uses() -> None:
    """``ROLE.get_htcondor_central_manager`` uses ``security:get_htcondor_idtokens`` (three
    knobs, then ``security:recommended`` -> ``recommended_v24_0`` -> ``security:strong``)
    and ``role:CentralManager`` (DAEMON_LIST)."""
    (template,) = templates_used("ROLE", "get_htcondor_central_manager", "cc:1")
    assert template.values == ()
    assert template.unknown == (
        "SEC_READ_AUTHENTICATION_METHODS",
        "SEC_CLIENT_AUTHENTICATION_METHODS",
        "TRUST_DOMAIN",
        "SECURITY_MODEL",
        "SEC_READ_AUTHENTICATION",
        "SEC_CLIENT_AUTHENTICATION",
        "ALLOW_ADMINISTRATOR",
        "ALLOW_DAEMON",
        "ALLOW_NEGOTIATOR",
        "ALLOW_WRITE",
        "ALLOW_READ",
        "SEC_DEFAULT_ENCRYPTION",
        "SEC_DEFAULT_INTEGRITY",
        "SEC_DEFAULT_AUTHENTICATION",
        "DAEMON_LIST",
    )


def test_always_run_jobs_is_held_whole() -> None:
    """``[$POLICY.ALWAYS_RUN_JOBS]`` sets eleven constants, three of them knobs fs takes:
    START = True, PREEMPTION_REQUIREMENTS = False, NEGOTIATOR_CONSIDER_PREEMPTION = False."""
    (template,) = templates_used("Policy", "always_run_jobs", "cc:1")
    values = dict(template.values)
    assert template.unknown == ()
    assert len(values) == 11
    assert (
        values["START"],
        values["PREEMPTION_REQUIREMENTS"],
        values["NEGOTIATOR_CONSIDER_PREEMPTION"],
    ) == ("True", "False", "False")


def test_only_the_desktop_policies_set_knobs_fs_takes_to_values_it_does_not_hold() -> None:
    """Of the 73 templates of HTCondor 25.0 (its UPGRADE lists left out), only the desktop policies set a knob fs takes
    without fs holding the value (the UWCS one five of them); every other sets only knobs fs
    does not take, so reading it as setting them changes nothing fs takes."""
    takes = {}
    for category, templates in condor_templates._SETS.items():
        for name in templates:
            (template,) = templates_used(category, name, "cc:1")
            knobs = [k for k in template.unknown if _modelled(k.upper(), {})]
            if knobs:
                takes[template.label] = knobs
    assert sum(len(t) for t in condor_templates._SETS.values()) == 73
    assert takes == {
        "POLICY : DESKTOP": ["START"],
        "POLICY : DESKTOP_IDLE": ["START"],
        "POLICY : DESKTOP_HOURS": ["START"],
        "POLICY : UWCS_DESKTOP": [
            "START",
            "PREEMPTION_REQUIREMENTS",
            "PREEMPTION_RANK",
            "NEGOTIATOR_PRE_JOB_RANK",
            "NEGOTIATOR_POST_JOB_RANK",
        ],
    }


@pytest.mark.parametrize(
    ("category", "names", "expected"),
    [
        pytest.param(
            "ROLES", "Submit", "use ROLES: HTCondor 25.0 has no such template categ", id="cat"
        ),
        pytest.param(
            "ROLE", "Submit Worker", "use ROLE : Worker: HTCondor 25.0 has no such", id="name"
        ),
        pytest.param("FEATURE", "GPUs(-x", "use: the arguments '(-x' have no closing", id="paren"),
    ],
)
def test_what_htcondor_stops_on_is_refused(category: str, names: str, expected: str) -> None:
    with pytest.raises(InputError, match=r"^cc:4: ") as info:
        templates_used(category, names, "cc:4")
    assert expected in str(info.value)
