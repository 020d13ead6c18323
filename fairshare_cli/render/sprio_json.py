"""``fs sprio --json``: the rows' JSON text, built for msgspec (byte-identical to
``emit_rows(json_rows(rows), fields, "json")``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from fairshare_cli.core.slurm.priority import FACTOR_KEYS, PriorityRow
from fairshare_cli.render.sprio import json_rows


def json_text(rows: Sequence[PriorityRow], fields: Sequence[str]) -> str:
    """``--json`` of sprio rows: the text of ``emit_rows(json_rows(rows), fields, "json")``.

    A measured hot loop (``benchmarks/run.py --rows sprio-json``): rows are built straight
    for msgspec; a row with a float msgspec would print unlike ``repr`` goes through
    :func:`fastjson.prepared` first. (Printing each row with a ``%`` template is slower:
    ``repr`` of a float costs more than msgspec's whole row.)
    """
    from fairshare_cli.render import fastjson

    if tuple(fields) != JSON_KEYS:
        return fastjson.dumps_rows(json_rows(rows), fields)
    plain = fastjson.plain_floats
    prepared = fastjson.prepared
    checked: dict[int, tuple[Mapping[str, float], bool]] = {}  # TRES dicts are shared
    out = []
    keys = FACTOR_KEYS
    for r in rows:
        tf, tw = r.tres_f, r.tres_w
        hit = checked.get(id(tf))
        if hit is None:  # the dict stays in ``checked`` so its id is not reused
            hit = checked[id(tf)] = (tf, plain(tf.values()))
        ok = hit[1]
        hit = checked.get(id(tw))
        if hit is None:
            hit = checked[id(tw)] = (tw, plain(tw.values()))
        f, wt = r.f, r.wt
        factors: dict[str, Any] = dict(zip(keys, f, strict=True))
        factors["tres"] = tf
        weighted: dict[str, Any] = dict(zip(keys, wt, strict=True))
        weighted["tres"] = tw
        row = {
            "job_id": r.job_id, "partition": r.partition, "user": r.user,
            "account": r.account, "qos": r.qos, "priority": r.priority, "site": r.site,
            "nice": r.nice, "factors": factors, "weighted": weighted,
        }  # fmt: skip
        out.append(row if ok and hit[1] and plain((*f, *wt)) else prepared(row))
    text = fastjson.dumps_ready(out)
    return text if text is not None else fastjson.dumps_rows(json_rows(rows), fields)


JSON_KEYS = (
    "job_id", "partition", "user", "account", "qos", "priority", "site", "nice", "factors",
    "weighted",
)  # fmt: skip
