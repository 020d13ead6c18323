"""DIRAC's section: ``[dirac]`` with its groups, share correction and job description bounds."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from fairshare_cli.core.config import (
    DIRAC_CPU_SEGMENTS,
    DiracConfig,
    DiracCorrectionConfig,
    DiracCorrectionInstance,
    DiracGroupSpec,
    DiracJobDescription,
    DiracPilotCheck,
    DiracSlice,
)
from fairshare_cli.core.dirac.correction import CORRECTOR_TYPES
from fairshare_cli.core.dirac.description import defaults_and_bounds
from fairshare_cli.core.limits import INT64_MAX, INT64_MIN
from fairshare_cli.core.names import dirac_group_problem
from fairshare_cli.io.config.reader import Reader, choice, int_list, plain_names


def _job_share(g: Reader, name: str) -> tuple[int, str | None]:
    """``job_share`` as DIRAC reads it, within 64 bits (the task queues pack it as float32)."""
    from fairshare_cli.core.dirac.registry import read_job_share
    from fairshare_cli.core.dirac.taskqueues import DEFAULT_GROUP_SHARE

    value = g.table.get("job_share", DEFAULT_GROUP_SHARE)
    text = None
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        from fairshare_cli.io.toml_values import toml_text

        text = toml_text(value)  # (a date, true, a table: as TOML writes it, not Python's repr)
    share, note = read_job_share(value, text)
    if abs(share) > INT64_MAX:
        g.fail(f"dirac.groups.{name}.job_share: expected a whole number that fits in 64 bits")
    return share, note


def _valid_cpu_segments(segments: Sequence[int]) -> bool:
    """:func:`~fairshare_cli.core.dirac.taskqueues.valid_cpu_segments`, imported only for a
    config that sets ``cpu_segments`` (a Slurm or HTCondor one loads no DIRAC module)."""
    from fairshare_cli.core.dirac.taskqueues import valid_cpu_segments

    return valid_cpu_segments(segments)


_DIRAC_KEYS = (
    "groups", "correction", "job_priority_weighting", "cpu_segments", "job_description", "pilot",
    "vo",
)  # fmt: skip


def _groups(r: Reader, file: str, notes: list[str]) -> dict[str, DiracGroupSpec]:
    """``[dirac.groups]``, each ``job_share`` as DIRAC reads it (a note where that differs)."""
    groups_raw = r.table.get("groups", {})
    names = frozenset(groups_raw) if isinstance(groups_raw, Mapping) else frozenset()
    g0 = Reader(groups_raw, "dirac.groups", file, names)
    for name in g0.table if not plain_names(g0.table) else ():
        if (problem := dirac_group_problem(name)) is not None:  # (blanks inside are taken)
            g0.fail(f"dirac.groups: {problem}")
    groups: dict[str, DiracGroupSpec] = {}
    for name, body in g0.table.items():
        g = Reader(
            body,
            f"dirac.groups.{name}",
            file,
            ("job_share", "job_sharing", "allow_background_tqs", "vo"),
        )
        share, note = _job_share(g, name)
        if note:
            notes.append(f"{file}: dirac.groups.{name}.job_share = {note}")
        groups[name] = DiracGroupSpec(
            name=name,
            job_share=share,
            job_sharing=g.get("job_sharing", g.boolean, False),
            allow_background_tqs=g.get("allow_background_tqs", g.boolean, False),
            vo=g.get("vo", g.string, ""),
        )
    return groups


def read_dirac(top: Reader, file: str) -> DiracConfig:
    """``[dirac]``: groups, share correction and the code-versus-docs switches.

    ``job_share`` is read as DIRAC reads JobShare (:func:`read_job_share`), with a note in
    ``notes`` where that differs from a positive integer. DIRAC reads every corrector option
    as an integer and silently falls back to the default on anything else; here a
    non-integer is an error instead.
    """
    notes: list[str] = []
    r = Reader(top.table.get("dirac", {}), "dirac", file, _DIRAC_KEYS)
    groups = _groups(r, file, notes)
    weighting = r.get("job_priority_weighting", choice(r, ("average", "sum")), "average")
    segments = r.get("cpu_segments", int_list(r), DIRAC_CPU_SEGMENTS)
    if r.has("cpu_segments") and not _valid_cpu_segments(segments):
        r.fail(
            "dirac.cpu_segments: expected strictly increasing positive whole numbers of seconds "
            "(DIRAC would silently fall back to its default segments)"
        )
    c = Reader(
        r.table.get("correction", {}),
        "dirac.correction",
        file,
        ("enabled", "instances", "absent_entities", "in_group_history", "history_report"),
    )
    inst_raw = c.table.get("instances", [])
    if not isinstance(inst_raw, list):
        c.fail("dirac.correction.instances: expected an array of tables")
    instances = [_correction_instance(body, i, file) for i, body in enumerate(inst_raw)]
    seen: dict[tuple[str, str], str] = {}
    for i, inst in enumerate(instances):
        key = (inst.corrector, inst.group)
        if key in seen:
            what = f"group '{inst.group}'" if inst.group else "groups"
            c.fail(
                f"dirac.correction.instances[{i}]: instance '{inst.name}' corrects the same "
                f"{what} as '{seen[key]}' (both {inst.corrector}); DIRAC refuses two "
                "correctors of one type for one key"
            )
        seen[key] = inst.name
    correction = DiracCorrectionConfig(
        enabled=c.get("enabled", c.boolean, False),
        instances=tuple(instances),
        absent_entities=c.get(
            "absent_entities", choice(c, ("max_correction", "weighted")), "max_correction"
        ),
        in_group_history=c.get("in_group_history", choice(c, ("dn", "user")), "dn"),
        history_report=c.get("history_report", choice(c, ("accounting", "average")), "accounting"),
    )
    for i, inst in enumerate(instances):
        notes.extend(f"{file}: {note}" for note in _instance_notes(i, inst, correction, groups))
    return DiracConfig(
        groups=groups,
        correction=correction,
        job_priority_weighting=weighting,
        cpu_segments=tuple(segments),
        job_description=_job_description(r, file, notes),
        pilot=_pilot_check(r, file),
        vo=r.get("vo", r.string, ""),
        notes=tuple(notes),
    )


def _instance_notes(
    i: int,
    inst: DiracCorrectionInstance,
    correction: DiracCorrectionConfig,
    groups: dict[str, DiracGroupSpec],
) -> list[str]:
    """What DIRAC does with one corrector instance that the config may not expect."""
    where = f"dirac.correction.instances[{i}]"
    notes = []
    if any(piece.time_span < 3600 for piece in inst.slices):
        notes.append(
            f"{where}: a slice shorter than 3600 s; DIRAC's accounting refuses such a report "
            f"('lastSeconds must be more than 3600'), so instance '{inst.name}' never corrects"
        )
    if inst.slices and sum(p.weight for p in inst.slices) == 0:
        notes.append(
            f"{where}.slices: the weights sum to zero; DIRAC's corrector fails to start "
            f"instance '{inst.name}' (it divides each weight by their sum; that TaskQueuesAgent "
            f"cycle fails) and never starts it or a later {inst.corrector} instance: fs "
            "leaves them out, as DIRAC then runs without them"
        )
    if inst.max_global_correction == 0 or any(p.max_correction == 0 for p in inst.slices):
        notes.append(
            f"{where}: a max_global_correction or max_correction of 0; DIRAC's corrector "
            f"divides 1 by it once it has history, so instance '{inst.name}' then fails "
            "each TaskQueuesAgent cycle (fs taskqueues shows what DIRAC keeps)"
        )
    if inst.group and inst.group not in groups:
        # SharesCorrector keys an instance by its Group option alone, and the
        # TaskQueueDB gives such a group's owners DEFAULT_GROUP_SHARE and corrects them
        notes.append(
            f"{where}.group: '{inst.group}' is not in [dirac.groups] (known: "
            f"{', '.join(sorted(groups)) or 'none'}); as in DIRAC, its owners still get this "
            "correction, under the default share 1000"
        )
    if not inst.group or correction.in_group_history != "user":
        return notes  # (with "dn" no in-group instance ever corrects)
    if correction.history_report == "accounting" and inst.corrector == "WMSHistory":
        # WMSHistoryCorrector's in-group report asks for {"UserGroup": group} only
        notes.append(
            f"{where}: DIRAC's in-group WMSHistory report has no Running condition: it counts "
            "the owners' jobs in every JobDB status (waiting, done, failed, ... until the "
            "JobCleaningAgent removes them); the history fs keeps holds running jobs only, "
            f"so instance '{inst.name}' compares running jobs alone"
        )
    if correction.history_report == "accounting" and inst.corrector == "MonitoringHistory":
        notes.append(
            f"{where}: DIRAC's in-group MonitoringHistory report matches UserGroup against "
            f"each character of '{inst.group}' (the condition is a string, not a list), so "
            f"instance '{inst.name}' reads only groups named by one of those characters, "
            "as fs does"
        )
    return notes


def _correction_instance(body: Any, i: int, file: str) -> DiracCorrectionInstance:
    """One ``[[dirac.correction.instances]]`` table, with DIRAC's defaults."""
    where = f"dirac.correction.instances[{i}]"
    ir = Reader(
        body, where, file, ("name", "group", "max_global_correction", "slices", "corrector")
    )
    slices_raw = ir.table.get("slices", [])
    if not isinstance(slices_raw, list):
        ir.fail(f"{where}.slices: expected a list of {{ time_span, weight, max_correction }}")
    slices: list[DiracSlice] = []
    for j, sb in enumerate(slices_raw):
        at = f"{where}.slices[{j}]"
        sr = Reader(sb, at, file, ("time_span", "weight", "max_correction"))
        if type(sr.table.get("time_span")) is int:  # (any: DIRAC's report refuses < 3600)
            span = sr.int_("time_span", 604800, lo=INT64_MIN, hi=INT64_MAX)
        else:
            span = sr.get("time_span", sr.duration, 604800.0)
        if not float(span).is_integer():
            sr.fail(
                f"{at}.time_span: expected a whole number of seconds "
                f"(or a time string), got {sr.table['time_span']!r}"
            )
        slices.append(
            DiracSlice(
                time_span=int(span),
                weight=sr.int_("weight", 1, lo=INT64_MIN, hi=INT64_MAX),
                max_correction=sr.int_("max_correction", 3, lo=INT64_MIN, hi=INT64_MAX),
            )
        )
    return DiracCorrectionInstance(
        name=ir.get("name", ir.string, f"instance{i}"),
        group=ir.get("group", ir.string, ""),
        max_global_correction=ir.int_("max_global_correction", 5, lo=INT64_MIN, hi=INT64_MAX),
        slices=tuple(slices),
        corrector=ir.get("corrector", choice(ir, CORRECTOR_TYPES), CORRECTOR_TYPES[0]),
    )


