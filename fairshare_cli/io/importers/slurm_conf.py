"""``fs import slurm-conf``: slurm.conf (and its ``include`` files), or ``scontrol show
config`` or ``scontrol show partition`` output, as a config fragment.

Read as Slurm's ``parse_config.c`` reads it: everything after an unescaped ``#`` is a
comment, a line ending in an odd number of backslashes continues on the next, ``\\#`` is a
literal ``#``; keys are case-insensitive ``Key=Value`` pairs (a value may be quoted);
``Include FILE`` reads FILE (relative to the including file's folder, ``%c`` = the cluster
name) in place. ``NodeName=DEFAULT`` and ``PartitionName=DEFAULT`` lines set defaults for
the lines after them.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from itertools import chain
from typing import Any

from fairshare_cli.core.names import check_name, shown
from fairshare_cli.core.slurm.gres_types import parse_gres_types
from fairshare_cli.core.timestr import STORED_INFINITE_MAX_AGE, TimeStringError, time_str2secs
from fairshare_cli.errors import InputError
from fairshare_cli.io.importers.as_config import Origins
from fairshare_cli.io.importers.common import given_twice, is_prompt, text_lines
from fairshare_cli.io.importers.gres import node_gres
from fairshare_cli.io.importers.hostlist import HostlistError, compress_machines, expand_hostlist
from fairshare_cli.io.importers.slurm_conf_head import Head, told
from fairshare_cli.io.importers.slurm_knobs import (
    BACKFILL_OPTIONS,
    KNOBS,
    convert,
    knl_hbm,
    scheduler_parameters,
    shared_gres_select,
    unset_as_slurm_reads,
)
from fairshare_cli.io.importers.slurm_partitions import Defaults, partition_line, whole

#: ``Key=Value`` as ``_keyvalue_regex`` matches it (a quoted value, or up to whitespace).
_PAIR = re.compile(r'\s*([\w.]+)\s*=\s*(?:"([^"]*)"|(\S+))')


@dataclass
class SlurmConf:
    """What came out of slurm.conf: the fragment, where its values were set, and what it
    left out."""

    origins: Origins
    fragment: dict[str, Any] = field(default_factory=dict)
    knobs: list[str] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)
    #: what slurmctld reads otherwise than the file writes it (one line each)
    notes: list[str] = field(default_factory=list)
    nodes: int = 0
    partitions: int = 0
    #: keys not modelled but read for a check or a warning (:data:`NOTED`), by lower-case
    #: name: their value and ``FILE:LINE: KEY``
    noted: dict[str, tuple[str, str]] = field(default_factory=dict)

    @property
    def node_features(self) -> tuple[str, str] | None:
        """``NodeFeaturesPlugins`` and its ``FILE:LINE: KEY`` (for ``GresTypes``' hbm)."""
        return self.noted.get("nodefeaturesplugins")


#: The keys fs reads without modelling: ``SelectType`` and ``NodeFeaturesPlugins`` for
#: ``GresTypes``' sake, the others for a warning (cli/imports/slurm_conf.py).
NOTED = (
    "selecttype", "nodefeaturesplugins", "prioritysitefactorplugin", "accountingstoragetype",
)  # fmt: skip


@dataclass
class _Node:
    name: str
    cpus: int
    memory: int
    #: Its ``NodeName`` line (``FILE:LINE``) and the lines that gave ``cpus`` and
    #: ``memory`` (``FILE:LINE: KEY``: a DEFAULT line's, where that set them).
    line: str
    cpus_where: str
    memory_where: str
    partitions: list[str] = field(default_factory=list)
    #: its ``Gres=`` as written and the line that gave it, then as ``gres/NAME[:TYPE]``
    #: counts (:func:`listed_gres`)
    gres_text: str = ""
    gres_where: str = ""
    gres: tuple[tuple[str, int], ...] = ()


def logical_lines(
    path: str, label: str, lines: Iterable[tuple[int, str]] | None = None
) -> Iterator[tuple[str, int, str]]:
    """``(file, first line number, text)`` of each logical line, includes read in place;
    ``lines``: the file's lines, where a reading of them is under way.

    Raises:
        InputError: unreadable, binary, or an include that cannot be read.
    """
    yield from _logical(path, label, depth=0, cluster=[None], lines=lines)


def _logical(
    path: str,
    label: str,
    depth: int,
    cluster: list[str | None],
    lines: Iterable[tuple[int, str]] | None = None,
) -> Iterator[tuple[str, int, str]]:
    pending = ""
    start = 0
    for number, raw in text_lines(path, label, "slurm.conf text") if lines is None else lines:
        if not pending:
            if not raw.strip():  # (a blank line ending no continued line: nothing)
                continue
            start = number
        text = _strip_comment(raw)
        stripped = text.rstrip()
        backslashes = len(stripped) - len(stripped.rstrip("\\"))
        if backslashes % 2 == 1:
            pending += stripped[:-1]
            continue
        line = (pending + text).replace("\\\\", "\0").replace("\\", "").replace("\0", "\\")
        pending = ""
        if not line.strip():
            continue
        head = line.split(None, 1)
        if head[0].lower() == "include" and len(head) == 2 and "=" not in head[0]:
            yield from _include(path, label, start, head[1].split()[0], depth, cluster)
            continue
        m = re.match(r"\s*clustername\s*=\s*(\S+)", line, re.IGNORECASE)
        if m:
            cluster[0] = m.group(1).strip('"').lower()
        yield label, start, line
    if pending.strip():
        yield label, start, pending


def _strip_comment(line: str) -> str:
    """Everything before the first ``#`` preceded by an even number of backslashes."""
    count = 0
    for i, ch in enumerate(line):
        if ch == "#" and count % 2 == 0:
            return line[:i]
        count = count + 1 if ch == "\\" else 0
    return line


def _include(
    path: str, label: str, number: int, name: str, depth: int, cluster: list[str | None]
) -> Iterator[tuple[str, int, str]]:
    if depth > 20:
        raise InputError(f"{label}:{number}: includes nested too deeply (a loop?)")
    if "%c" in name:
        if cluster[0] is None:
            raise InputError(f"{label}:{number}: include {name} needs ClusterName set before it")
        name = name.replace("%c", cluster[0])
    if not os.path.isabs(name):
        # (the label: the name given, where a spooled copy of stdin or a pipe is read)
        base = os.path.dirname(label) if label != "-" else os.getcwd()
        name = os.path.join(base, name)
    if not os.path.isfile(name):
        what = "is not a file" if os.path.exists(name) else "does not exist"  # (/dev/zero)
        raise InputError(f"{label}:{number}: included file {shown(name)} {what}")
    yield from _logical(name, name, depth + 1, cluster)


def pairs(line: str, where: str) -> list[tuple[str, str]]:
    """The ``Key=Value`` pairs of a logical line, in order.

    Raises:
        InputError: text that is not ``Key=Value``.
    """
    out: list[tuple[str, str]] = []
    pos = 0
    while pos < len(line):
        if not line[pos:].strip():
            break
        m = _PAIR.match(line, pos)
        if m is None:
            bad = line[pos:].strip().split()[0]
            raise InputError(f'{where}: expected Key=Value (a slurm.conf line), got "{bad}"')
        value = m.group(2) if m.group(2) is not None else m.group(3)
        out.append((m.group(1), value))
        pos = m.end()
    return out


def read_slurm_conf(path: str, label: str | None = None, compat: str = "current") -> SlurmConf:
    """The config fragment of a slurm.conf file (``-`` is stdin), as the Slurm version
    ``compat`` (``priority.output_compat``) reads what it leaves unset.

    Raises:
        InputError: a malformed line or value, naming ``FILE:LINE``.
    """
    label = label or path
    out = SlurmConf(Origins(label))
    head = Head(text_lines(path, label, "slurm.conf text"))
    kind = "conf" if path == "-" else told(head)  # (stdin is read once)
    if kind != "conf":
        head.read = iter(())  # (that reading closed: the output is read as such)
        if kind == "config":
            return _show_config(path, label, out, compat)
        return _show_partition(path, label, out)
    nodes: dict[str, _Node] = {}
    node_default, part_default = Defaults(), Defaults()
    partitions: dict[str, dict[str, Any]] = {}
    part_nodes: dict[str, tuple[str, list[str]]] = {}
    for file, number, line in logical_lines(path, label, chain(head.kept, head.read)):
        where = f"{file}:{number}"
        kv = pairs(line, where)
        key = kv[0][0].lower()
        if key == "nodename":
            _node_line(kv, where, nodes, node_default)
        elif key == "partitionname":
            partition_line(kv, where, partitions, part_nodes, part_default, out.origins, out.notes)
        else:
            for k, v in kv:
                _knob(out, k, v, where)
    _attach_partitions(nodes, part_nodes)
    knl_hbm(out.fragment, out.origins, out.notes, out.node_features, compat)
    _node_gres(nodes, out.fragment.get("priority", {}).get("gres_types"), out.notes)
    unset_as_slurm_reads(out.fragment, out.knobs, compat)
    _shared_gres(out, compat)
    if nodes:
        out.fragment["machines"] = compress_machines(
            [(n.name, n.cpus, n.memory, tuple(n.partitions), n.gres) for n in nodes.values()]
        )
        _machine_origins(out, list(nodes.values()))
    if partitions:
        out.fragment["partitions"] = partitions
    out.nodes = len(nodes)
    out.partitions = len(partitions)
    if not (out.knobs or nodes or partitions):
        found = (
            f"none of its {len(out.ignored)} keys is a Priority* knob, ClusterName, NodeName "
            "or PartitionName"
            if out.ignored
            else "no Key=Value lines"
        )
        raise InputError(f"{label}: {found}; expected a slurm.conf")
    return out


def _show_partition(path: str, label: str, out: SlurmConf) -> SlurmConf:
    """``scontrol show partition``: a ``PartitionName=`` line and indented lines of its
    fields, read as one slurm.conf partition line; ``Nodes=`` is left out (it names nodes
    this output does not describe: slurm.conf's ``NodeName`` lines do).

    Raises:
        InputError: a line outside a partition, or a bad value, naming ``FILE:LINE``.
    """
    blocks: list[tuple[str, list[tuple[str, str]], set[str]]] = []
    for number, line in text_lines(path, label, "scontrol show partition output", whole=True):
        if not line.strip() or is_prompt(line):
            continue
        if line[:1].isspace() and blocks:
            where, kv, seen = blocks[-1]
        elif line.startswith("PartitionName="):
            blocks.append((where := f"{label}:{number}", kv := [], seen := set()))
        else:
            raise InputError(f"{label}:{number}: expected PartitionName= or its indented fields")
        for key, value in pairs(line, where):  # (each once: src/api/partition_info.c)
            if key.lower() in seen:
                raise given_twice(f"{label}:{number}", key, f"partition {kv[0][1]}")
            seen.add(key.lower())
            kv.append((key, value))
    partitions: dict[str, dict[str, Any]] = {}
    for where, kv, _ in blocks:
        kv = [(k, v) for k, v in kv if k.lower() != "nodes"]
        partition_line(kv, where, partitions, {}, Defaults(), out.origins, out.notes)
    if not partitions:
        raise InputError(f"{label}: no PartitionName; expected 'scontrol show partition'")
    out.fragment["partitions"] = partitions
    out.partitions = len(partitions)
    return out


def _show_config(path: str, label: str, out: SlurmConf, compat: str) -> SlurmConf:
    """``scontrol show config``: ``Key = Value`` lines (``src/api/config_info.c``, the
    value is the rest of the line; ``(null)`` is unset); other lines (headers, daemon
    status) are not settings.

    Raises:
        InputError: a bad value of a knob we read, naming ``FILE:LINE``; no knob at all.
    """
    for number, line in text_lines(path, label, "scontrol show config output", whole=True):
        key, sep, value = line.partition("=")
        key, value = key.strip(), value.strip()
        if not sep or not re.fullmatch(r"\w+", key) or is_prompt(line) or value == "(null)":
            continue
        if key.lower() in ("prioritymaxage", "prioritydecayhalflife"):
            value = shown_minutes(value)
        _knob(out, key, value, f"{label}:{number}")
    knl_hbm(out.fragment, out.origins, out.notes, out.node_features, compat)
    unset_as_slurm_reads(out.fragment, out.knobs, compat)
    _shared_gres(out, compat)
    if not out.knobs:
        raise InputError(
            f"{label}: no Priority* knob nor ClusterName; expected the output of "
            "'scontrol show config'"
        )
    return out


def shown_minutes(value: str) -> str:
    """``PriorityMaxAge`` or ``PriorityDecayHalfLife`` as ``scontrol show config`` prints
    it, as slurm.conf would say it: the stored INFINITE, which ``secs2time_str`` prints as
    its seconds
    (``49710-06:27:16``), is ``INFINITE``; any other is below 2^31 seconds and reads back
    as printed."""
    try:
        infinite = time_str2secs(value) == STORED_INFINITE_MAX_AGE
    except TimeStringError:
        return value  # (the knob's reader words the error)
    return "INFINITE" if infinite else value


def _set(fragment: dict[str, Any], path: tuple[str, ...], value: Any) -> None:
    table = fragment
    for part in path[:-1]:
        table = table.setdefault(part, {})
    table[path[-1]] = value


def _knob(out: SlurmConf, key: str, value: str, where: str) -> None:
    """A knob given again takes its last value, as slurmctld reads it ("specified more
    than once, latest value used", ``_handle_common``), and is named once."""
    if key.lower() == "schedulerparameters":
        options = scheduler_parameters(key, value, where)
        _forget(out, key)  # (the last line's string, whole: an option it drops is unset)
        for option, number in options.items():
            _set(out.fragment, ("priority", option), number)
            out.origins.add(("priority", option), f"{where}: {key}: {option}")
        (out.knobs if options else out.ignored).append(key)
        return
    spec = KNOBS.get(key.lower())
    if spec is None:
        if key.lower() in NOTED:
            out.noted[key.lower()] = (value, f"{where}: {key}")
        out.ignored.append(key)
        return
    path, kind = spec
    converted = convert(kind, key, value, where)
    _set(out.fragment, path, converted)
    out.origins.add(path, f"{where}: {key}")
    _forget(out, key, values=False)
    out.knobs.append(key)


def _forget(out: SlurmConf, key: str, *, values: bool = True) -> None:
    """Drop ``key`` from the knobs read so far and, with ``values``, the backfill options
    an earlier ``SchedulerParameters`` line set."""
    out.knobs[:] = [k for k in out.knobs if k.lower() != key.lower()]
    if values:
        out.ignored[:] = [k for k in out.ignored if k.lower() != key.lower()]
    priority = out.fragment.get("priority", {})
    for option in BACKFILL_OPTIONS if values else ():
        if priority.pop(option, None) is not None:
            out.origins.where.pop(("priority", option), None)
    if key.lower() == "priorityflags" or (key.lower() == "prioritytype"):
        # slurm.conf has Fair Tree by default since 19.05; NO_FAIR_TREE picks classic.
        _set(out.fragment, ("priority", "fairshare"), "fair_tree")


def _node_line(
    kv: list[tuple[str, str]], where: str, nodes: dict[str, _Node], default: Defaults
) -> None:
    names = kv[0][1]
    attrs = {k.lower(): v for k, v in kv[1:]}
    if names.upper() == "DEFAULT":
        default.set(attrs, where)
        return
    merged = {**default, **attrs}
    cpus = _cpus(merged, where)
    memory = whole(merged.get("realmemory", "1"), "RealMemory", where)
    used = ("cpus",) if "cpus" in merged else ("procs",) if "procs" in merged else _CPU_KEYS
    cpus_where = f"{default.where(attrs, used, where)}: CPUs"
    memory_where = f"{default.where(attrs, ('realmemory',), where)}: RealMemory"
    gres_where = default.where(attrs, ("gres",), where)
    try:
        hosts = expand_hostlist(names)
    except HostlistError as exc:
        raise InputError(f"{where}: NodeName: {exc}") from None
    for host in hosts:
        name = check_name(host, f"{where}: NodeName")
        if host in nodes:  # (read_config.c, _push_to_hashtbls: fatal)
            raise InputError(
                f"{where}: NodeName: {host} has a NodeName line already ({nodes[host].line}); "
                f"slurmctld stops on it (Duplicated NodeName {host} in the config file)"
            )
        nodes[host] = _Node(name, cpus, memory, where, cpus_where, memory_where)
        nodes[host].gres_text, nodes[host].gres_where = merged.get("gres", ""), gres_where


def _shared_gres(out: SlurmConf, compat: str) -> None:
    """A GPU-sharing GRES needs ``select/cons_tres`` (:func:`shared_gres_select`)."""
    types = out.fragment.get("priority", {}).get("gres_types")
    where = out.origins.where.get(("priority", "gres_types"), out.origins.label)
    select = out.noted.get("selecttype", (None, ""))[0]
    shared_gres_select((types, where) if types is not None else None, select, compat)


def _node_gres(nodes: dict[str, _Node], types: str | None, notes: list[str]) -> None:
    """Each node's GRES counts: its ``Gres=`` tokens of a ``GresTypes`` name
    (:func:`listed_gres`, once a line)."""
    done: dict[tuple[str, str], tuple[tuple[str, int], ...]] = {}
    names = parse_gres_types(types) if types is not None else ()
    for node in nodes.values():
        key = (node.gres_text, node.gres_where)
        if key not in done:
            done[key] = listed_gres(*key, names, types, notes)
        node.gres = done[key]


def listed_gres(
    text: str, where: str, names: tuple[str, ...], types: str | None, notes: list[str]
) -> tuple[tuple[str, int], ...]:
    """A node's ``Gres=`` (``text``, from the line ``where``) as :func:`node_gres` counts
    it, but the tokens whose name (before the first ``:``) ``names`` (``GresTypes``, as
    ``types`` writes it; None: unset) does not list in its case: slurmctld drops these
    (``gres_name_filter``, 22.05 and 26.05 alike: "Invalid GRES configured on node"; with
    no ``GresTypes``, every token, without a word), and so does the import, saying so in
    ``notes``."""
    tokens = [t for t in text.split(",") if t and t.lower() not in ("(null)", "none")]
    kept = [t for t in tokens if t.split(":", 1)[0] in names]
    dropped = [t for t in tokens if t.split(":", 1)[0] not in names]
    if dropped:
        unknown = dict.fromkeys(t.split(":", 1)[0] for t in dropped)
        why = (
            f"GresTypes={types} does not list {', '.join(unknown)} "
            "(GRES names are compared in case)"
            if types is not None
            else "GresTypes is unset, so slurmctld knows no GRES"
        )
        notes.append(
            f"{where}: Gres: {','.join(dropped)}: {why}; left out, as slurmctld drops it "
            + ("(Invalid GRES configured on node)" if types is not None else "(add GresTypes)")
        )
    return tuple(node_gres(",".join(kept), where).items())


#: The keys whose product is a node's CPUs when it sets neither ``CPUs`` nor ``Procs``.
_CPU_KEYS = ("boards", "sockets", "socketsperboard", "corespersocket", "threadspercore")


def _machine_origins(out: SlurmConf, nodes: list[_Node]) -> None:
    """Where each ``[[machines]]`` entry's values were set: its first node's lines (the
    entry of a run of nodes stands for all, equal as they are)."""
    first = 0
    for k, entry in enumerate(out.fragment["machines"]):
        node = nodes[first]
        out.origins.add(("machines", k), f"{node.line}: NodeName")
        out.origins.add(("machines", k, "attributes", "Cpus"), node.cpus_where)
        out.origins.add(("machines", k, "attributes", "Memory"), node.memory_where)
        first += entry.get("count", len(entry.get("hosts", ())))


def _cpus(attrs: Mapping[str, str], where: str) -> int:
    """``CPUs``, else boards × sockets × cores × threads (each defaulting to 1)."""
    if "cpus" in attrs:
        return whole(attrs["cpus"], "CPUs", where)
    if "procs" in attrs:
        return whole(attrs["procs"], "Procs", where)
    total = 1
    sockets = attrs.get("sockets") or attrs.get("socketsperboard")
    for key, value in (
        ("Boards", attrs.get("boards")),
        ("Sockets", sockets),
        ("CoresPerSocket", attrs.get("corespersocket")),
        ("ThreadsPerCore", attrs.get("threadspercore")),
    ):
        if value is not None:
            total *= whole(value, key, where)
    return total


def _attach_partitions(
    nodes: dict[str, _Node], part_nodes: dict[str, tuple[str, list[str]]]
) -> None:
    for name, (where, hosts) in part_nodes.items():
        members = list(nodes) if hosts == ["ALL"] else hosts
        for host in members:
            node = nodes.get(host)
            if node is None:
                raise InputError(f'{where}: partition "{name}": node "{host}" has no NodeName line')
            node.partitions.append(name)
