"""What the Slurm cluster tracks and knows, read off ``[priority]``: the TRES it tracks
(``accounting_storage_tres``), which TRES weights may name, and its GRES names
(``gres_types``), which a machine's ``gres/`` attributes may use."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from fairshare_cli.core.config import MachineSpec, PriorityWeights
from fairshare_cli.core.slurm.billing import STANDARD_TRES
from fairshare_cli.core.slurm.gres_types import parse_gres_types, unlisted
from fairshare_cli.io.config.reader import Reader


def tracked_weights(r: Reader, weights: PriorityWeights) -> PriorityWeights:
    """``weights`` once ``accounting_storage_tres`` tracks the TRES of each TRES weight
    (:func:`untracked_weight`)."""
    text = r.get("accounting_storage_tres", r.string, None)
    compat = r.table.get("output_compat", "current")
    why = untracked_weight(weights.tres, text, "priority.weights.tres", compat)
    if why:
        r.fail(why)
    return weights


def untracked_weight(
    names: Iterable[str], text: str | None, key: str, compat: object = "current"
) -> str | None:
    """Why slurmctld would stop on a weight of ``names`` (``key``: ``PriorityWeightTRES``,
    a partition's ``TRESBillingWeights``) that ``text``, ``accounting_storage_tres``
    (``AccountingStorageTRES``: the TRES tracked besides the standard ones,
    ``"gres/gpu,gres/gpu:a100"``), leaves out; None when it tracks them all or is unset
    (fs cannot know the cluster's). ``_tres_weight_item`` finds no such TRES (``is not a
    configured TRES type``) and slurmctld stops (``fatal``, 22.05 and 26.05 alike); names
    are compared without regard to case. From Slurm 23.11 on (``compat`` not "22.05")
    tracking ``gres/gpu`` tracks ``gres/gpumem`` and ``gres/gpuutil`` too (``read_config.c``
    adds them)."""
    if text is None:
        return None
    tracked = {name.strip().lower() for name in text.split(",")} | set(STANDARD_TRES)
    if "gres/gpu" in tracked and compat != "22.05":
        tracked |= {"gres/gpumem", "gres/gpuutil"}
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


def gres_types(r: Reader) -> tuple[str, ...] | None:
    """``gres_types`` (``GresTypes``: ``"gpu,mps"``) as slurmctld reads it
    (:func:`~fairshare_cli.core.slurm.gres_types.parse_gres_types`); None: unset, every
    GRES name taken (fs cannot know the cluster's).

    Raises:
        ConfigError: what slurmctld stops on, naming the key.
    """
    text = r.get("gres_types", r.string, None)
    if text is None:
        return None
    try:
        return parse_gres_types(text)
    except ValueError as exc:
        r.fail(f'priority.gres_types ("{text}"): {exc}')
        raise  # (not reached: fail raises)


def check_machine_gres(r: Reader, machines: Sequence[MachineSpec]) -> None:
    """A machine's ``gres/NAME[:TYPE]`` attribute names a GRES of ``gres_types`` (``r``:
    the ``[priority]`` reader), in its case: slurmctld drops any other ``Gres=`` token of
    a node (``gres_name_filter``: "Invalid GRES configured on node"), so the node counts
    none of it; refused here rather than counted. Unset, not checked.

    Raises:
        ConfigError: naming the machine, the attribute and the names.
    """
    names = gres_types(r)
    if names is None:
        return
    for i, machine in enumerate(machines):
        keys = [key for key in machine.attributes if key[:5].lower() == "gres/"]
        for key in unlisted(keys, names):
            r.fail(
                f'machines[{i}] ({machine.name}).attributes: "{key}" names a GRES '
                f'priority.gres_types ("{",".join(names)}") does not list, in its case: '
                "slurmctld drops it from the node (Invalid GRES configured on node); "
                "list it in gres_types (GresTypes) or drop the attribute"
            )
