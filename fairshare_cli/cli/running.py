"""Running work that comes into the state holds slots (imports and ``fs submit``)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import click

from fairshare_cli.cli.context import Env
from fairshare_cli.core.config import Config
from fairshare_cli.core.htcondor.negotiator import Claim
from fairshare_cli.core.htcondor.placement import Placement, Running
from fairshare_cli.core.jobs import Job
from fairshare_cli.core.usage import UsageRecord


def hold_slots(env: Env, work: Sequence[Running], config: Config | None = None) -> Placement:
    """Claim a slot for each piece of running work and charge what the claims add.

    Updates ``env.state`` (``negotiator`` claims and ``accountant`` use) and warns on
    stderr, naming each piece of work that found no slot. ``config`` overrides the
    environment's (an import that brings its own machines). A config without
    ``[[machines]]`` has no slots to hold: nothing changes.

    Raises:
        StateError: a malformed state section.
    """
    from fairshare_cli.core.htcondor import accountant as acct
    from fairshare_cli.core.htcondor.claims import (
        dynamic_slot_weigher,
        negotiator_from_json,
        negotiator_to_json,
        slot_weigher,
    )
    from fairshare_cli.core.htcondor.placement import (
        charge_claims,
        place_running,
        uncharge_displaced,
        uncharge_unplaced,
    )

    config = config or env.config
    if not config.machines:  # no pool to hold slots in (an accountant- or Slurm-only config)
        return Placement({})
    negotiator = env.decode("negotiator", negotiator_from_json)
    weigh = slot_weigher(config)

    def weight_of(slot: str) -> float:
        return weigh(slot, env.now)

    dynamic = dynamic_slot_weigher(config, env.now)
    slurm = _slurm_running(env, config) if any(w.partition is not None for w in work) else []
    placement = place_running(
        work, negotiator.claims, config.machines, env.now, weight_of, dynamic, slurm
    )
    if (
        not placement.new
        and not placement.displaced
        and not any(w.charged for w in placement.unplaced)
    ):
        _warn(placement)
        return placement
    accountant = env.decode("accountant", acct.accountant_from_json)
    accountant = uncharge_unplaced(accountant, config, placement.unplaced, env.now)
    accountant = uncharge_displaced(accountant, config, placement.displaced, weight_of, env.now)
    accountant = charge_claims(accountant, config, placement.claims.values(), weight_of, env.now)
    negotiator = negotiator.with_claims(placement.claims)
    state = env.state.with_section("negotiator", negotiator_to_json(negotiator))
    env.state = state.with_section("accountant", acct.accountant_to_json(accountant))
    _warn(placement)
    return placement


def _slurm_running(env: Env, config: Config) -> list[tuple[Job, str]]:
    """The queue's running Slurm jobs, each with the partition it runs in (the CPUs
    they use on their nodes)."""
    from fairshare_cli.core.operations.node_fit import NodeFit
    from fairshare_cli.core.operations.queue import read_queue

    fit = NodeFit(config)
    queue = read_queue(env.state, str(env.state_path))
    running = ((j, fit.runs_in(j)) for j in queue if j.status == "running")
    return [(job, part) for job, part in running if part is not None]


#: How many warnings of one kind are printed before a line counts the rest.
SHOWN_WARNINGS = 10


def _warn(placement: Placement) -> None:
    """One warning per piece of work moved or left without a slot (the slots of one record
    share its label), the first :data:`SHOWN_WARNINGS` of each kind and a count of the rest."""
    moved = [
        f"{item.label}: slot {item.slot} is not {_configured(item)}; it holds {slot}"
        for item, slot in placement.moved
    ]
    _echo_some(moved, "more pieces of work name a slot that is not configured")
    pieces: dict[tuple[str, str | None, bool, str | None], int] = {}
    for item in placement.unplaced:
        key = (item.label, item.slot, item.charged > 0, item.partition)
        pieces[key] = pieces.get(key, 0) + item.slots
    unplaced = []
    for (label, named, charged, partition), count in pieces.items():
        where = f" (named {named})" if named else ""
        if count == 1:
            fits, holds = "it", f"it holds no slot{'; its use stops now' if charged else ''}"
        else:
            fits = f"{count} of its slots"
            holds = f"they hold no slot{'; their use stops now' if charged else ''}"
        if partition is None:
            unplaced.append(f"{label}: running, but no free slot fits {fits}{where}; {holds}")
        else:  # Slurm work: a node of its partition with its CPUs free
            nodes = f'no node of partition "{partition}"' if partition else "no node"
            unplaced.append(
                f"{label}: running, but {nodes} has CPUs free for {fits}{where}; {holds}"
            )
    _echo_some(unplaced, "more pieces of running work fit no free slot (as above)")


def _configured(item: Running) -> str:
    """What the slot a piece of work names is not: configured, or (Slurm work) a slot of
    its partition's nodes."""
    if item.partition:
        return f'a configured slot of partition "{item.partition}"'
    return "configured"


def _echo_some(warnings: list[str], rest: str) -> None:
    """The first :data:`SHOWN_WARNINGS` of ``warnings`` on stderr, then one line for the rest."""
    for text in warnings[:SHOWN_WARNINGS]:
        click.echo(f"fs: warning: {text}", err=True)
    if len(warnings) > SHOWN_WARNINGS:
        click.echo(f"fs: warning: {len(warnings) - SHOWN_WARNINGS} {rest}", err=True)


