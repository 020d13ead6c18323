"""A plain reference for sprio's rows and lines, one job and one cell at a time, against
which the tests hold ``compute_table`` and the listing and ``--json`` writers.

:func:`reference_rows` is Slurm's multifactor sum for each job in each of its partitions
and each of its QOS (``priority_multifactor.c``, as sprio re-adds it: age, assoc, fair
share, job size, partition, QOS, site, -nice, then each non-zero TRES term; at least 1),
through the same
factor caches (:class:`FactorMaker`); :func:`reference_lines` prints each row's cells as
``src/sprio/print.c`` does (``%Ns`` right-justified then cut to N, ``%.Ns`` left).
"""

# ruff: noqa: UP031  (printf formats mirror the C code on purpose)
from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from fairshare_cli.core.names import job_sort_key
from fairshare_cli.core.slurm.factors import job_user
from fairshare_cli.core.slurm.priority import FACTOR_KEYS, FactorMaker, PriorityContext, PriorityRow
from fairshare_cli.core.slurm.sizer import Sizes
from fairshare_cli.render.formats import jsonable
from fairshare_cli.render.sprio import FACTOR_LETTERS, SprioFormat, _cell

#: Index of each factor letter in ``PriorityRow.f`` / ``PriorityRow.wt``.
FACTOR_INDEX = {"A": 0, "B": 1, "F": 2, "J": 3, "P": 4, "Q": 5}


def reference_rows(
    jobs: Iterable[Any],
    ctx: PriorityContext,
    now: float,
    listed_at: float | None = None,
    listing: bool = True,
) -> list[PriorityRow]:
    """The rows of the listed jobs in their order (see the module docstring); ``listing``:
    sprio's (a TRES a row's partition counts none of keeps the job's weighted factor,
    weighed again), else the controller's."""
    horizon = now if listed_at is None else listed_at
    maker = FactorMaker(ctx, now)
    maker.kept_tres = listing
    running = "CALCULATE_RUNNING" in ctx.flags
    rows: list[PriorityRow] = []
    for job in jobs:
        if job.status != "idle" and not (running and job.status == "running"):
            continue
        if job.submit_time is not None and job.submit_time > horizon:
            continue
        if job.admin_priority == 0:  # held ("0 means the job is held")
            continue
        user = job_user(job.owner)
        assoc = maker.association(job, user)
        if assoc is None:
            continue
        pinfos = maker.partitions(job)
        qos_list = maker.qos_values(job)  # one a QOS the job names, in sprio's order
        account, f_assoc, f_fs, b_w, c_w = maker.assoc_values(assoc, user)
        size = maker.size_values(job, pinfos)  # (a Sizes: rows as slurmctld left the job)
        variants = size.variants if isinstance(size, Sizes) else {"": size}
        f_js, d_w, parts = next(iter(variants.values()))
        jid = job.id
        if job.admin_priority is not None:
            zero = (0.0,) * 6
            rows.extend(
                PriorityRow(jid, part[0], user, account, qos[0], job.admin_priority, 0, 0, zero,
                            zero, {}, {}, True, float(job.admin_priority), job_sort_key(jid))
                for part in parts for qos in qos_list
            )  # fmt: skip
            continue
        f_age = 0.0
        accrue = job.accrue_time if job.accrue_time is not None else job.submit_time
        if maker.weights[0] and accrue is not None:
            diff = int(now - accrue) if accrue < now else 0
            max_age = maker.max_age
            f_age = 1.0 if max_age <= 0 or diff >= max_age else diff / max_age
        a_w = f_age * maker.weights[0]
        if isinstance(size, Sizes):
            qos_w = [qos[2] for qos in qos_list]
            f_js, d_w, parts = variants[
                size.pick(a_w + b_w + c_w, qos_w, job.site_factor, job.nice)
            ]
        for (name, f_part, e_w, tres_f, tres_w, terms), (qname, f_qos, g_w) in (
            (part, qos) for part in parts for qos in qos_list
        ):
            p = a_w + b_w + c_w + d_w + e_w + g_w + job.site_factor - job.nice
            for value in terms:
                p += value
            p = max(p, 1.0)
            rows.append(
                PriorityRow(jid, name, user, account, qname, int(p), job.site_factor, job.nice,
                            (f_age, f_assoc, f_fs, f_js, f_part, f_qos),
                            (a_w, b_w, c_w, d_w, e_w, g_w), tres_f, tres_w, False, p,
                            job_sort_key(jid))
            )  # fmt: skip
    return rows


def _text(letter: str, r: PriorityRow, weights: Any, cluster: str) -> str:
    """The text of one cell of a row."""
    if letter in FACTOR_INDEX:
        return "%.0f" % r.wt[FACTOR_INDEX[letter]]
    upper = letter.upper()
    if upper in FACTOR_INDEX:
        if r.admin:  # print.c's _print_*_priority_normalized: _print_int(0)
            return "0"
        w = weights.get(FACTOR_LETTERS[upper])
        return "%.7f" % (r.wt[FACTOR_INDEX[upper]] / float(w) if w else 0.0)
    if letter == "T":
        return ",".join(f"{k}={v:.0f}" for k, v in r.tres_w.items() if v)
    if letter == "t":
        return ",".join(
            f"{k}={'%.2f' % (v / weights.tres[k] if weights.tres.get(k) else 0.0)}"
            for k, v in r.tres_w.items()
            if v
        )
    fraction = r.priority_value if r.admin else r.priority_value / 4294967295.0
    return {
        "i": r.job_id, "s": "", "r": r.partition, "u": r.user, "o": r.account, "n": r.qos,
        "c": cluster, "Y": "%d" % r.priority, "y": "%16.14f" % fraction,
        "S": "%.0f" % r.site, "N": "%.0f" % r.nice,
    }[letter]  # fmt: skip


def reference_lines(fmt: SprioFormat, rows: list[PriorityRow], weights: Any, cluster: str) -> str:
    """The job lines of ``rows`` in ``fmt``, each ending in a newline."""
    return "".join(
        fmt.prefix
        + "".join(
            _cell(_text(f.letter, r, weights, cluster), f.width, f.right) + f.suffix
            for f in fmt.fields
        )
        + "\n"
        for r in rows
    )


def reference_json(rows: list[PriorityRow]) -> str:
    """``--json`` of the rows: ``json.dumps`` of their plain values, indented by 2."""
    return json.dumps(
        [
            {
                "job_id": r.job_id, "partition": r.partition, "user": r.user,
                "account": r.account, "qos": r.qos, "priority": r.priority, "site": r.site,
                "nice": r.nice,
                "factors": jsonable({**dict(zip(FACTOR_KEYS, r.f, strict=True)),
                                     "tres": dict(r.tres_f)}),
                "weighted": jsonable({**dict(zip(FACTOR_KEYS, r.wt, strict=True)),
                                      "tres": dict(r.tres_w)}),
            }
            for r in rows
        ],
        indent=2,
    )  # fmt: skip
