"""HTCondor 25.0's configuration templates (``use CATEGORY : NAME``): the knobs each sets.

A ``use`` line applies templates built into HTCondor (``[$CATEGORY.NAME]`` in
``param_info.in``); ``config.cpp``'s ``read_meta_config`` reads each one's settings in place
of the line. fs holds, for every template of HTCondor 25.0.13, the names of the knobs it
sets (taken from param_info.in, the templates it uses in turn included, every branch of
its ``if`` blocks counted); the values only where fs reads one of the knobs and the
template sets it to a constant (``POLICY : ALWAYS_RUN_JOBS``). A knob set to a value fs
does not hold is marked so: taking one, or a macro naming one, is then an error naming the
``use`` line. Knob names a template builds from its arguments (``SLOT_TYPE_$(1)``,
``STARTD_CRON_$(1)_...``) are none fs reads and are not listed. A template that checks
its arguments (``if ! $(1?)`` then ``error : ...``: ``POLICY : PREEMPT_IF`` and the
templates that stop, or that use one with their own arguments) and is given too few is an
error naming the template's message, as HTCondor stops there.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from fairshare_cli.errors import InputError

#: Category -> template -> the knobs it sets, then (``+CATEGORY:NAME``) the templates it uses.
_SETS: dict[str, dict[str, str]] = {
    "ROLE": {
        "Personal": "CONDOR_HOST COLLECTOR_HOST DAEMON_LIST RunBenchmarks",
        "Execute": "DAEMON_LIST",
        "Submit": "DAEMON_LIST",
        "CentralManager": "DAEMON_LIST",
        "get_htcondor_central_manager": "+SECURITY:get_htcondor_idtokens +ROLE:CentralManager",
        "get_htcondor_submit": "+SECURITY:get_htcondor_idtokens +ROLE:Submit",
        "get_htcondor_execute": "+SECURITY:get_htcondor_idtokens +ROLE:Execute",
    },
    "SECURITY": {
        "HOST_BASED": "ALLOW_ADMINISTRATOR ALLOW_READ ALLOW_WRITE ALLOW_DAEMON ALLOW_NEGOTIATOR "
        "ALLOW_NEGOTIATOR_SCHEDD ALLOW_WRITE_COLLECTOR ALLOW_WRITE_STARTD ALLOW_READ_COLLECTOR "
        "ALLOW_READ_STARTD LEGACY_ALLOW_SEMANTICS",
        "WITH_AUTHENTICATION": "SEC_DEFAULT_AUTHENTICATION SEC_DEFAULT_INTEGRITY",
        "STRONG": "SEC_DEFAULT_ENCRYPTION SEC_DEFAULT_INTEGRITY SEC_DEFAULT_AUTHENTICATION",
        "USER_BASED": "authuser ALLOW_WRITE +SECURITY:recommended",
        "get_htcondor_idtokens": "SEC_READ_AUTHENTICATION_METHODS "
        "SEC_CLIENT_AUTHENTICATION_METHODS TRUST_DOMAIN +SECURITY:recommended",
        "recommended_v9_0": "SECURITY_MODEL SEC_READ_AUTHENTICATION SEC_READ_ENCRYPTION "
        "SEC_READ_INTEGRITY ALLOW_ADMINISTRATOR ALLOW_DAEMON ALLOW_NEGOTIATOR ALLOW_WRITE "
        "ALLOW_READ +SECURITY:STRONG",
        "recommended_v24_0": "SECURITY_MODEL SEC_READ_AUTHENTICATION SEC_CLIENT_AUTHENTICATION "
        "ALLOW_ADMINISTRATOR ALLOW_DAEMON ALLOW_NEGOTIATOR ALLOW_WRITE ALLOW_READ "
        "+SECURITY:STRONG",
        "recommended": "+SECURITY:recommended_v24_0",
        "FIPS": "FIPS SEC_DEFAULT_CRYPTO_METHODS +SECURITY:STRONG",
    },
    "POLICY": {
        "DESKTOP": "STARTD_LATCH_EXPRS CpuBusyTimer WANT_SUSPEND WANT_VACATE SUSPEND CONTINUE "
        "PREEMPT START KILL MaxJobRetirementTime CLAIM_WORKLIFE SLOTS_CONNECTED_TO_KEYBOARD "
        "SLOTS_CONNECTED_TO_CONSOLE IS_OWNER +FEATURE:POLICY_EXPR_FRAGMENTS",
        "DESKTOP_IDLE": "NonCondorLoadAvg CpuBusy CpuIdle STARTD_LATCH_EXPRS CpuBusyTimer "
        "PreemptKeyboardIdleTime PreemptCpuBusyTime PREEMPT START WANT_SUSPEND WANT_VACATE "
        "SUSPEND CONTINUE KILL MaxJobRetirementTime CLAIM_WORKLIFE SLOTS_CONNECTED_TO_KEYBOARD "
        "SLOTS_CONNECTED_TO_CONSOLE IS_OWNER +FEATURE:POLICY_HOURS_TO_START",
        "DESKTOP_HOURS": "NonCondorLoadAvg CpuBusy STARTD_LATCH_EXPRS CpuBusyTimer PREEMPT "
        "START WANT_SUSPEND WANT_VACATE SUSPEND CONTINUE KILL MaxJobRetirementTime "
        "CLAIM_WORKLIFE SLOTS_CONNECTED_TO_KEYBOARD SLOTS_CONNECTED_TO_CONSOLE IS_OWNER "
        "+FEATURE:POLICY_HOURS_TO_START",
        "ALWAYS_RUN_JOBS": "",  # (its values are held: _VALUES)
        "UWCS_DESKTOP": "WANT_SUSPEND WANT_VACATE SUSPEND CONTINUE PREEMPT START KILL "
        "PERIODIC_CHECKPOINT PREEMPTION_REQUIREMENTS PREEMPTION_RANK NEGOTIATOR_PRE_JOB_RANK "
        "NEGOTIATOR_POST_JOB_RANK MaxJobRetirementTime CLAIM_WORKLIFE "
        "SLOTS_CONNECTED_TO_KEYBOARD IS_OWNER +FEATURE:UWCS_DESKTOP_POLICY_VALUES",
        "LIMIT_JOB_RUNTIMES": "MAX_JOB_RUNTIME MaxJobRetirementTime PREEMPT",
        "PREEMPT_IF_RUNTIME_EXCEEDS": "MAX_JOB_RUNTIME PREEMPT_RUNTIME_EXCEEDS +POLICY:PREEMPT_IF",
        "HOLD_IF_RUNTIME_EXCEEDS": "MAX_JOB_RUNTIME HOLD_REASON_RUNTIME_EXCEEDS "
        "HOLD_RUNTIME_EXCEEDS +POLICY:WANT_HOLD_IF",
        "STARTD_PUBLISH_CpusUsage": "CpusUsage STARTD_ATTRS",
        "PREEMPT_IF_CPUS_EXCEEDED": "CPU_EXCEEDED +POLICY:STARTD_PUBLISH_CpusUsage "
        "+POLICY:PREEMPT_IF",
        "HOLD_IF_CPUS_EXCEEDED": "CPU_EXCEEDED HOLD_REASON_CPU_EXCEEDED "
        "+POLICY:STARTD_PUBLISH_CpusUsage +POLICY:WANT_HOLD_IF",
        "PREEMPT_IF_DISK_EXCEEDED": "DISK_EXCEEDED +POLICY:PREEMPT_IF",
        "HOLD_IF_DISK_EXCEEDED": "DISK_EXCEEDED HOLD_REASON_DISK_EXCEEDED +POLICY:WANT_HOLD_IF",
        "PREEMPT_IF_MEMORY_EXCEEDED": "MEMORY_EXCEEDED +POLICY:PREEMPT_IF",
        "HOLD_IF_MEMORY_EXCEEDED": "MEMORY_EXCEEDED HOLD_REASON_MEMORY_EXCEEDED "
        "+POLICY:WANT_HOLD_IF",
        "PREEMPT_IF": "PREEMPT MAXJOBRETIREMENTTIME WANT_SUSPEND",
        "WANT_HOLD_IF": "WANT_HOLD WANT_HOLD_SUBCODE WANT_HOLD_REASON +POLICY:PREEMPT_IF",
        "OnlyRegisteredCheckpointDestinations": "TOOL_CLASSAD_USER_MAP_NAMES "
        "SCHEDD_CLASSAD_USER_MAP_NAMES CLASSAD_USER_MAPFILE_checkpoint_destination_map "
        "CLASSAD_USER_MAP_PREFIX_checkpoint_destination_map JOB_TRANSFORM_NAMES "
        "JOB_TRANSFORM_ValidateCheckpointDestination IMMUTABLE_JOB_ATTRS "
        "SUBMIT_REQUIREMENT_NAMES SUBMIT_REQUIREMENT_RejectInvalidCheckpointDestination "
        "SUBMIT_REQUIREMENT_RejectInvalidCheckpointDestination_REASON",
    },
    "FEATURE": {
        "POLICY_EXPR_FRAGMENTS": "PolicyExprFragments KeyboardBusy ConsoleBusy KeyboardNotBusy "
        "JustCPU MachineBusy NonCondorLoadAvg CpuIdle CpuBusy ActivationTimer LastCkpt",
        "POLICY_HOURS_TO_START": "WorkdayBeginHour WorkdayEndHour WorkdayBeginMinuteStartJobs "
        "WorkdayBeginMinuteStopJobs WorkdayEndMinute RunJobsHours NoJobsHours "
        "WorkweekFirstDay WorkweekLastDay IsWeekend IsWorkday",
        "TESTINGMODE_POLICY_VALUES": "TESTINGMODE_WANT_SUSPEND TESTINGMODE_WANT_VACATE "
        "TESTINGMODE_START TESTINGMODE_SUSPEND TESTINGMODE_CONTINUE TESTINGMODE_PREEMPT "
        "TESTINGMODE_KILL TESTINGMODE_PERIODIC_CHECKPOINT TESTINGMODE_PREEMPTION_REQUIREMENTS "
        "TESTINGMODE_PREEMPTION_RANK TESTINGMODE_CLAIM_WORKLIFE",
        "UWCS_DESKTOP_POLICY_VALUES": "STARTD_LATCH_EXPRS CpuBusyTimer UWCS_WANT_SUSPEND "
        "UWCS_WANT_VACATE UWCS_START UWCS_SUSPEND UWCS_CONTINUE UWCS_PREEMPT "
        "UWCS_MaxJobRetirementTime UWCS_KILL UWCS_PERIODIC_CHECKPOINT "
        "UWCS_NEGOTIATOR_PRE_JOB_RANK UWCS_NEGOTIATOR_POST_JOB_RANK "
        "UWCS_PREEMPTION_REQUIREMENTS UWCS_PREEMPTION_RANK +FEATURE:POLICY_EXPR_FRAGMENTS",
        "AssignAccountingGroup": "JOB_TRANSFORM_NAMES JOB_TRANSFORM_AssignAccountingGroup "
        "IMMUTABLE_JOB_ATTRS SUBMIT_REQUIREMENT_NAMES SUBMIT_REQUIREMENT_CheckRequestedGroup "
        "SUBMIT_REQUIREMENT_CheckRequestedGroup_REASON SUBMIT_REQUIREMENT_AssignAccountingGroup "
        "SUBMIT_REQUIREMENT_AssignAccountingGroup_REASON +FEATURE:ScheddUsermapFile",
        "SetJobAttrFromUsermap": "JOB_TRANSFORM_NAMES SUBMIT_REQUIREMENT_NAMES "
        "+FEATURE:ScheddUsermapFile",
        "ScheddUsermapFile": "SCHEDD_CLASSAD_USER_MAP_NAMES",
        "REMOTE_RUNTIME_CONFIG": "ENABLE_RUNTIME_CONFIG ALLOW_CONFIG SETTABLE_ATTRS_CONFIG",
        "REMOTE_CONFIG": "ENABLE_PERSISTENT_CONFIG PERSISTENT_CONFIG_DIR "
        "+FEATURE:REMOTE_RUNTIME_CONFIG",
        "GPUs": "MACHINE_RESOURCE_INVENTORY_GPUs ENVIRONMENT_FOR_AssignedGPUs "
        "ENVIRONMENT_VALUE_FOR_UnAssignedGPUs +FEATURE:GPUsMonitor",
        "Monitor": "STARTD_CRON_JOBLIST",
        "GPUsMonitor": "STARTD_CRON_GPUs_MONITOR_CONDITION STARTD_JOB_ATTRS +FEATURE:Monitor",
        "PelicanCache": "PELICANCACHE DAEMON_LIST PELICANCACHE_LOG PELICANCACHE_SIZE "
        "PELICANCACHE_RUNLOCATION PELICANCACHE_FEDERATION PELICANCACHE_HIGHWATERMARKPERCENTAGE "
        "PELICANCACHE_LOWWATERMARKPERCENTAGE PELICANCACHE_ARGS PELICANCACHE_ENVIRONMENT "
        "STARTD_ENVIRONMENT",
        "PartitionableSlot": "",
        "StaticSlots": "",
        "OneShotCronHook": "",
        "PeriodicCronHook": "",
        "ContinuousCronHook": "",
        "StartdCronPeriodic": "+FEATURE:PeriodicCronHook",
        "ScheddCronPeriodic": "+FEATURE:PeriodicCronHook",
        "StartdCronOneShot": "+FEATURE:OneShotCronHook",
        "ScheddCronOneShot": "+FEATURE:OneShotCronHook",
        "StartdCronContinuous": "+FEATURE:ContinuousCronHook",
        "ScheddCronContinuous": "+FEATURE:ContinuousCronHook",
        "ChildCollector": "DAEMON_LIST TOP_COLLECTOR_HOST",
        "KRB": "SEC_CREDENTIAL_DIRECTORY_KRB DAEMON_LIST SEC_CREDENTIAL_PRODUCER "
        "SEC_CREDENTIAL_MONITOR_KRB_LOG AUTO_INCLUDE_CREDD_IN_DAEMON_LIST USE_KEYRING_SESSIONS",
        "OAUTH": "SEC_CREDENTIAL_DIRECTORY_OAUTH CREDMON_OAUTH_LOG DAEMON_LIST "
        "AUTO_INCLUDE_CREDD_IN_DAEMON_LIST TRUST_CREDENTIAL_DIRECTORY",
        "ADSTASH": "ADSTASH_SCHEDD_HISTORY DAEMON_LIST",
        "CommonCloudAttributesGoogle": "STARTD_CRON_cloud_PREFIX +FEATURE:StartdCronOneShot",
        "JobsHaveInstanceIDs": "SYSTEM_JOB_MACHINE_ATTRS",
        "CommonCloudAttributesAWS": "STARTD_CRON_cloud_PREFIX +FEATURE:StartdCronOneShot",
        "HPC_ANNEX": "HPC_ANNEX_ENABLED ispersonal COLLECTOR_HOST AP_COLLECTOR "
        "AP_COLLECTOR.COLLECTOR_LOG AP_COLLECTOR.CCB_RECONNECT_FILE DAEMON_LIST "
        "AP_COLLECTOR_ARGS ANNEX_COLLECTOR AP_COLLECTOR.ALLOW_ADVERTISE_STARTD "
        "AP_COLLECTOR.ALLOW_ADVERTISE_MASTER SCHEDD.COLLECTOR_HOST ANNEX_TOKEN_KEY_NAME "
        "ANNEX_TOKEN_DOMAIN JOB_TRANSFORM_NAMES JOB_TRANSFORM_AssignAnnex "
        "JOB_TRANSFORM_AnnexJobsExclusively",
        "GANGLIA": "DAEMON_LIST",
        "DefaultCheckpointDestination": "DEFAULT_CHECKPOINT_DESTINATION "
        "EXTENDED_SUBMIT_COMMANDS JOB_TRANSFORM_CheckpointStorage JOB_TRANSFORM_NAMES",
    },
    "EXPERIMENTAL": {
        "CollectorNode": "DAEMON_LIST",
        "HAD": "DAEMON_LIST HAD_USE_REPLICATION MASTER_HAD_BACKOFF_CONSTANT",
        "HADSharedPort": "+EXPERIMENTAL:HADReplication",
        "HADFixedPort": "HAD_ARGS REPLICATION_ARGS +EXPERIMENTAL:HADReplication",
        "HADReplication": "HAD_LIST REPLICATION_LIST HAD_CONTROLLEE",
    },
}

#: The templates whose every setting fs holds, in order: constants, no macros, no ``if``.
_VALUES: dict[tuple[str, str], tuple[tuple[str, str], ...]] = {
    ("POLICY", "ALWAYS_RUN_JOBS"): (
        ("WANT_SUSPEND", "False"),
        ("WANT_VACATE", "True"),
        ("SUSPEND", "False"),
        ("CONTINUE", "True"),
        ("PREEMPT", "False"),
        ("START", "True"),
        ("KILL", "False"),
        ("PREEMPTION_REQUIREMENTS", "False"),
        ("NEGOTIATOR_CONSIDER_PREEMPTION", "False"),
        ("MaxJobRetirementTime", "2147483647"),
        ("CLAIM_WORKLIFE", "1200"),
    ),
}


class _Needs(NamedTuple):
    """A template's ``if ! $(N?)`` / ``error : MESSAGE`` lines: it stops unless given N
    arguments."""

    arguments: int
    message: str


class _Uses(NamedTuple):
    """A template's ``use CATEGORY : NAME(ARGS)`` line, ``$(0)`` and ``$(1)`` in ARGS
    standing for its own arguments."""

    category: str
    name: str
    args: str


#: The templates that check their arguments, each step in the order its lines take it
#: (param_info.in, 25.0.13). The templates that use one of these with arguments of their
#: own (``POLICY : PREEMPT_IF(CPU_EXCEEDED)``) always give enough, and are not listed.
_CHECKS: dict[tuple[str, str], tuple[_Needs | _Uses, ...]] = {
    ("POLICY", "PREEMPT_IF"): (
        _Needs(
            1,
            "use POLICY : PREEMPT_IF requires an argument. It should be the name of a config "
            "variable that has the trigger expression.",
        ),
    ),
    ("POLICY", "WANT_HOLD_IF"): (
        _Uses("POLICY", "PREEMPT_IF", "$(1)"),
        _Needs(
            3,
            "use POLICY : WANT_HOLD_IF requires 3 arguments: policy_variable, subcode, reason_text",
        ),
    ),
    ("FEATURE", "AssignAccountingGroup"): (
        _Needs(1, "use FEATURE : AssignAccountingGroup requires a map_file argument"),
        _Uses("FEATURE", "ScheddUsermapFile", "AssignAccountingGroup, $(1)"),
    ),
    ("FEATURE", "SetJobAttrFromUsermap"): (
        _Needs(
            3,
            "use FEATURE : SetJobAttrFromUsermap requires at least 3 arguments: dest_attr, "
            "src_attr, map_name [,map_file]",
        ),
    ),
    ("FEATURE", "ScheddUsermapFile"): (
        _Needs(2, "use FEATURE : ScheddUsermapFile requires 2 arguments: map_name, map_file"),
    ),
    ("FEATURE", "Monitor"): (_Needs(5, "use feature : monitor requires five or more arguments"),),
    ("FEATURE", "OneShotCronHook"): (
        _Needs(
            3,
            "use FEATURE : OneShotCronHook requires at least 3 arguments: STARTD_CRON | "
            "SCHEDD_CRON, tag, hook_exe [,hook_args]",
        ),
    ),
    ("FEATURE", "PeriodicCronHook"): (
        _Needs(
            4,
            "use FEATURE : PeriodicCronHook requires at least 4 arguments: STARTD_CRON | "
            "SCHEDD_CRON, tag, period, hook_exe [,hook_args]",
        ),
    ),
    ("FEATURE", "ContinuousCronHook"): (
        _Needs(
            3,
            "use FEATURE : ContinuousCronHook requires at least 3 arguments: STARTD_CRON | "
            "SCHEDD_CRON, tag, hook_exe [,hook_args]",
        ),
    ),
    ("FEATURE", "StartdCronPeriodic"): (_Uses("FEATURE", "PeriodicCronHook", "STARTD_CRON, $(0)"),),
    ("FEATURE", "ScheddCronPeriodic"): (_Uses("FEATURE", "PeriodicCronHook", "SCHEDD_CRON, $(0)"),),
    ("FEATURE", "StartdCronOneShot"): (_Uses("FEATURE", "OneShotCronHook", "STARTD_CRON, $(0)"),),
    ("FEATURE", "ScheddCronOneShot"): (_Uses("FEATURE", "OneShotCronHook", "SCHEDD_CRON, $(0)"),),
    ("FEATURE", "StartdCronContinuous"): (
        _Uses("FEATURE", "ContinuousCronHook", "STARTD_CRON, $(0)"),
    ),
    ("FEATURE", "ScheddCronContinuous"): (
        _Uses("FEATURE", "ContinuousCronHook", "SCHEDD_CRON, $(0)"),
    ),
}

_CATEGORIES = {category.lower(): category for category in _SETS}
_NAMES = {
    category: {name.lower(): name for name in templates} for category, templates in _SETS.items()
}


@dataclass(frozen=True)
class Template:
    """One template a ``use`` line applies: the knobs whose values fs holds, in the order
    it sets them, and those set to values it does not hold."""

    label: str  # "ROLE : Submit"
    values: tuple[tuple[str, str], ...]
    unknown: tuple[str, ...]


def templates_used(category: str, names: str, where: str) -> list[Template]:
    """The templates of ``use category : names`` (names split by blanks or commas, each
    with its optional ``(arguments)``, as ``MetaKnobAndArgs`` splits them); categories
    and names in any case.

    Raises:
        InputError: a category or template HTCondor 25.0 does not have (the daemons stop
            on the line), a template given fewer arguments than its ``error :`` line
            asks for, or arguments with no closing parenthesis.
    """
    cat = _CATEGORIES.get(category.strip().lower())
    if cat is None:
        raise InputError(
            f"{where}: use {category.strip()}: HTCondor 25.0 has no such template category "
            f"(its daemons stop on this line); expected one of {', '.join(_SETS)}"
        )
    found = []
    for item, args in _template_names(names, where):
        name = _NAMES[cat].get(item.lower())
        if name is None:
            raise InputError(
                f"{where}: use {cat} : {item}: HTCondor 25.0 has no such template (its "
                "daemons stop on this line)"
            )
        stop = _stops(cat, name, args)
        if stop is not None:
            raise InputError(
                f"{where}: use {cat} : {item}{f'({args})' if args else ''}: the template's "
                f"error line says '{stop}': HTCondor stops reading the configuration at this "
                "line, so its daemons would not start"
            )
        values = _VALUES.get((cat, name), ())
        unknown = tuple(dict.fromkeys(_knobs(cat, name, ())))
        found.append(Template(f"{cat} : {name}", values, unknown))
    return found


def defines_use(text: str) -> bool:
    """``defined use CATEGORY[:NAME]`` (``text`` after ``use``): the category is one
    HTCondor 25.0 has, and so is the template when one is named.

    Raises:
        InputError: ``text`` holds a blank (HTCondor stops: "will never match").
    """
    text = text.lstrip()
    if any(c.isspace() for c in text):
        raise InputError(
            f"'defined use {text}': a blank inside it never matches (HTCondor stops on it); "
            "write defined use CATEGORY:NAME"
        )
    category, colon, name = text.partition(":")
    cat = _CATEGORIES.get(category.lower())
    if cat is None:
        return False
    return not colon or not name or name.lower() in _NAMES[cat]


def _knobs(category: str, name: str, seen: tuple[tuple[str, str], ...]) -> list[str]:
    """The knobs ``category : name`` sets to values fs does not hold, the templates it
    uses included."""
    out: list[str] = []
    for word in _SETS[category][name].split():
        if not word.startswith("+"):
            out.append(word)
            continue
        inner_cat, _, inner = word[1:].partition(":")
        if (inner_cat, inner) not in seen:
            out += _knobs(inner_cat, inner, (*seen, (category, name)))
    return out


def _stops(category: str, name: str, args: str) -> str | None:
    """The message of the ``error :`` line the template ``category : name`` given the
    arguments ``args`` stops on, or None.

    ``expand_meta_args`` (config.cpp): the arguments are the pieces of ``args`` between
    commas, blanks trimmed, empty ones skipped (``StringTokenIterator``); ``$(N?)`` is 1
    when there are N of them, ``$(N)`` the Nth (nothing when there are fewer), ``$(0)``
    all of ``args``, trimmed.
    """
    given = [piece.strip() for piece in args.split(",") if piece.strip()]
    for step in _CHECKS.get((category, name), ()):
        if isinstance(step, _Needs):
            if len(given) < step.arguments:
                return step.message
            continue
        inner = step.args.replace("$(0)", args.strip())
        inner = inner.replace("$(1)", given[0] if given else "")
        stop = _stops(step.category, step.name, inner)
        if stop is not None:
            return stop
    return None


def _template_names(text: str, where: str) -> list[tuple[str, str]]:
    """The template names of a ``use`` line's right-hand side, each with the text of its
    arguments (inside the parentheses; "" for none)."""
    names: list[tuple[str, str]] = []
    i, end = 0, len(text)
    while i < end:
        while i < end and (text[i].isspace() or text[i] == ","):
            i += 1
        start = i
        while i < end and not text[i].isspace() and text[i] not in ",(":
            i += 1
        if i == start:
            break
        name, args = text[start:i], ""
        while i < end and text[i].isspace():
            i += 1
        if i < end and text[i] == "(":
            after = _after_arguments(text, i, where)
            args, i = text[i + 1 : after - 1], after
        names.append((name, args))
    return names


def _after_arguments(text: str, i: int, where: str) -> int:
    """The index after the ``(...)`` opening at ``text[i]`` (nested ``()`` and ``[]``).

    Raises:
        InputError: it has no closing parenthesis.
    """
    depth: list[str] = []
    for j in range(i, len(text)):
        if text[j] in "([":
            depth.append(")" if text[j] == "(" else "]")
        elif depth and text[j] == depth[-1]:
            depth.pop()
            if not depth:
                return j + 1
    raise InputError(f"{where}: use: the arguments '{text[i:]}' have no closing parenthesis")
