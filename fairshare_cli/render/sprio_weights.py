"""``fs sprio -w`` as data: the weights sprio's "Weights" row shows."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fairshare_cli.core.slurm.priority import Weights

WEIGHT_FIELDS = ("site", "age", "assoc", "fairshare", "jobsize", "partition", "qos", "tres")


def weights_row(weights: Weights) -> Mapping[str, Any]:
    """``PriorityWeight*`` by factor (SITE's weight is 1, as sprio prints it)."""
    return {
        "site": 1,
        "age": weights.age,
        "assoc": weights.assoc,
        "fairshare": weights.fairshare,
        "jobsize": weights.jobsize,
        "partition": weights.partition,
        "qos": weights.qos,
        "tres": dict(weights.tres),
    }


def emit_weights(weights: Weights, fmt: str) -> None:
    """``sprio -w`` as json (one object), ndjson or csv (one row)."""
    from fairshare_cli.render.formats import emit_rows

    row = weights_row(weights)
    emit_rows(row if fmt == "json" else [row], WEIGHT_FIELDS, fmt)
