"""What the Slurm cluster tracks, read off ``[priority]``: the TRES it tracks
(``accounting_storage_tres``), which TRES weights may name."""

from __future__ import annotations

from collections.abc import Iterable

from fairshare_cli.core.config import PriorityWeights
from fairshare_cli.core.slurm.billing import STANDARD_TRES
from fairshare_cli.io.config.reader import Reader


def tracked_weights(r: Reader, weights: PriorityWeights) -> PriorityWeights:
    """``weights`` once ``accounting_storage_tres`` tracks the TRES of each TRES weight
    (:func:`untracked_weight`)."""
    text = r.get("accounting_storage_tres", r.string, None)
    why = untracked_weight(weights.tres, text, "priority.weights.tres")
    if why:
        r.fail(why)
    return weights


def untracked_weight(names: Iterable[str], text: str | None, key: str) -> str | None:
    """Why slurmctld would stop on a weight of ``names`` (``key``: ``PriorityWeightTRES``,
    a partition's ``TRESBillingWeights``) that ``text``, ``accounting_storage_tres``
    (``AccountingStorageTRES``: the TRES tracked besides the standard ones,
    ``"gres/gpu,gres/gpu:a100"``), leaves out; None when it tracks them all or is unset
    (fs cannot know the cluster's). ``_tres_weight_item`` finds no such TRES (``is not a
    configured TRES type``) and slurmctld stops (``fatal``, 22.05 and 26.05 alike); names
    are compared without regard to case."""
    if text is None:
        return None
    tracked = {name.strip().lower() for name in text.split(",")} | set(STANDARD_TRES)
    for name in names:
        if name not in tracked:
            kind, slash, sub = name.partition("/")
            return (
                f"{key}: TRES weight '{kind}{':' if slash else ''}{sub}' is not a configured "
                "TRES type: slurmctld stops on it (failed to parse tres weights str); add "
                f'{name} to priority.accounting_storage_tres ("{text}") as to '
                "AccountingStorageTRES, or drop its weight"
            )
    return None
