"""Render a negotiation cycle and the group-quota view: Rich tables, streamed JSON, a story.

Numbers are rounded here and only here; JSON keeps full precision (docs/json.md).
"""

from __future__ import annotations

import itertools
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TextIO

from fairshare_cli.core.htcondor.negotiator import CycleResult
from fairshare_cli.core.htcondor.quotas import QuotaRow
from fairshare_cli.core.jsontext import dumps_line, dumps_ready, prepared
from fairshare_cli.render.fit import FitTable, fit_console

MAX_MATCH_ROWS = 10  # per submitter, in the table
MAX_SUBMITTER_ROWS = 50  # submitters listed in the tables
QUOTA_FIELDS = (
    "group",
    "parent",
    "static_quota",
    "dynamic_quota",
    "subtree_quota",
    "quota",
    "limit",
    "accept_surplus",
    "in_use",
    "demand",
)


def _num(value: float | None, digits: int = 2) -> str:
    if value is None:
        return ""
    if value != value or value in (float("inf"), float("-inf")):
        return str(value)
    if abs(value) >= 1e9:
        return f"{value:.4g}"
    return f"{value:.{digits}f}"


def _console(out: TextIO | None = None, wide: bool = False) -> Any:
    # As wide as the terminal (--wide: unlimited); tables fit it without cutting numbers.
    return fit_console(out or sys.stdout, wide)


def _table(title: str, columns: Sequence[tuple[str, bool]]) -> Any:
    return FitTable(title, columns)


# --------------------------------------------------------------------------- negotiate


def match_row(m: Any) -> dict[str, Any]:
    """One ``matches`` object (docs/json.md)."""
    return {
        "job_id": m.job_id,
        "submitter": m.submitter,
        "slot": m.slot,
        "reason": m.reason,
        "preempted_job": m.preempted_job,
        "charge": m.weight if m.charge is None else m.charge,
    }


def submitter_row(s: Any) -> dict[str, Any]:
    """One ``submitters`` object (docs/json.md)."""
    return {
        "name": s.name,
        "group": s.group,
        "effective_priority": s.effective_priority,
        "share": s.share,
        "limit": s.limit,
        "matched": s.matched,
    }


def write_cycle_json(result: CycleResult, out: TextIO) -> None:
    """The cycle as one JSON object, streamed (the unmatched list can be very long)."""
    out.write("{\n")
    for key, rows in (
        ("matches", (match_row(m) for m in result.matches)),
        ("submitters", (submitter_row(s) for s in result.submitters)),
    ):
        _write_list(out, key, _row_lines(rows))
        out.write(",\n")
    pieces = unmatched_text(result, '{"job_id": ', ",\n    ")
    _write_list(out, "unmatched", ([piece] for piece in pieces))
    out.write("\n}\n")


def _row_lines(rows: Iterator[dict[str, Any]]) -> Iterator[list[str]]:
    """Each row's line (:func:`dumps_line` of it), :data:`_CHUNK` rows at a time: the rows
    share their keys, so each column's values are written at once (:func:`json_texts`)
    and the lines put together from the columns' texts."""
    while chunk := list(itertools.islice(rows, _CHUNK)):
        keys = list(chunk[0])
        parts: list[Any] = []
        for k, key in enumerate(keys):
            head = "{" if k == 0 else ", "
            parts += (
                itertools.repeat(f"{head}{dumps_line(key)}: "),
                json_texts([r[key] for r in chunk]),
            )
        parts.append(itertools.repeat("}"))
        yield list(map("".join, zip(*parts, strict=False)))  # (the keys repeat endlessly)


def json_texts(values: list[Any]) -> list[str]:
    """:func:`dumps_line` of each value (text, numbers, None), written as one list: its
    ``indent=2`` text cut at the separators, which no such value's text holds; a value of
    another kind, or one ``json.dumps`` escapes and msgspec does not (non-ASCII), makes it
    a value at a time."""
    text = None
    kinds = set(map(type, values))
    if _SCALARS.issuperset(kinds):  # (floats made ready: NaN, inf, repr's digits)
        text = dumps_ready(prepared(values) if float in kinds else values)  # "[\n  v,\n  v\n]"
    texts = [] if text is None else text[4:-2].split(",\n  ")
    if len(texts) != len(values):
        texts = list(map(dumps_line, values))
    return texts


_SCALARS = frozenset((str, int, float, bool, type(None)))


