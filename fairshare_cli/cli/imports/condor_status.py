"""``fs import condor-status``: slots as ``[[machines]]``, claimed slots as claims."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

import click

from fairshare_cli.cli.fragment import emit_fragment, fragment_options, merged_last
from fairshare_cli.cli.options import GlobalOptions, common_options, pass_options

if TYPE_CHECKING:
    from fairshare_cli.cli.context import Env
    from fairshare_cli.core.htcondor.placement import Running
    from fairshare_cli.io.importers.condor_status import SlotAd, StatusDump


@click.command("condor-status")
@click.argument("file", metavar="FILE")
@fragment_options
@common_options
@pass_options
def command(
    opts: GlobalOptions,
    file: str,
    into: str | None,
    replace: bool,
    dry_run: bool,
    verbose: bool,
) -> None:
    """Read condor_status -json or -long output (- for stdin): machines and claims.

    \b
    Examples:
      condor_status -json > slots.json
      fs import condor-status slots.json --into pool.toml --now 2026-11-23T18:25:33Z

    The slots become [[machines]] entries (their literal attributes kept for ClassAd
    evaluation; Start and Rank as start and rank), printed as TOML or merged with --into.
    Claimed slots become claims in the state (held by AccountingGroup, else RemoteUser,
    for JobId), charged to the accountant beyond the use it already records; claims on
    slots the dump shows unclaimed are released.
    Partitionable slots become partitionable = true machines (their totals as
    attributes) and their claimed dynamic slots claims on slotK_N@machine that carry
    the resources carved out of them.
    """
    from fairshare_cli.cli.context import mutate_state
    from fairshare_cli.cli.running import hold_slots, release_slots
    from fairshare_cli.io.config import build_config
    from fairshare_cli.io.importers.as_config import Imported, check_fragment
    from fairshare_cli.io.importers.classad_dumps import open_dump
    from fairshare_cli.io.importers.condor_status import (
        machine_origins,
        machines_fragment,
        read_status,
    )
    from fairshare_cli.io.toml_merge import new_config

    with open_dump(file) as fh:
        dump = read_status(fh, file)
    machines, names, notes = machines_fragment(dump)
    fragment = {"machines": machines}
    origins = machine_origins(dump, machines, file)
    check_fragment(fragment, origins)  # (before the claims are placed on its machines)
    claimed = [s for s in dump.slots if s.holder and s.name in names]
    summary = _summary(file, dump, len(machines), len(claimed))
    ignored = [f"{a} (expression)" for a in sorted(dump.ignored)] + notes
    # The claims go into the state of --config (or of --into, as the merge makes it when
    # new), placed on the imported machines.
    from msgspec import structs

    where = dataclasses.replace(opts, config_path=opts.config_path or into)
    created = new_config(fragment) if into and where.config_path == into else None
    with merged_last(into, dry_run) as held, mutate_state(where, dry_run, created=created) as env:
        config = structs.replace(env.config, machines=build_config(fragment, file).machines)
        env.config = config  # (the usage history keeps each claim's CPUs from these slots)
        _refuse_later_claims(file, claimed, env.now)
        work = _running(claimed, names, file, env.now)
        free = [names[s.name] for s in dump.slots if not s.holder and s.name in names]
        free += stale_dynamic_claims(env, names, claimed)
        released = release_slots(env, free, config)
        placement = hold_slots(env, work, config)
        # Merged before the state is written: a merge that fails leaves no claim on slots
        # the config lacks (charged for ever); a state write that fails, the config put back.
        emit_fragment(
            Imported(fragment, origins), into, replace, dry_run, summary, ignored, verbose, held
        )
    click.echo(
        f"{'(dry run, nothing written) ' if dry_run else ''}{len(placement.new)} claim(s) "
        f"into {env.state_path}"
        + (f", {released} released (slots now unclaimed)" if released else ""),
        err=True,
    )


def _summary(file: str, dump: StatusDump, machines: int, claimed: int) -> str:
    """The summary line: slots (dynamic ones apart), ``[[machines]]`` entries, claims."""
    dynamic = sum(1 for s in dump.slots if s.slot_type == "Dynamic")
    summary = (
        f"condor-status {file}: {len(dump.slots) - dynamic} slots on {machines} "
        f"[[machines]] entr{'y' if machines == 1 else 'ies'}, {claimed} claimed"
    )
    if dump.partitionable:
        summary += (
            f" ({len(dump.partitionable)} partitionable, with {dynamic} dynamic "
            "slot(s) carved out of them)"
        )
    return summary


def _refuse_later_claims(file: str, claimed: list[SlotAd], now: float) -> None:
    """Refuse claims whose latest start (``JobStart``, else ``EnteredCurrentState``) is
    after ``now``, as ``fs import condor-userprio`` refuses a LastUpdate after it.

    Raises:
        InputError: naming the slot, its time and ``--now``.
    """
    from fairshare_cli.cli.imports._dump_time import latest, refuse_later_dump

    times = [
        (s.since, f"{file}:{s.line}: {s.name}'s claim start")
        for s in claimed
        if s.since is not None
    ]
    found = latest(times)
    if found is not None:
        refuse_later_dump(found[1], found[0], now)


def _running(claimed: list[SlotAd], names: dict[str, str], file: str, now: float) -> list[Running]:
    """The claimed slots as running work on the imported machines (a dynamic slot with
    the resources carved out for it), started at ``now`` when the dump does not say."""
    from fairshare_cli.core.htcondor.placement import Running

    return [
        Running(
            submitter=str(s.holder),
            job_id=s.job_id or "",
            start_time=s.since if s.since is not None else now,
            slot=names[s.name],
            label=f"{file}:{s.line}: {s.name}",
            resources=tuple(s.resources.items()) if s.slot_type == "Dynamic" else (),
            concurrency_limits=s.limits,
        )
        for s in claimed
    ]


def stale_dynamic_claims(env: Env, names: dict[str, str], claimed: list[SlotAd]) -> list[str]:
    """Claims in the state on dynamic slots of the dump's partitionable slots that the dump
    does not show claimed (their jobs ended: the resources went back)."""
    from fairshare_cli.core.htcondor.claims import negotiator_from_json
    from fairshare_cli.core.htcondor.negotiator.partitionable import parent_name

    pslots = {names[p].lower() for p in names if "_" not in p.split("@", 1)[0]}
    still = {names[s.name] for s in claimed}
    held = env.decode("negotiator", negotiator_from_json).claims
    out: list[str] = []
    for slot in held:
        found = parent_name(slot)
        if found is not None and found[0].lower() in pslots and slot not in still:
            out.append(slot)
    return out
