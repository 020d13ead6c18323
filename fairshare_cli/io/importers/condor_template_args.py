"""HTCondor 25.0's configuration templates whose knob names come from their arguments
(``$(1)_JOBLIST``, ``SLOT_TYPE_$(1:1)``): their lines, and the arguments put in as
``expand_meta_args`` (config.cpp) puts them, before ``read_meta_config`` reads the lines
as a configuration file's.

The lines are param_info.in's (25.0.13), without their ``if ! $(N?)`` / ``error :``
checks, which condor_templates.py makes before (``_CHECKS``), and without comments. Each
template that uses one of these with arguments of its own is here too.
"""

from __future__ import annotations

import string

#: (category, template) -> its lines.
LINES: dict[tuple[str, str], str] = {
    ("FEATURE", "ScheddUsermapFile"): """
SCHEDD_CLASSAD_USER_MAP_NAMES = $(SCHEDD_CLASSAD_USER_MAP_NAMES) $(1)
CLASSAD_USER_MAPFILE_$(1) = $(2)
""",
    ("FEATURE", "SetJobAttrFromUsermap"): """
if $(4?)
use FEATURE : ScheddUsermapFile($(3), $(4))
endif
JOB_TRANSFORM_NAMES = $(JOB_TRANSFORM_NAMES) Set$(1)
JOB_TRANSFORM_Set$(1) = [ eval_set_$(1)=usermap("$(3)",$(2),$(1)); ]
SUBMIT_REQUIREMENT_NAMES = $(SUBMIT_REQUIREMENT_NAMES) Require$(1)
SUBMIT_REQUIREMENT_Require$(1) = $(1) isnt undefined
SUBMIT_REQUIREMENT_Require$(1)_REASON = strcat("Submit requirement Require$(1) not met - \
Could not map '", $(2)?:"undefined", "' to a $(1)")
""",
    ("FEATURE", "AssignAccountingGroup"): """
use FEATURE : ScheddUsermapFile(AssignAccountingGroup, $(1))
JOB_TRANSFORM_NAMES = $(JOB_TRANSFORM_NAMES) AssignAccountingGroup
JOB_TRANSFORM_AssignAccountingGroup @=end
COPY Owner = AcctGroupUser
COPY AcctGroup = RequestedAcctGroup
EVALSET AcctGroup = usermap("AssignAccountingGroup",AcctGroupUser,AcctGroup)
EVALSET AccountingGroup = join(".",AcctGroup,AcctGroupUser)
@end
IMMUTABLE_JOB_ATTRS = $(IMMUTABLE_JOB_ATTRS) AcctGroup AcctGroupUser AccountingGroup
if $(2:True)
SUBMIT_REQUIREMENT_NAMES = $(SUBMIT_REQUIREMENT_NAMES) CheckRequestedGroup
SUBMIT_REQUIREMENT_CheckRequestedGroup = RequestedAcctGroup is undefined || \
RequestedAcctGroup == AcctGroup
SUBMIT_REQUIREMENT_CheckRequestedGroup_REASON = strcat("Permission denied setting \
accounting_group to ", RequestedAcctGroup)
endif
SUBMIT_REQUIREMENT_NAMES = $(SUBMIT_REQUIREMENT_NAMES) AssignAccountingGroup
SUBMIT_REQUIREMENT_AssignAccountingGroup = AcctGroup isnt undefined && AccountingGroup \
isnt undefined
SUBMIT_REQUIREMENT_AssignAccountingGroup_REASON = strcat("Submit requirement \
AssignAccountingGroup not met - Could not map '", Owner, "' to an accounting group ", \
RequestedAcctGroup)
""",
    ("FEATURE", "GPUs"): """
MACHINE_RESOURCE_INVENTORY_GPUs=$(LIBEXEC)/condor_gpu_discovery $(1) -properties \
$(GPU_DISCOVERY_EXTRA)
ENVIRONMENT_FOR_AssignedGPUs=GPU_DEVICE_ORDINAL=/(CUDA|OCL)//  CUDA_VISIBLE_DEVICES=/CUDA//
ENVIRONMENT_VALUE_FOR_UnAssignedGPUs=10000
use feature : GPUsMonitor
""",
    ("FEATURE", "Monitor"): """
STARTD_CRON_JOBLIST = $(STARTD_CRON_JOBLIST) $(1)_MONITOR
STARTD_CRON_$(1)_MONITOR_MODE = $(2)
STARTD_CRON_$(1)_MONITOR_PERIOD = $(3)
STARTD_CRON_$(1)_MONITOR_EXECUTABLE = $(4)
STARTD_CRON_$(1)_MONITOR_METRICS = $(5+)
""",
    ("FEATURE", "GPUsMonitor"): """
use feature : Monitor( GPUs, WaitForExit, 300, $(GPU_MONITOR), SUM:GPUs, PEAK:GPUsMemory )
STARTD_CRON_GPUs_MONITOR_CONDITION = TotalGPUs > 0 && OpSys =!= "WINDOWS"
STARTD_JOB_ATTRS = $(STARTD_JOB_ATTRS) GPUsUsage GPUsMemoryUsage
""",
    ("FEATURE", "PartitionableSlot"): """
NUM_SLOTS_TYPE_$(1:1)=1
SLOT_TYPE_$(1:1)_PARTITIONABLE=true
SLOT_TYPE_$(1:1)=$(2+:100%)
""",
    ("FEATURE", "StaticSlots"): """
NUM_SLOTS_TYPE_$(1:1)=$(2:$(NUM_CPUS))
SLOT_TYPE_$(1:1)_PARTITIONABLE=false
SLOT_TYPE_$(1:1)=$(3+:1/$(NUM_SLOTS_TYPE_$(1:1)))
SLOT_TYPE_$(1:1)=$(3+)
""",
    ("FEATURE", "OneShotCronHook"): """
$(1)_JOBLIST=$($(1)_JOBLIST) $(2)
$(1)_$(2)_MODE=OneShot
$(1)_$(2)_KILL=true
$(1)_$(2)_RECONFIG_RERUN=true
$(1)_$(2)_EXECUTABLE=$(3)
if $(4?)
$(1)_$(2)_ARGS=$(4)
endif
""",
    ("FEATURE", "PeriodicCronHook"): """
$(1)_JOBLIST=$($(1)_JOBLIST) $(2)
$(1)_$(2)_MODE=Periodic
$(1)_$(2)_PERIOD=$(3)
$(1)_$(2)_EXECUTABLE=$(4)
if $(5?)
$(1)_$(2)_ARGS=$(5)
endif
""",
    ("FEATURE", "ContinuousCronHook"): """
$(1)_JOBLIST=$($(1)_JOBLIST) $(2)
$(1)_$(2)_MODE=WaitForExit
$(1)_$(2)_PERIOD=0
$(1)_$(2)_EXECUTABLE=$(3)
if $(4?)
$(1)_$(2)_ARGS=$(4)
endif
""",
    ("FEATURE", "StartdCronPeriodic"): "use FEATURE : PeriodicCronHook(STARTD_CRON, $(0))",
    ("FEATURE", "ScheddCronPeriodic"): "use FEATURE : PeriodicCronHook(SCHEDD_CRON, $(0))",
    ("FEATURE", "StartdCronOneShot"): "use FEATURE : OneShotCronHook(STARTD_CRON, $(0))",
    ("FEATURE", "ScheddCronOneShot"): "use FEATURE : OneShotCronHook(SCHEDD_CRON, $(0))",
    ("FEATURE", "StartdCronContinuous"): "use FEATURE : ContinuousCronHook(STARTD_CRON, $(0))",
    ("FEATURE", "ScheddCronContinuous"): "use FEATURE : ContinuousCronHook(SCHEDD_CRON, $(0))",
    ("FEATURE", "ChildCollector"): """
COLLECTOR$(1)=$(COLLECTOR)
if $(2?)
COLLECTOR$(1)_ARGS= -p $(2)
else
COLLECTOR$(1)_ARGS= -sock collector$(1)
endif
COLLECTOR$(1).COLLECTOR_NAME=Collector$(1)
COLLECTOR$(1).CONDOR_VIEW_HOST=$(TOP_COLLECTOR_HOST)
COLLECTOR$(1).CCB_RECONNECT_FILE=$(SPOOL)/Collector$(1).ccb_reconnect
DAEMON_LIST=$(DAEMON_LIST) COLLECTOR$(1)
TOP_COLLECTOR_HOST=$(COLLECTOR_HOST)
""",
    ("FEATURE", "CommonCloudAttributesGoogle"): """
use FEATURE : StartdCronOneShot(cloud, $(LIBEXEC)/common-cloud-attributes-google.py, $(0))
STARTD_CRON_cloud_PREFIX = Cloud
""",
    ("FEATURE", "CommonCloudAttributesAWS"): """
use FEATURE : StartdCronOneShot(cloud, $(LIBEXEC)/common-cloud-attributes-aws.py, $(0))
STARTD_CRON_cloud_PREFIX = Cloud
""",
    ("EXPERIMENTAL", "CollectorNode"): """
COLLECTOR$(1)=$(COLLECTOR)
if $(2?)
COLLECTOR$(1)_ARGS=-f -local-name COLLECTOR$(1) -p $(2)
else
COLLECTOR$(1)_ARGS=-f -local-name COLLECTOR$(1) -sock collector$(1)
endif
COLLECTOR$(1).COLLECTOR_LOG=$(LOG)/Collector$(1)Log
COLLECTOR$(1).CCB_RECONNECT_FILE=$(SPOOL)/Collector$(1).ccb_reconnect
DAEMON_LIST=$(DAEMON_LIST) COLLECTOR$(1)
""",
    ("EXPERIMENTAL", "HADSharedPort"): (
        "use EXPERIMENTAL : HADReplication( $(1), $(2), $(SHARED_PORT_PORT), $(SHARED_PORT_PORT) )"
    ),
    ("EXPERIMENTAL", "HADFixedPort"): """
HAD_ARGS = -p $(3)
REPLICATION_ARGS = -p $(4)
use EXPERIMENTAL : HADReplication( $(1), $(2), $(3), $(4) )
""",
    ("EXPERIMENTAL", "HADReplication"): """
HAD_LIST = $(HAD_LIST) $(2):$(3)
REPLICATION_LIST = $(REPLICATION_LIST) $(2):$(4)
HAD_CONTROLLEE = $(1)
MASTER_$(1)_CONTROLLER = HAD
""",
}

