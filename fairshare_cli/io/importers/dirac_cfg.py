"""``fs import dirac-cfg``: a DIRAC configuration's groups and job scheduling as ``[dirac]``.

Values are read along DIRAC's own code paths (DIRAC 9.1):

- ``/Registry/Groups/<g>`` through ``gConfig``: ``JobShare`` typed by the default 1000
  (``TaskQueueDB.getGroupShares``), ``Properties`` as a list (``JobSharing`` in it makes
  the group one entity), ``AllowBackgroundTQs`` as a boolean.
- ``JobScheduling/...`` through the ``Operations`` helper, which merges
  ``/Operations/Defaults`` with ``/Operations/<VO>`` (the VO of ``/DIRAC/VirtualOrganization``;
  a TaskQueueDB service has no proxy to take another from). DIRAC 8 also merged
  ``/Operations/<Setup>``, ``/Operations/<VO>/Defaults`` and ``/Operations/<VO>/<Setup>``;
  ``setup`` selects that layout.
- ``taskQueueCPUTimeIntervals`` (``TaskQueueDB.fitCPUTimeToSegments``: not strictly
  increasing positive integers fall back to the defaults), ``EnableSharesCorrection``, and
  ``ShareCorrections`` (``SharesCorrector``: the types in ``ShareCorrectorsToStart``, each
  sub-section an instance keyed by its ``Group``; ``BaseHistoryCorrector``: the instance's
  ``MaxGlobalCorrection`` and every sub-section a slice with ``TimeSpan``, ``Weight``,
  ``MaxCorrection``, all typed by their integer defaults).
- ``JobDescription/DefaultCPUTime``, ``MinCPUTime``, ``MaxCPUTime``, ``DefaultPriority``,
  ``MinPriority``, ``MaxPriority`` through the same helper (``JobModel.py`` and
  ``JobManifest.check``), each typed by its integer default: ``[dirac.job_description]``.
  Without a VO, ``JobManifest.check`` (``Operations(group=...)``) still reads each group's
  own ``/Registry/Groups/<g>/VO``: a warning names the values that differ there.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from fairshare_cli.core.config import DIRAC_CPU_SEGMENTS, DiracJobDescription
from fairshare_cli.core.dirac.correction import CORRECTOR_TYPES
from fairshare_cli.core.dirac.description import defaults_and_bounds
from fairshare_cli.core.dirac.registry import read_job_share
from fairshare_cli.core.dirac.taskqueues import DEFAULT_GROUP_SHARE
from fairshare_cli.core.limits import INT64_MAX
from fairshare_cli.core.names import dirac_group_problem, shown
from fairshare_cli.errors import InputError, did_you_mean
from fairshare_cli.io.config.dirac import JOB_DESCRIPTION_KEYS
from fairshare_cli.io.importers.as_config import Origins
from fairshare_cli.io.importers.cfg_syntax import (
    CfgSection,
    cfg_bool,
    cfg_int,
    cfg_int_or_none,
    cfg_list,
    merge_paths,
    refuse_read_through,
)
from fairshare_cli.io.importers.dirac_pilot import pilot_check

GROUP_KEYS = ("JobShare", "Properties", "AllowBackgroundTQs", "VO")
SCHEDULING_KEYS = ("taskQueueCPUTimeIntervals", "EnableSharesCorrection", "ShareCorrections")
SLICE_DEFAULTS = (("TimeSpan", 604800), ("Weight", 1), ("MaxCorrection", 3))
"""``BaseHistoryCorrector._fillSlices``: slice options and their defaults."""


@dataclass
class DiracCfgImport:
    """What a DIRAC configuration gives: the fragment and what to tell the user."""

    fragment: dict[str, Any]
    origins: Origins
    summary: str
    ignored: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


@dataclass
class _Reading:
    source: str
    ignored: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    origins: Origins = field(default_factory=lambda: Origins("-"))

    def came(self, path: tuple[str | int, ...], line: int, option: str) -> None:
        """The value at ``path`` of ``[dirac]`` came from ``option`` at ``line``."""
        self.origins.add(("dirac", *path), f"{self.source}:{line}: {option}")

    def warn(self, line: int, message: str) -> None:
        self.warnings.append(f"{self.source}:{line}: {message}")

    def fail(self, line: int, message: str) -> InputError:
        return InputError(f"{self.source}:{line}: {message}")

    def held(self, line: int, option: str, value: int) -> int:
        """``value`` when the fragment can hold it: a TOML integer (64 bits, which
        ``[dirac]`` holds too), not one DIRAC's Python ``int()`` reads from a longer text.

        Raises:
            InputError: naming the line; DIRAC reads the number, fs cannot write it.
        """
        if abs(value) > INT64_MAX:
            raise self.fail(
                line,
                f"{option} = {value}: beyond the whole numbers fs holds "
                f"(-{INT64_MAX} to {INT64_MAX}, TOML's 64 bits)",
            )
        return value


def read_dirac_cfg(
    root: CfgSection, source: str, vo: str | None = None, setup: str | None = None
) -> DiracCfgImport:
    """The ``[dirac]`` fragment of a parsed DIRAC configuration.

    Args:
        root: the parsed file (:func:`~fairshare_cli.io.importers.cfg_syntax.parse_cfg`).
        source: the file's name, for messages.
        vo: the VO whose ``/Operations/<VO>`` applies (default: the file's
            ``/DIRAC/VirtualOrganization``).
        setup: a DIRAC 8 setup name: read ``/Operations`` as DIRAC 8 did.

    Raises:
        InputError: ``FILE:LINE:`` for values DIRAC itself would fail on, or ``fs`` cannot
            represent (an empty CPU segment list, ...).
    """
    reading = _Reading(source, origins=Origins(source))
    if root.section("Registry/Groups") is None and root.section("Operations") is None:
        raise InputError(
            f"{source}: no /Registry/Groups or /Operations section; expected a DIRAC "
            "configuration (.cfg)"
        )
    if vo is not None:
        _check_vo(root, source, vo, setup)
    else:
        vo = (root.text("DIRAC/VirtualOrganization") or "").strip() or None
    for name in root.sections():
        if name not in ("Registry", "Operations", "DIRAC"):
            reading.ignored.append(name)
    groups = _groups(root, reading)
    ops = _operations(root, vo, setup, reading)
    sched = ops.section("JobScheduling") or CfgSection()
    for name in sched.entries:
        if name not in SCHEDULING_KEYS:
            reading.ignored.append(f"Operations/JobScheduling/{name}")
    segments = _segments(sched, reading)
    if segments is not None:  # (else DIRAC's default segments)
        line = sched.line_of("taskQueueCPUTimeIntervals")
        reading.came(("cpu_segments",), line, "JobScheduling/taskQueueCPUTimeIntervals")
    dirac: dict[str, Any] = {"cpu_segments": segments or list(DIRAC_CPU_SEGMENTS)}
    dirac.update({"vo": vo} if vo else {})  # (the services' /DIRAC/VirtualOrganization)
    dirac["groups"] = groups
    enabled = cfg_bool(sched.text("EnableSharesCorrection"), False)
    shares = ["JobScheduling/ShareCorrections"][:enabled]  # (SharesCorrector.update reads
    refuse_read_through(ops, shares, source, "Operations")  # it when correction is on)
    instances = _instances(sched, set(groups), reading)
    dirac["correction"] = {"enabled": enabled, "instances": instances}
    jd_section = ops.section("JobDescription") or CfgSection()
    description = _job_description(jd_section, reading)
    for key, option in JOB_DESCRIPTION_KEYS:  # (what fs writes; a group's VO's is only read)
        if key in description:
            reading.held(jd_section.line_of(option), f"JobDescription/{option}", description[key])
            reading.came(("job_description", key), jd_section.line_of(option), option)
    _refused_defaults(jd_section, description, setup is not None, reading)
    if description:
        dirac["job_description"] = description
    pilot, others = pilot_check(ops.section("Pilot") or CfgSection(), reading.came)
    reading.ignored.extend(f"Operations/Pilot/{name}" for name in others)
    dirac.update(pilot)
    if vo is None:
        _group_vo_descriptions(root, setup, description, reading)
    slices = sum(len(i["slices"]) for i in instances)
    summary = (
        f"dirac-cfg: {len(groups)} group{'s' * (len(groups) != 1)}, "
        f"share correction {'on' if enabled else 'off'} with {len(instances)} "
        f"instance{'s' * (len(instances) != 1)} ({slices} slice{'s' * (slices != 1)})"
        + (f", {len(segments)} CPU segments" if segments is not None else ", default CPU segments")
    )
    return DiracCfgImport(
        {"dirac": dirac}, reading.origins, summary, reading.ignored, reading.warnings
    )


def _check_vo(root: CfgSection, source: str, vo: str, setup: str | None) -> None:
    """``--vo`` names a VO of the file: an ``/Operations/<VO>`` section (other than
    ``Defaults`` and the setup's), a ``/Registry/VO/<VO>`` section, or
    ``/DIRAC/VirtualOrganization``.

    Raises:
        InputError: another name (DIRAC would read ``/Operations/Defaults`` only).
    """
    ops = root.section("Operations") or CfgSection()
    registry = root.section("Registry/VO") or CfgSection()
    own = (root.text("DIRAC/VirtualOrganization") or "").strip()
    known = {*ops.sections(), *registry.sections(), *([own] if own else [])}
    known -= {"Defaults", *([setup] if setup else [])}
    if vo not in known:
        have = f"its VOs: {', '.join(sorted(known))}" if known else "it names no VO"
        raise InputError(f"--vo {vo}: {source} has no VO {vo} (no /Operations/{vo}); {have}")


#: The ``[dirac.groups.<g>]`` keys and the group options they are read from.
_GROUP_OPTIONS = (
    ("job_share", "JobShare"), ("job_sharing", "Properties"),
    ("allow_background_tqs", "AllowBackgroundTQs"),
)  # fmt: skip


def _groups(root: CfgSection, reading: _Reading) -> dict[str, dict[str, Any]]:
    """``/Registry/Groups/<g>`` as ``[dirac.groups.<g>]``, each value as DIRAC reads it."""
    registry = root.section("Registry") or CfgSection()
    for name in registry.entries:
        if name != "Groups":
            reading.ignored.append(f"Registry/{name}")
    section = registry.section("Groups") or CfgSection()
    out: dict[str, dict[str, Any]] = {}
    for name in section.sections():
        group = section.section(name)
        assert group is not None
        if (problem := dirac_group_problem(name)) is not None:
            raise reading.fail(group.line, f"a group name in Registry/Groups: {problem}")
        others = [key for key in group.entries if key not in GROUP_KEYS]
        reading.ignored.extend(f"Registry/Groups/*/{key}" for key in others)
        for key in others:  # (a misspelt share: the group would keep the default, unsaid)
            if hint := did_you_mean(key, ("JobShare", "AllowBackgroundTQs")):
                where = f"Registry/Groups/{name}/{key}"
                reading.warn(group.line_of(key), f"{where}: DIRAC reads no such option{hint}")
        text = group.text("JobShare")
        share, note = read_job_share(DEFAULT_GROUP_SHARE if text is None else text)
        reading.held(group.line_of("JobShare"), f"Registry/Groups/{name}/JobShare", share)
        if note:
            reading.warn(group.line_of("JobShare"), f"Registry/Groups/{name}/JobShare = {note}")
        for key, option in _GROUP_OPTIONS:
            reading.came(("groups", name, key), group.line_of(option) or group.line, option)
        out[name] = {
            "job_share": share,
            "job_sharing": "JobSharing" in cfg_list(group.text("Properties"), []),
            "allow_background_tqs": cfg_bool(group.text("AllowBackgroundTQs"), False),
        }
        if vo := (group.text("VO") or "").strip():  # (getGroupsForVO reads it as a list)
            out[name]["vo"] = vo
            reading.came(("groups", name, "vo"), group.line_of("VO"), "VO")
    return out


def _operations(
    root: CfgSection, vo: str | None, setup: str | None, reading: _Reading
) -> CfgSection:
    """The ``Operations`` helper's merged view (later paths win)."""
    paths = _search_paths(vo, setup)
    ops = root.section("Operations") or CfgSection()
    used = {p.split("/", 1)[0] for p in paths}
    for name in ops.entries:
        if name not in used:
            reading.ignored.append(f"Operations/{name}")
    own = ops.section(vo) if setup and vo else None
    if setup and ops.section(setup) is None and (own is None or own.section(setup) is None):
        where = f"/Operations/{setup}" + (f" or /Operations/{vo}/{setup}" if vo else "")
        reading.warnings.append(f"--setup {setup}: the file has no {where}; its defaults apply")
    for name in own.entries if own is not None else ():
        if name not in ("Defaults", setup):  # (DIRAC 8 read the VO's setups only)
            reading.ignored.append(f"Operations/{vo}/{name}")
    merged = merge_paths(ops, paths, reading.source, "Operations")
    read = ("JobScheduling", "JobDescription", "Pilot")  # (TaskQueueDB, JobManager, Matcher)
    refuse_read_through(merged, read, reading.source, "Operations")
    for name in merged.entries:
        if name not in ("JobScheduling", "JobDescription", "Pilot"):
            reading.ignored.append(f"Operations/*/{name}")
    return merged


def _search_paths(vo: str | None, setup: str | None) -> list[str]:
    """``Operations.__getSearchPaths`` under ``/Operations``: DIRAC 9's, or DIRAC 8's with a
    setup."""
    if setup:
        return ["Defaults", setup, *([f"{vo}/Defaults", f"{vo}/{setup}"] if vo else [])]
    return ["Defaults", *([vo] if vo else [])]


def _group_vo_descriptions(
    root: CfgSection, setup: str | None, applied: dict[str, int], reading: _Reading
) -> None:
    """Warn where a group's own VO gives its jobs another JobDescription than fs applies.

    Without ``/DIRAC/VirtualOrganization`` TaskQueueDB and JobManager (``Operations()``,
    no proxy) read ``/Operations/Defaults`` only, as fs does; but ``JobManifest.check``
    (``Operations(group=...)``) reads the group's ``/Registry/Groups/<g>/VO`` too: the
    default CPU time and priority of a job that gives none, and the bounds it clamps to.
    """
    groups = root.section("Registry/Groups") or CfgSection()
    ops = root.section("Operations") or CfgSection()
    base = DiracJobDescription()
    where = "/Operations/Defaults" + (f" and /Operations/{setup}" if setup else "")
    for name in groups.sections():
        group = groups.section(name)
        vo = ((group.text("VO") if group is not None else None) or "").strip()
        if group is None or not vo:
            continue
        try:
            merged = merge_paths(ops, _search_paths(vo, setup), reading.source, "Operations")
        except InputError as exc:  # (only JobManager's checks of this group's jobs read it)
            reading.warnings.append(f"{exc} (read for group {name}'s jobs: its VO is {vo})")
            continue
        section = merged.section("JobDescription")
        theirs = _job_description(section or CfgSection(), _Reading(reading.source))
        differ = [
            f"{option} = {theirs.get(key, getattr(base, key))}"
            for key, option in JOB_DESCRIPTION_KEYS
            if theirs.get(key, getattr(base, key)) != applied.get(key, getattr(base, key))
        ]
        if differ:
            reading.warn(
                group.line_of("VO"),
                f"Registry/Groups/{name}/VO = {vo}: DIRAC's JobDB reads the JobDescription of "
                f"{name}'s jobs from /Operations/{vo} too ({', '.join(differ)}): the default "
                "CPU time and priority, and the bounds it clamps them to; fs gives every group "
                f"that of {where} (no /DIRAC/VirtualOrganization; --vo {vo} if DIRAC's "
                "services run with it)",
            )


def _segments(sched: CfgSection, reading: _Reading) -> list[int] | None:
    """``taskQueueCPUTimeIntervals`` as ``fitCPUTimeToSegments`` uses it (None: not set)."""
    text = sched.text("taskQueueCPUTimeIntervals")
    if text is None:
        return None
    line = sched.line_of("taskQueueCPUTimeIntervals")
    items = cfg_list(text, [])
    if not items:
        raise reading.fail(
            line,
            "JobScheduling/taskQueueCPUTimeIntervals is empty; DIRAC fails on every job "
            "insertion (no segment to map a CPU time to); expected a list of seconds",
        )
    try:
        values = [int(item) for item in items]
    except ValueError:
        values = []
    last = 0
    for value in values:
        if value <= last:
            values = []
            break
        last = value
    if not values:
        reading.warn(
            line,
            f"JobScheduling/taskQueueCPUTimeIntervals = {text!r} is not strictly increasing "
            "positive whole numbers; DIRAC uses its default segments",
        )
        return list(DIRAC_CPU_SEGMENTS)
    option = "JobScheduling/taskQueueCPUTimeIntervals"
    return [reading.held(line, option, value) for value in values]


def _instances(sched: CfgSection, groups: set[str], reading: _Reading) -> list[dict[str, Any]]:
    """Corrector instances of the started types, in ``ShareCorrectorsToStart`` order (a type
    named twice starts once). ``SharesCorrector`` keeps one instance per key within a type
    and refuses the second; instances of several types for one key all apply, in turn."""
    base = sched.section("ShareCorrections") or CfgSection()
    started = list(dict.fromkeys(cfg_list(base.text("ShareCorrectorsToStart"), [])))
    for name in base.entries:
        if name != "ShareCorrectorsToStart" and name not in started:
            reading.ignored.append(f"Operations/JobScheduling/ShareCorrections/{name}")
    out: list[dict[str, Any]] = []
    keys: dict[tuple[str, str], str] = {}
    for kind in started:
        line = base.line_of("ShareCorrectorsToStart")
        section = base.section(kind)
        if kind not in CORRECTOR_TYPES:
            reading.warn(line, f"corrector type '{kind}' does not exist; DIRAC starts none")
            continue
        if section is None:
            reading.warn(line, f"corrector type '{kind}' has no section; DIRAC starts none")
            continue
        for name in section.sections():
            inst = section.section(name)
            assert inst is not None
            where = f"ShareCorrections/{kind}/{name}"
            group = (inst.text("Group") or "").strip()
            key = (kind, group)
            if key in keys:
                what = "group" if group else "groups"
                reading.warn(
                    inst.line,
                    f"{where} corrects the same {what} as {keys[key]}; DIRAC refuses the second",
                )
                continue
            keys[key] = where
            if group and group not in groups:
                reading.warn(
                    inst.line,
                    f"{where} corrects group '{group}', which /Registry/Groups does not "
                    "list; kept: DIRAC still corrects its owners (share 1000 between them)",
                )
            if not inst.sections():  # (kept: it still divides by the sum of the shares)
                reading.warn(
                    inst.line, f"{where} has no time slices; DIRAC's instance corrects nothing"
                )
            reading.came(("correction", "instances", len(out)), inst.line, where)
            out.append(_instance(inst, name, group, where, reading))
            if kind != CORRECTOR_TYPES[0]:
                out[-1]["corrector"] = kind
    return out


def _instance(
    inst: CfgSection, name: str, group: str, where: str, reading: _Reading
) -> dict[str, Any]:
    for key in inst.options():
        if key not in ("Group", "MaxGlobalCorrection"):
            reading.ignored.append(f"ShareCorrections/*/*/{key}")
    top = _integer(inst, "MaxGlobalCorrection", 5, where, reading)
    slices = []
    for piece in inst.sections():
        section = inst.section(piece)
        assert section is not None
        values = {
            key: _integer(section, key, default, f"{where}/{piece}", reading)
            for key, default in SLICE_DEFAULTS
        }
        slices.append(
            {
                "time_span": values["TimeSpan"],
                "weight": values["Weight"],
                "max_correction": values["MaxCorrection"],
            }
        )
    if slices and sum(s["weight"] for s in slices) == 0:  # (kept: fs leaves it out too)
        reading.warn(
            inst.line,
            f"{where}: the slice weights sum to zero; DIRAC's corrector fails to start it (it "
            "divides each weight by their sum) and never starts it or the type's later instances",
        )
    return {"name": name, "group": group, "max_global_correction": top, "slices": slices}


def _integer(section: CfgSection, key: str, default: int, where: str, reading: _Reading) -> int:
    """An integer corrector option (DIRAC's default for non-integers): any, as DIRAC takes
    any (a slice under 3600 s never corrects, a maximum of 0 is warned of)."""
    text = section.text(key)
    value = cfg_int(text, default)
    line = section.line_of(key)
    if text is not None and cfg_int_or_none(text) is None:
        said = shown(repr(text))
        reading.warn(line, f"{where}/{key} = {said} is not an integer; DIRAC reads {default}")
    if value == 0 and key.startswith("Max"):  # (1.0 / MaxCorrection, 1.0 / MaxGlobal...)
        why = "divides 1 by it once it has history: each TaskQueuesAgent cycle then fails"
        reading.warn(line, f"{where}/{key} = 0: DIRAC's corrector {why}")
    return reading.held(line, f"{where}/{key}", value)


def _job_description(section: CfgSection, reading: _Reading) -> dict[str, int]:
    """The ``JobDescription`` options JobManager reads, as ``[dirac.job_description]`` keys
    (only those the file sets), each typed by its integer default as DIRAC does."""
    base = DiracJobDescription()
    options = dict((option, key) for key, option in JOB_DESCRIPTION_KEYS)
    for name in section.entries:
        if name not in options:
            reading.ignored.append(f"Operations/*/JobDescription/{name}")
    out: dict[str, int] = {}
    for option, key in options.items():
        text = section.text(option)
        if text is None:
            continue
        default = getattr(base, key)
        value = cfg_int_or_none(text)
        if value is None:
            reading.warn(
                section.line_of(option),
                f"JobDescription/{option} = {shown(repr(text))} is not an integer; DIRAC reads "
                f"{default}",
            )
        out[key] = default if value is None else value
    return out


def _refused_defaults(
    section: CfgSection, description: dict[str, int], dirac8: bool, reading: _Reading
) -> None:
    """Warn where ``DefaultCPUTime`` or ``DefaultPriority`` lies outside its bounds: DIRAC
    9's JobManager builds its job model with the defaults and validates them before a job's
    own values (``injectDefaultValues``), so it refuses every job, as ``fs`` does; DIRAC 8's
    (``dirac8``: the file has setups) validated nothing, and its JobDB clamped the default
    into the bounds (``JobManifest.__checkNumericalVar``)."""
    for _, what, default, low, high in defaults_and_bounds(DiracJobDescription(**description)):
        if not low <= default <= high:
            line = next(
                (
                    n
                    for n in (section.line_of(f"{k}{what}") for k in ("Default", "Min", "Max"))
                    if n
                ),
                0,
            )
            reading.warn(
                line,
                f"JobDescription/Default{what} = {default} is outside Min{what} {low} to "
                f"Max{what} {high}; DIRAC{' 9' if dirac8 else ''}'s JobManager refuses every "
                f"job (it validates the default before a job's own {what})"
                + (", as fs does; DIRAC 8 clamped the default into the bounds" if dirac8 else ""),
            )