def unmatched_text(result: CycleResult, head: str, between: str) -> Iterator[str]:
    """The lines of the unmatched jobs, ``dumps_line(row)`` for the row ``head`` opens with
    its ``job_id``, ``submitter`` and ``reason``, ``between`` between two lines, as pieces of
    text of up to :data:`_CHUNK` lines each (the pieces go one after another, ``between``
    between them too).

    Hot (benchmarks/run.py row negotiate-separate-json: a million unmatched jobs): the
    submitter and reason are written once per run of jobs, and the ids of a piece as one
    list whose separators are replaced by the text between two ids.
    """
    for run in result.unmatched:
        tail = f', "submitter": {dumps_line(run.submitter)}, "reason": {dumps_line(run.reason)}}}'
        for ids in run.id_chunks(_CHUNK):
            text = dumps_ready(ids)  # "[\n  id,\n  id\n]" (None: non-ASCII)
            body = "" if text is None else text[4:-2]
            if body.count(",\n  ") != len(ids) - 1 or not body:  # non-ASCII: one by one
                yield between.join(f"{head}{dumps_line(i)}{tail}" for i in ids)
            else:
                yield head + body.replace(",\n  ", tail + between + head) + tail


def _write_list(out: TextIO, key: str, lines: Iterator[list[str]]) -> None:
    """One list of the cycle's object, a row a line, written a chunk of lines at a time
    (benchmarks/run.py row negotiate-separate-json: a million unmatched jobs)."""
    out.write(f'  "{key}": [')
    first = True
    for chunk in lines:
        out.write("\n    " if first else ",\n    ")
        out.write(",\n    ".join(chunk))
        first = False
    out.write("]" if first else "\n  ]")


#: Rows of a list written at once by :func:`_write_list`.
_CHUNK = 4096


def write_cycle_lines(result: CycleResult, fmt: str, out: TextIO) -> None:
    """ndjson: one line per match, submitter and unmatched job (with a ``kind``);
    csv: the matches."""
    if fmt == "ndjson":
        for m in result.matches:
            out.write(dumps_line({"kind": "match", **match_row(m)}) + "\n")
        for s in result.submitters:
            out.write(dumps_line({"kind": "submitter", **submitter_row(s)}) + "\n")
        for piece in unmatched_text(result, '{"kind": "unmatched", "job_id": ', "\n"):
            out.write(piece + "\n")
        return
    import csv

    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["job_id", "submitter", "slot", "reason", "preempted_job", "charge"])
    for m in result.matches:
        row = match_row(m)
        writer.writerow([*(row[k] or "" for k in list(row)[:5]), repr(row["charge"])])


def render_cycle(
    result: CycleResult, committed: str | None, out: TextIO | None = None, wide: bool = False
) -> None:
    """Matches grouped per submitter, the submitter summary and the unmatched reasons.

    Long listings are cut (``--json`` has everything): at most ``MAX_SUBMITTER_ROWS``
    submitters, ``MAX_MATCH_ROWS`` matches each; unmatched jobs are counted per reason and
    submitter, or per reason alone when many submitters are involved.
    """
    console = _console(out, wide)
    matches = _matches_table(result)
    if matches is not None:
        console.print(matches)
        console.print()
    console.print(_submitters_table(result))
    firsts: dict[tuple[str, str], list[str]] = {}
    counts: dict[tuple[str, str], int] = {}
    for run in result.unmatched:
        key = (run.reason, run.submitter)
        first = firsts.setdefault(key, [])
        if len(first) < 3:
            first.extend(itertools.islice(run.iter_ids(), 3 - len(first)))
        counts[key] = counts.get(key, 0) + run.count
    if counts:
        console.print()
        console.print(_unmatched_table(counts, firsts))
    left = sum(counts.values())
    console.print()
    console.print(
        f"{len(result.matches)} matches in {result.spins} pie spin(s); pool size "
        f"{_num(result.pool_size)}; {left} idle job(s) left unmatched."
    )
    if committed:
        console.print(committed)


