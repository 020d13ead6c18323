"""``fs import condor-userprio``: the accountant's records from ``condor_userprio -l``."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from fairshare_cli.cli.context import Env, mutate_state
from fairshare_cli.cli.imports._dump_time import refuse_later_dump
from fairshare_cli.cli.options import GlobalOptions, common_options, dry_run_option, pass_options

if TYPE_CHECKING:
    from fairshare_cli.core.config import Config
    from fairshare_cli.core.htcondor.snapshot import AccountingAd


@click.command("condor-userprio")
@click.argument("file", metavar="FILE")
@dry_run_option
@common_options
@pass_options
def command(opts: GlobalOptions, file: str, dry_run: bool) -> None:
    """Set accountant records from condor_userprio -l [-allusers] output (- for stdin).

    \b
    Example:
      condor_userprio -l -allusers > prio.txt && fs import condor-userprio prio.txt

    Each record's real priority (the stored priority over its factor), factor, resources in
    use, accumulated usage and usage times, valid at the accountant's LastUpdate; group
    records also bring the quotas of the negotiator's last cycle, and -allusers the names of
    the concurrency limits the accountant counted (those it prints unambiguously). Other
    records stay.
    """
    from fairshare_cli.core.htcondor import accountant as acct
    from fairshare_cli.core.htcondor.snapshot import (
        SECTION,
        records_from_ads,
        snapshot_of,
        snapshot_to_json,
    )
    from fairshare_cli.io.importers.classad_dumps import open_dump
    from fairshare_cli.io.importers.condor_userprio import read_userprio

    with open_dump(file) as fh:
        ads, last_update, limits = read_userprio(fh, file)
    with mutate_state(opts, dry_run) as env:
        refuse_later_dump(f"{file}: the accountant's LastUpdate", last_update, env.now)
        accountant = env.decode("accountant", acct.accountant_from_json)
        accountant, count = records_from_ads(ads, accountant, env.config, last_update)
        state = env.state.with_section("accountant", acct.accountant_to_json(accountant))
        env.state = state.with_section(SECTION, snapshot_to_json(snapshot_of(ads, last_update)))
        _keep_limits(env, file, limits)
    groups = sum(1 for a in ads if a.is_group)
    prefix = "(dry run, nothing written) " if dry_run else ""
    click.echo(
        f"{prefix}Imported {count} accountant record{'s' if count != 1 else ''} "
        f"({groups} group{'s' if groups != 1 else ''}) from {file} into {env.state_path}"
        + _unconfigured(ads, env.config),
        err=True,
    )


def _unconfigured(ads: list[AccountingAd], config: Config) -> str:
    """``; 1 group the config does not have: group_ops (...)`` for the dump's accounting
    groups that ``[groups]`` lacks (imported before ``fs import condor-config``): their
    records are kept, but ``fs userprio`` lists their users flat, outside any group, until
    the config has the groups; or nothing."""
    known = {name.lower() for name in config.groups}
    names = [a.name for a in ads if a.is_group and a.name != "<none>"]
    missing = sorted({n for n in names if n.lower() not in known}, key=str.lower)
    if not missing:
        return ""
    one = len(missing) == 1
    return (
        f"; {len(missing)} group{'' if one else 's'} the config does not have: "
        f"{', '.join(missing)} (fs import condor-config of the pool's GROUP_NAMES brings "
        f"{'it' if one else 'them'}; till then fs userprio lists {'its' if one else 'their'}"
        " users outside any group)"
    )


def _keep_limits(env: Env, file: str, limits: list[str]) -> None:
    """Add the concurrency limits of the dump to the state's ``limits_seen`` (the
    accountant's map, which ``-l -allusers`` prints at 0 once no claim holds a name):
    those whose printed name holds no ``_``. ``ReportLimits`` writes a ``.`` as ``_``, so
    ``ConcurrencyLimit_license_matlab`` is ``license.matlab`` or ``license_matlab``; those
    are left out, named in a note on stderr."""
    from dataclasses import replace

    from fairshare_cli.core.htcondor.claims import negotiator_from_json, negotiator_to_json

    names = {n.lower() for n in limits if "_" not in n}
    unclear = sorted({n for n in limits if "_" in n}, key=str.lower)
    if unclear:
        listed = ", ".join(f"ConcurrencyLimit_{n}" for n in unclear)
        click.echo(
            f"fs: note: {file}: {listed}: condor_userprio prints a '.' of a limit's name as "
            "'_', so the name is not known; not kept (fs userprio -l -allusers prints it "
            "once a cycle counts it)",
            err=True,
        )
    negotiator = env.decode("negotiator", negotiator_from_json)
    seen = tuple(sorted({*negotiator.limits_seen, *names}))
    if seen != negotiator.limits_seen:
        kept = replace(negotiator, limits_seen=seen)
        env.state = env.state.with_section("negotiator", negotiator_to_json(kept))
