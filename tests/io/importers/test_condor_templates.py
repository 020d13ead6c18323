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
        "feature", "PartitionableSlot(1, (100%)), gpus  Monitor (a,[b)], c, d, e)", "cc:1"
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
            # (five arguments: as many as any template needs)
            (template,) = templates_used(category, f"{name}(a, b, c, d, e)", "cc:1")
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


@pytest.mark.parametrize(
    ("category", "names", "stops"),
    [
        # [$POLICY.PREEMPT_IF]: "if !$(1?)" then its error line; $(1?) is 0 with no
        # arguments, with "()" and with "( , )" (StringTokenIterator skips empty pieces)
        pytest.param("POLICY", "PREEMPT_IF", "PREEMPT_IF requires an argument", id="none"),
        pytest.param("POLICY", "PREEMPT_IF()", "PREEMPT_IF requires an argument", id="empty"),
        pytest.param("POLICY", "PREEMPT_IF( , )", "PREEMPT_IF requires", id="empty-pieces"),
        pytest.param("POLICY", "PREEMPT_IF(X)", None, id="given"),
        # ($(MY) is not expanded in a use line's arguments: one argument, not empty)
        pytest.param("POLICY", "PREEMPT_IF($(MY))", None, id="macro-argument"),
        # WANT_HOLD_IF uses PREEMPT_IF($(1)) first: with none, PREEMPT_IF's error; with
        # one or two, its own "if ! $(3?)"
        pytest.param("POLICY", "WANT_HOLD_IF", "PREEMPT_IF requires an", id="hold-none"),
        pytest.param("POLICY", "WANT_HOLD_IF(X, 102)", "WANT_HOLD_IF requires 3", id="hold-2"),
        pytest.param("POLICY", "WANT_HOLD_IF(X, 102, too much)", None, id="hold-3"),
        # its users give their own arguments: never stopped
        pytest.param("POLICY", "HOLD_IF_MEMORY_EXCEEDED", None, id="hold-if-memory"),
        pytest.param("FEATURE", "GPUs", None, id="gpus-monitor-six-arguments"),
        # StartdCronPeriodic is PeriodicCronHook(STARTD_CRON, $(0)): 3 arguments make 4
        pytest.param(
            "FEATURE", "StartdCronPeriodic(t, 60)", "PeriodicCronHook requires", id="cron-2"
        ),
        pytest.param("FEATURE", "StartdCronPeriodic(t, 60, /x)", None, id="cron-3"),
        pytest.param("FEATURE", "AssignAccountingGroup", "requires a map_file", id="usermap"),
        pytest.param("FEATURE", "AssignAccountingGroup(/m)", None, id="usermap-given"),
        pytest.param("FEATURE", "Monitor(a, b, c, d)", "five or more", id="monitor-4"),
    ],
)
def test_a_template_stops_without_the_arguments_it_needs(
    category: str, names: str, stops: str | None
) -> None:
    """HTCondor 25.0.13's templates that check their arguments (param_info.in), with
    ``$(N?)`` expanded as config.cpp's ``expand_meta_args`` does; checked by hand."""
    if stops is None:
        templates_used(category, names, "cc:1")
        return
    with pytest.raises(InputError) as info:
        templates_used(category, names, "cc:1")
    assert str(info.value).startswith(f"cc:1: use {category} : ")
    assert stops in str(info.value)