JOB_DESCRIPTION_KEYS = (
    ("default_cpu_time", "DefaultCPUTime"),
    ("min_cpu_time", "MinCPUTime"),
    ("max_cpu_time", "MaxCPUTime"),
    ("default_priority", "DefaultPriority"),
    ("min_priority", "MinPriority"),
    ("max_priority", "MaxPriority"),
)
"""``[dirac.job_description]`` keys and the ``/Operations/JobDescription`` options they are."""


def _job_description(r: Reader, file: str, notes: list[str]) -> DiracJobDescription:
    """``[dirac.job_description]``: whole numbers (DIRAC reads each as an integer and falls
    back to its default on anything else; here that is an error). A default outside its
    bounds, or bounds that hold nothing, make JobManager refuse jobs: a note says which."""
    where = "dirac.job_description"
    jr = Reader(
        r.table.get("job_description", {}), where, file, tuple(k for k, _ in JOB_DESCRIPTION_KEYS)
    )
    base = DiracJobDescription()
    values = {
        key: jr.int_(key, getattr(base, key), lo=INT64_MIN, hi=INT64_MAX)
        for key, _ in JOB_DESCRIPTION_KEYS
    }
    d = DiracJobDescription(**values)
    for what, option, default, low, high in defaults_and_bounds(d):
        if low > high:
            notes.append(
                f"{file}: {where}: min_{what} {low} is above max_{what} {high}; DIRAC's "
                "JobManager refuses every job"
            )
        elif not low <= default <= high:
            notes.append(
                f"{file}: {where}.default_{what} = {default} (Default{option}) is outside "
                f"{low} to {high}; DIRAC's JobManager refuses every job (it validates the "
                f"default before a job's own {option})"
            )
    return d


def _pilot_check(r: Reader, file: str) -> DiracPilotCheck:
    """``[dirac.pilot]``: ``check_version`` (a boolean), ``versions`` (a list of texts)
    and ``project`` (a text), DIRAC's defaults when unset."""
    pr = Reader(
        r.table.get("pilot", {}), "dirac.pilot", file, ("check_version", "versions", "project")
    )
    return DiracPilotCheck(
        check_version=pr.get("check_version", pr.boolean, True),
        versions=pr.get("versions", pr.string_list, ()),
        project=pr.get("project", pr.string, ""),
    )