#: ``isspace`` in the C locale.
_SPACE = " \t\n\v\f\r"
#: ``isalnum`` (the C locale) and ``_``: a macro prefix's characters.
_ID = frozenset(string.ascii_letters + string.digits + "_")


class _Tokens:
    """``StringTokenIterator(args, ",")``: pieces between commas, blanks trimmed, empty
    ones skipped; :meth:`remain` is the text after the last piece taken."""

    def __init__(self, text: str) -> None:
        self.text, self.next_at = text, 0

    def next(self) -> str | None:
        text, i = self.text, self.next_at
        while i < len(text) and (text[i] == "," or text[i] in _SPACE):
            i += 1
        self.next_at = start = last = i
        while i < len(text) and text[i] != ",":
            if text[i] not in _SPACE:
                last = i
            i += 1
        if i <= start:
            return None
        self.next_at = i
        return text[start : last + 1]

    def remain(self) -> str | None:
        return self.text[self.next_at :] or None


def expand_meta_args(text: str, args: str) -> str:
    """``text`` with ``$(N)``, ``$(N?)``, ``$(N+)`` (and ``$(N#)``), each with an optional
    ``:default``, replaced from ``args`` as ``expand_meta_args`` replaces them: the first
    such macro from the front, again and again (``$$(N)`` is left alone)."""
    while (found := _next_meta_arg(text)) is not None:
        start, body, end = found
        text = text[:start] + _meta_value(body, args) + text[end:]
    return text