def release_slots(env: Env, slots: Sequence[str], config: Config | None = None) -> int:
    """Drop the claims on ``slots`` (a dump shows them unclaimed): ``RemoveMatch`` each.

    Mirrors ``Accountant::CheckMatches``, which removes the matches of resources no longer
    claimed (a claim on the slot of a match no job took is off the accountant already).
    Returns how many claims were dropped.

    Raises:
        StateError: a malformed state section.
    """
    from fairshare_cli.core.htcondor import accountant as acct
    from fairshare_cli.core.htcondor.claims import (
        claim_weight,
        negotiator_from_json,
        negotiator_to_json,
        slot_weigher,
    )

    config = config or env.config
    negotiator = env.decode("negotiator", negotiator_from_json)
    gone = [negotiator.claims[s] for s in slots if s in negotiator.claims]
    if not gone:
        return 0
    accountant = env.decode("accountant", acct.accountant_from_json)
    weigh = slot_weigher(config)
    taken = {c.slot for c in negotiator.jobless}
    for claim in (c for c in gone if c.slot not in taken):
        accountant = acct.remove_match(
            accountant, config, claim.submitter, claim_weight(claim, weigh), env.now
        )
    kept = {s: c for s, c in negotiator.claims.items() if s not in set(slots)}
    negotiator = negotiator.with_claims(kept)
    state = env.state.with_section("negotiator", negotiator_to_json(negotiator))
    env.state = state.with_section("accountant", acct.accountant_to_json(accountant))
    return len(gone)


def hold_history_running(
    env: Env, running: list[tuple[int, UsageRecord]], label: str, rebuild: bool
) -> tuple[UsageRecord, ...]:
    """Records still running hold slots (the first free ones that fit): claims.

    Their use is already charged from their start by the replay; ``--rebuild`` first
    drops the claims earlier history imports made. Returns the usage history's records
    of the pieces that found no slot, whose charge the accountant stops now
    (``uncharge_unplaced``; :func:`~.usage_log.unheld_records`).
    """
    from fairshare_cli.core.htcondor.accountant import submitter_name
    from fairshare_cli.core.htcondor.claims import (
        negotiator_from_json,
        negotiator_to_json,
    )
    from fairshare_cli.core.htcondor.placement import HISTORY_PREFIX, Running, pool_room

    if rebuild:
        neg = env.decode("negotiator", negotiator_from_json)
        kept = {s: c for s, c in neg.claims.items() if not c.job_id.startswith(HISTORY_PREFIX)}
        if len(kept) != len(neg.claims):
            neg = neg.with_claims(kept)
            env.state = env.state.with_section("negotiator", negotiator_to_json(neg))
        _charge_kept(env, kept.values())
    from fairshare_cli.core.epoch import utc_text
    from fairshare_cli.core.htcondor.replay import record_weigher
    from fairshare_cli.core.operations.usage_log import unheld_records

    domain = env.config.pool.uid_domain
    weigh = record_weigher(env.config)
    if not env.config.machines:  # no pool to hold slots in
        return ()
    room = pool_room(env.config.machines)
    work = []
    for number, rec in running:
        name = submitter_name(rec.owner, rec.accounting_group, rec.nice_user, domain)
        partition = record_partition(env.config, rec)
        held = min(rec.slots, room)  # a piece per slot, at most what the pool can hold
        for k in range(held + (rec.slots > held)):
            work.append(
                Running(
                    submitter=name,
                    job_id=f"{HISTORY_PREFIX}{name}:{rec.start:.0f}:{number}.{k}",
                    start_time=rec.start,
                    cpus=rec.cpus,
                    label=f"{label}: record {number} ({name}, running since {utc_text(rec.start)})",
                    charged=weigh(rec.cpus),
                    slots=1 if k < held else rec.slots - held,
                    partition=partition,
                )
            )
    if not work:
        return ()
    unplaced = hold_slots(env, work).unplaced
    return unheld_records([w for w in unplaced if w.charged > 0], env.now)


def _charge_kept(env: Env, claims: Iterable[Claim]) -> None:
    """The claims a ``--rebuild`` keeps (a cycle's, running work's), ``AddMatch``ed from
    ``now`` by the accountant it rebuilt, which forgot them (``CheckMatches``): they hold
    their slots on. The usage history records them so (``usage_log.reopened_claims``)."""
    from fairshare_cli.core.htcondor import accountant as acct
    from fairshare_cli.core.htcondor.claims import slot_weigher
    from fairshare_cli.core.htcondor.placement import charge_claims

    weigh = slot_weigher(env.config)
    accountant = env.decode("accountant", acct.accountant_from_json)
    accountant = charge_claims(
        accountant, env.config, claims, lambda slot: weigh(slot, env.now), env.now
    )
    env.state = env.state.with_section("accountant", acct.accountant_to_json(accountant))


def record_partition(config: Config, rec: UsageRecord) -> str | None:
    """The partition a running record of Slurm work (one naming an account or a
    partition) runs in: the first it names (sacct prints the one a started job runs in),
    else the default one (``""``: any node); None for other work (HTCondor's)."""
    from fairshare_cli.core.slurm.partition import default_partition

    if rec.partition:
        return rec.partition.split(",", 1)[0]
    if rec.account is None:
        return None
    return default_partition(config.partitions) or ""