def _matches_table(result: CycleResult) -> Any:
    """The matches, per submitter in summary order (None when there are none)."""
    by_sub: dict[str, list[Any]] = {}
    for m in result.matches:
        by_sub.setdefault(m.submitter, []).append(m)
    if not by_sub:
        return None
    order = [s.name for s in result.submitters if s.name in by_sub]
    table = _table(
        "Matches",
        [
            ("Submitter", False),
            ("Job", False),
            ("Slot", False),
            ("Why", False),
            ("Preempts", False),
            ("Charge", True),
        ],
    )
    for sub in order[:MAX_SUBMITTER_ROWS]:
        rows = by_sub[sub]
        for i, m in enumerate(rows[:MAX_MATCH_ROWS]):
            charge = _num(match_row(m)["charge"])
            who = sub if i == 0 else ""
            table.add_row(who, m.job_id, m.slot, m.reason, m.preempted_job or "", charge)
        if len(rows) > MAX_MATCH_ROWS:
            table.add_row("", f"… {len(rows) - MAX_MATCH_ROWS} more", "", "", "", "")
    if len(order) > MAX_SUBMITTER_ROWS:
        rest = sum(len(by_sub[s]) for s in order[MAX_SUBMITTER_ROWS:])
        table.add_row(
            f"… {len(order) - MAX_SUBMITTER_ROWS} more submitters",
            f"{rest} matches",
            "",
            "",
            "",
            "",
        )
    return table


def _submitters_table(result: CycleResult) -> Any:
    """Each submitter's group, priority, share, limit and matches."""
    summary = _table(
        "Submitters",
        [
            ("Submitter", False),
            ("Group", False),
            ("Effective Priority", True),
            ("Share", True),
            ("Limit", True),
            ("Matched", True),
        ],
    )
    for s in result.submitters[:MAX_SUBMITTER_ROWS]:
        summary.add_row(
            s.name,
            s.group or "",
            _num(s.effective_priority),
            _num(s.share, 4),
            _num(s.limit),
            str(s.matched),
        )
    if len(result.submitters) > MAX_SUBMITTER_ROWS:
        summary.add_row(f"… {len(result.submitters) - MAX_SUBMITTER_ROWS} more", "", "", "", "", "")
    return summary


def _unmatched_table(
    counts: dict[tuple[str, str], int], firsts: dict[tuple[str, str], list[str]]
) -> Any:
    """Unmatched jobs per (reason, submitter), or per reason when there are many."""
    per_reason = len(counts) > MAX_SUBMITTER_ROWS
    table = _table(
        "Unmatched idle jobs",
        [
            ("Reason", False),
            ("Submitters" if per_reason else "Submitter", per_reason),
            ("Jobs", True),
            ("First", False),
        ],
    )
    if not per_reason:
        for (reason, sub), n in sorted(counts.items()):
            table.add_row(reason, sub, str(n), " ".join(firsts[(reason, sub)]))
        return table
    grouped: dict[str, list[int]] = {}
    first_ids: dict[str, list[str]] = {}
    for (reason, sub), n in sorted(counts.items()):
        entry = grouped.setdefault(reason, [0, 0])
        entry[0] += 1
        entry[1] += n
        ids = first_ids.setdefault(reason, [])
        if len(ids) < 3:
            ids.extend(firsts[(reason, sub)][: 3 - len(ids)])
    for reason, (subs, n) in sorted(grouped.items()):
        table.add_row(reason, str(subs), str(n), " ".join(first_ids[reason]))
    return table


_REASON_TEXT = {
    "no_matching_slot": "no slot satisfies the job's Requirements and the machine's START",
    "matching_slots_taken": "every slot it matches was already taken this cycle",
    "submitter_limit": "its submitter reached its pie slice (submitter limit)",
    "group_quota": "its accounting group reached its quota",
    "preemption_requirements": "PREEMPTION_REQUIREMENTS is false on the claimed slots it matches",
    "insufficient_priority": "the users of the claimed slots it matches have priorities less "
    "than 0.5 worse than its submitter's (the legacy profile's HTCondor 7.x margin)",
    "preemption_rank": "only claimed slots match and their machine RANK prefers the running job",
    "pool_exhausted": "no slot was left",
    "concurrency_limit": "a concurrency limit it needs was reached",
    "match_list_used_up": "the match list its autocluster popped was used up, its last "
    "entries refused for a concurrency limit the list's build had not refused (HTCondor "
    "25.0 says 'no match found')",
    "job_constraint": "NEGOTIATOR_JOB_CONSTRAINT is not true on it: the schedd does not offer it",
    "submitter_constraint": "NEGOTIATOR_SUBMITTER_CONSTRAINT is not true on its submitter's "
    "ad: its submitter does not negotiate",
    "ceiling": "its submitter reached its ceiling",
    "not_reached": "its submitter was not asked for more jobs this cycle",
    "depth_first": "a match of its autocluster counted it as fitting in the slot it took "
    "(NEGOTIATOR_DEPTH_FIRST): left for the schedd to start there",
}