def _next_meta_arg(text: str) -> tuple[int, str, int] | None:
    """The first ``$(N...)`` of ``text`` as ``next_config_macro`` finds it with
    ``is_meta_arg_macro``: where it starts, its body, where it ends. The prefix is one
    ``$`` (``$$(`` and ``$NAME(`` are passed over); before a ``:``, the body holds digits,
    ``?``, ``#`` and ``+``, else the scan goes on from the body; after it anything, a
    ``(`` skipping to the next ``)``. A body that does not start with a digit is passed
    over whole."""
    at = 0
    while (dollar := text.find("$", at)) >= 0:
        p = dollar + 2 if text[dollar + 1 : dollar + 2] == "$" else dollar + 1
        while p < len(text) and text[p] in _ID:
            p += 1
        if p - dollar != 1 or text[p : p + 1] != "(":
            at = p
            continue
        i = at = name = p + 1
        colon = False
        while i < len(text) and text[i] != ")":
            c, i = text[i], i + 1
            if c == ":" and not colon:
                colon = True
            elif colon:
                if c == "(" and (close := text.find(")", i)) >= 0:
                    i = close + 1
            elif c not in "0123456789?#+":
                break
        else:
            if i < len(text) and text[name] in "0123456789":
                return dollar, text[name:i], i + 1
            at = i if i < len(text) else name
    return None


def _meta_value(body: str, args: str) -> str:
    """What one ``$(N...)`` (its ``body``) stands for, given the arguments ``args``."""
    digits = len(body) - len(body.lstrip("0123456789"))
    index, rest = int(body[:digits]), body[digits:]
    empty_check = rest.startswith("?")
    num_args = rest[:1] in ("#", "+")
    rest = rest[1:] if empty_check or num_args else rest
    default = rest[1:] if rest.startswith(":") else None
    tokens = _Tokens(args)
    if index <= 0:
        count = 0
        while tokens.next() is not None:
            count += 1
        value = str(count) if num_args else args
    elif num_args:
        remain, ix = tokens.remain(), 1
        while remain and ix < index:
            ix += 1
            tokens.next()
            remain = tokens.remain()
        value = remain[1:] if remain and remain[0] == "," else remain or ""
        value = value or (default or "")
    else:
        piece, ix = tokens.next(), 1
        while piece is not None and ix < index:
            ix += 1
            piece = tokens.next()
        value = piece if piece is not None else (default or "")
    value = value.strip(_SPACE)
    if empty_check:
        return "1" if value else "0"
    return value
