"""``fs import slurm-conf``: slurm.conf knobs, nodes and partitions as pool config."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from fairshare_cli.cli.fragment import emit_fragment, fragment_options
from fairshare_cli.io.importers.common import summary_names

if TYPE_CHECKING:
    from fairshare_cli.io.importers.slurm_conf import SlurmConf


@click.command("slurm-conf")
@click.argument("file", metavar="FILE")
@fragment_options
def command(file: str, into: str | None, replace: bool, dry_run: bool, verbose: bool) -> None:
    """Read slurm.conf (- for stdin): priority knobs, nodes, partitions, cluster name.

    \b
    Example:
      fs import slurm-conf /etc/slurm/slurm.conf --into pool.toml

    Reads it as slurmctld does (Include files, DEFAULT lines, node ranges like
    n[001-100]); the Priority* knobs, FairShareDampeningFactor, the backfill bounds of
    SchedulerParameters (bf_max_job_test, bf_window, bf_resolution, bf_interval),
    AccountingStorageEnforce, EnforcePartLimits and ClusterName become [priority]
    and [pool] keys (a file setting a Priority* knob gets slurmctld's values for those it
    leaves unset), NodeName lines [[machines]], PartitionName lines [partitions] (with
    their TRESBillingWeights). Other keys are counted as ignored (-v lists them); a file
    with none of these is refused. Also reads 'scontrol show config' output (its knobs) and
    'scontrol show partition' output (its partitions; their nodes come from slurm.conf).
    """
    from fairshare_cli.io.importers.as_config import Imported
    from fairshare_cli.io.importers.slurm_conf import read_slurm_conf
    from fairshare_cli.io.importers.slurm_knobs import weight_sum_warning
    from fairshare_cli.io.spool import spooled

    # (read twice: scontrol output is told; a pipe copied as it is read: a bad first
    # line is refused before the rest is copied)
    with spooled(file, "slurm.conf text", lazy=True) as path:
        conf = read_slurm_conf(path, file, _output_compat(into))
    summary = (
        f"{file}: {len(conf.knobs)} knob{'s' if len(conf.knobs) != 1 else ''}, "
        f"{conf.nodes} node{'s' if conf.nodes != 1 else ''}, "
        f"{conf.partitions} partition{'s' if conf.partitions != 1 else ''}"
    )
    if conf.knobs:
        summary += f" ({summary_names(conf.knobs)})"
    if conf.fragment.get("priority", {}).get("type") == "basic" and not any(
        knob.lower() == "prioritytype" for knob in conf.knobs
    ):
        summary += "; PriorityType unset: priority/basic, as Slurm 22.05 reads it"
    emit_fragment(
        Imported(conf.fragment, conf.origins),
        into,
        replace,
        dry_run,
        summary,
        conf.ignored,
        verbose,
    )
    for line in conf.notes:
        click.echo(f"fs: note: {line}", err=True)
    for line in misspelt_knobs(conf.ignored):
        click.echo(f"fs: warning: {line}", err=True)
    for line in unmodelled(conf, file):
        click.echo(f"fs: warning: {line}", err=True)
    too_high = weight_sum_warning(conf.fragment.get("priority", {}).get("weights", {}), file)
    if too_high is not None:
        click.echo(f"fs: warning: {too_high}", err=True)


#: The Priority* keys of slurm.conf (read_config.c) that fs does not model.
_REAL_KEYS = ("PriorityParameters", "PrioritySiteFactorParameters", "PrioritySiteFactorPlugin")


def misspelt_knobs(ignored: list[str]) -> list[str]:
    """A warning for each ignored ``Priority*`` key that misspells a knob fs takes
    (``PriorityWieghtQOS``): no slurm.conf key, which slurmctld refuses ("Parsing error at
    unrecognized key") and then stops ("Unable to process configuration file")."""
    import difflib  # (only for the keys a file's summary names as ignored)

    from fairshare_cli.io.knob_aliases import KNOBS

    known = [name for table in ("priority", "priority.weights") for name in KNOBS[table]]
    folded = {name.lower(): name for name in (*known, *_REAL_KEYS)}
    out = []
    for key in ignored:
        if key.lower() in folded or not key.lower().startswith("priority"):
            continue
        close = difflib.get_close_matches(key.lower(), list(folded), n=1, cutoff=0.85)
        if close and folded[close[0]] in known:
            out.append(
                f'{key}: no slurm.conf key (slurmctld stops at it: "Parsing error at '
                f'unrecognized key"); did you mean {folded[close[0]]}?'
            )
    return out


def unmodelled(conf: SlurmConf, label: str) -> list[str]:
    """A warning for each ``PriorityFlags`` word slurmctld finds no flag in (and ignores,
    as fs does); for a ``PrioritySiteFactorPlugin`` (unless ``none`` is in its name,
    which slurmctld reads as none), which sets and updates each job's site factor; and for
    a file of age or fair-share weights but no ``AccountingStorageType`` of slurmdbd
    (``label``: the file), where slurmctld ignores those weights."""
    from fairshare_cli.core.slurm.factors import unknown_flags

    where = conf.origins.where.get(("priority", "flags"), "")
    priority = conf.fragment.get("priority", {})
    out = [
        f"{where}: {word}: no flag slurmctld knows; it ignores it, and so does fs"
        for word in unknown_flags(priority.get("flags", ()))
    ]
    plugin, at = conf.noted.get("prioritysitefactorplugin", ("none", ""))
    if "none" not in plugin.lower():
        out.append(
            f"{at}={plugin}: not modelled: the plugin sets and updates each job's site "
            "factor, where fs keeps the one each job gives (site_factor: fs import "
            "squeue's SiteFactor=, --site-factor-from-priority)"
        )
    storage, at = conf.noted.get("accountingstoragetype", ("", f"{label}: AccountingStorageType"))
    weights = priority.get("weights", {})
    if storage.lower() != "accounting_storage/slurmdbd" and (
        weights.get("age") or weights.get("fairshare")
    ):
        out.append(
            f"{at} is {storage or 'unset (accounting_storage/none)'}, not "
            "accounting_storage/slurmdbd: slurmctld then ignores PriorityWeightAge and "
            "PriorityWeightFairshare (can only be used with SlurmDBD), and fs weighs them"
        )
    out += untracked_note(conf, label)
    return out


def untracked_note(conf: SlurmConf, label: str) -> list[str]:
    """A warning where a slurm.conf setting knobs leaves ``AccountingStorageTRES`` unset
    but weighs a TRES other than the standard ones (``PriorityWeightTRES``, a partition's
    ``TRESBillingWeights``): slurmctld then tracks the standard ones alone and stops on
    that weight (``_tres_weight_item``: is not a configured TRES type), where the config,
    not knowing what the cluster tracks, takes it."""
    from fairshare_cli.core.slurm.billing import STANDARD_TRES, billing_weights
    from fairshare_cli.core.slurm.factors import parse_tres_weights

    priority = conf.fragment.get("priority", {})
    if not conf.knobs or "accounting_storage_tres" in priority:
        return []
    texts = [priority.get("weights", {}).get("tres")]
    names = list(parse_tres_weights(texts[0] or ""))
    for spec in conf.fragment.get("partitions", {}).values():
        names += list(billing_weights(spec.get("billing_weights") or ""))
    other = [name for name in dict.fromkeys(names) if name not in STANDARD_TRES]
    if not other:
        return []
    return [
        f"{label}: AccountingStorageTRES is unset, so slurmctld tracks "
        f"{','.join(STANDARD_TRES)} alone and stops on the weight of {','.join(other)} (is "
        f"not a configured TRES type); add {','.join(other)} to AccountingStorageTRES"
    ]


def _output_compat(into: str | None) -> str:
    """The Slurm version the config ``into`` models (its ``priority.output_compat``), which
    says what slurmctld reads for a knob the file leaves unset; ``"current"`` without
    ``--into``, or for a config that is missing or unreadable (the merge then says why)."""
    if into is None:
        return "current"
    from fairshare_cli.io.inputs import read_regular
    from fairshare_cli.io.toml import loads

    try:
        raw = loads(read_regular(into).decode("utf-8"))
    except (OSError, ValueError, RecursionError):  # (UnicodeDecodeError, TOMLDecodeError)
        return "current"
    priority = raw.get("priority")
    compat = priority.get("output_compat") if isinstance(priority, dict) else None
    return compat if isinstance(compat, str) else "current"