def explain_lines(job_id: str, events: Sequence[dict[str, Any]]) -> list[str]:
    """The story of one job, one sentence per event."""
    lines = [f"Job {job_id}:"]
    for e in events:
        kind = e["event"]
        if kind == "submitter":
            group = f" in group {e['group']}" if e.get("group") else ""
            lines.append(
                f"  submitter {e['submitter']}{group}, effective priority "
                f"{_num(e['effective_priority'])}"
            )
        elif kind == "group":
            lines.append(
                f"  group {e['group']} negotiates with a limit of {e['limit']} slot(s) "
                f"(quota {_num(e['quota'])})"
            )
        elif kind == "turn":
            floor = " (floor round)" if e.get("floor_round") else ""
            lines.append(
                f"  spin {e['spin']}{floor}: share {_num(e['share'], 4)}, limit {_num(e['limit'])} "
                f"(unclaimed {_num(e['limit_unclaimed'])}), pie left {_num(e['pie_left'])}"
            )
        elif kind == "rejected":
            lines.append(
                f"  spin {e['spin']}: {e['unclaimed_matching']} unclaimed slot(s) match its "
                f"Requirements; rejected: {_REASON_TEXT.get(e['reason'], e['reason'])}"
            )
        elif kind == "matched":
            extra = f", preempting job {e['preempted_job']}" if e.get("preempted_job") else ""
            lines.append(
                f"  spin {e['spin']}: {e['unclaimed_matching']} unclaimed slot(s) match its "
                f"Requirements; matched to {e['slot']} ({e['reason']}{extra})"
            )
        elif kind == "unmatched":
            lines.append(f"  left idle: {_REASON_TEXT.get(e['reason'], e['reason'])}")
        elif kind == "slurm_beside":
            lines.append(
                f"  then started by Slurm on {e['slot']}'s node, beside the work on its "
                "slots (CPUs free there; no claim)"
            )
    return lines


@contextmanager
def progress_bar(enabled: bool, label: str = "negotiating") -> Iterator[Callable[[float], None]]:
    """A progress callback drawing a bar on stderr once the work has taken a second."""
    start = time.monotonic()
    state: dict[str, Any] = {}

    def update(fraction: float) -> None:
        if not enabled:
            return
        now = time.monotonic()
        if "bar" not in state:
            if now - start < 1.0:
                return
            from rich.console import Console
            from rich.progress import Progress

            bar = Progress(console=Console(stderr=True), transient=True)
            bar.start()
            state["bar"] = bar
            state["task"] = bar.add_task(label, total=1.0)
            state["last"] = 0.0
        if now - state["last"] > 0.1:
            state["bar"].update(state["task"], completed=min(fraction, 1.0))
            state["last"] = now

    try:
        yield update
    finally:
        if "bar" in state:
            state["bar"].stop()


# --------------------------------------------------------------------------- quota


def quota_json_rows(rows: Sequence[QuotaRow]) -> list[dict[str, Any]]:
    """The ``quota`` objects (docs/json.md)."""
    return [{f: getattr(r, f) for f in QUOTA_FIELDS} for r in rows]


def render_quota(rows: Sequence[QuotaRow], out: TextIO | None = None, wide: bool = False) -> None:
    """One row per group, like ``condor_userprio -quotas`` with the limit and use added."""
    table = _table(
        "Group quotas",
        [
            ("Group", False),
            ("Config Quota", True),
            ("Subtree Quota", True),
            ("Effective Quota", True),
            ("Limit", True),
            ("Surplus", False),
            ("In Use", True),
            ("Demand", True),
        ],
    )
    for r in rows:
        if r.static_quota is not None:
            config = _num(r.static_quota)
        elif r.dynamic_quota is not None:
            config = f"{_num(r.dynamic_quota, 4)} dyn"
        else:
            config = ""
        depth = r.group.count(".") + (0 if r.parent is None else 1)
        table.add_row(
            "  " * depth + r.group if r.parent is not None else r.group,
            config,
            _num(r.subtree_quota),
            _num(r.quota),
            str(r.limit),
            "yes" if r.accept_surplus else "no",
            _num(r.in_use, 0),
            _num(r.demand, 0),
        )
    console = _console(out, wide)
    console.print(table)
    for r in rows:
        cap = r.strict_cap
        if cap is not None and r.in_use > cap:
            console.print(
                f"{r.group} holds {_num(r.in_use, 0)}, above its quota of {_num(cap, 0)} "
                "(no surplus); HTCondor allows this too: its negotiator checks a group's "
                "usage only before each turn and pie spin, and bounds a turn's preemptions "
                "by the submitter's limit, not the group's.",
                markup=False,
                highlight=False,
            )
