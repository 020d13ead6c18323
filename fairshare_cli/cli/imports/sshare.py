"""``fs import sshare``: the tree and raw usage of ``sshare -a -l -P``."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import click

from fairshare_cli.cli.context import load_env, mutate_state
from fairshare_cli.cli.imports._slurm_state import (
    last_decay_option,
    plural,
    refuse_none_known,
    report,
    resolve_last_decay,
    slurm_section,
    store_slurm,
)
from fairshare_cli.cli.options import (
    FilePath,
    GlobalOptions,
    common_options,
    dry_run_option,
    output_file,
    pass_options,
)

#: Why sshare --json's ``usage_normalized`` of a user was not read as its share of root's.
_NO_SHARE = "usage_normalized no share of root's: classic, at a pending job"


@click.command("sshare")
@click.argument("file", metavar="FILE")
@last_decay_option()
@click.option(
    "--into",
    metavar="CONFIG",
    type=FilePath(),
    callback=output_file("config file", writable=False),
    help="Also merge the account tree (parents, RawShares) into this pool config "
    "(made if missing, with defaults = current).",
)
@click.option("--replace", is_flag=True, help="With --into: overwrite differing values.")
@dry_run_option
@common_options
@pass_options
def command(
    opts: GlobalOptions,
    file: str,
    last_decay: str | None,
    into: str | None,
    replace: bool,
    dry_run: bool,
) -> None:
    """Set Slurm raw usage from sshare -a -l -P or sshare -a --json output (- for stdin).

    \b
    Example:
      sshare -a -l -P > shares.txt
      fs import sshare shares.txt --into pool.toml --last-decay 2026-11-21T23:13:20Z

    RawUsage is whole numbers in the text (scontrol-assoc gives two decimals); sshare
    --json (Slurm 23.11 on) gives each user's share of root's usage to every bit. The
    usage of every user association replaces the state's, as of the last decay pass
    (a dump of none the config has is refused); with --into the tree (indentation or
    parents, RawShares) is merged into the config first.
    """
    from fairshare_cli.cli.fragment import emit_fragment, merged_last
    from fairshare_cli.core.epoch import utc_text
    from fairshare_cli.core.slurm.snapshot import known_usage, with_usage
    from fairshare_cli.errors import InputError
    from fairshare_cli.io.importers.as_config import Imported
    from fairshare_cli.io.importers.sshare import read_sshare
    from fairshare_cli.io.toml_merge import blank_config, new_config

    shares = read_sshare(file)
    if not shares.users and into is None:  # (setting no usage would forget all of it)
        form = "--json" if shares.exact else "-l -P"
        raise InputError(
            f"{file}: no user associations (sshare {form} without -a lists accounts only); "
            f"give --into CONFIG for the tree, or import 'sshare -a {form}' for the usage"
        )
    # The config is put back as it was (removed, if new) when the usage part fails after
    # the merge. The usage is read against --config's config, else the one merged into
    # (a new one as the merge makes it, when a dry run leaves it unwritten).
    where = dataclasses.replace(opts, config_path=opts.config_path or into)
    with merged_last(into, dry_run) as held:
        if into is not None:
            # What the state's part would refuse, refused before the merge (unless the merge
            # makes the config the state's part reads: then nothing reads it yet).
            if shares.users and not blank_config(Path(where.config_path or into)):
                preflight = load_env(where)
                resolve_last_decay(last_decay, preflight.now)
                slurm_section(preflight)
            accounts = len([a for a in shares.accounts if a != "root"])
            emit_fragment(
                Imported({"accounts": shares.accounts}, shares.origins),
                into,
                replace,
                dry_run,
                f"{file}: {plural(accounts, 'account')}",
                held=held,
            )
        if not shares.users:
            return  # the tree alone: no usage to set
        created = (
            new_config({"accounts": shares.accounts})
            if into and where.config_path == into
            else None
        )
        with mutate_state(where, dry_run, created=created) as env:
            when = resolve_last_decay(last_decay, env.now)
            usage, ignored = known_usage(shares.usage, env.config)
            refuse_none_known(file, len(usage), ignored)
            store_slurm(env, with_usage(slurm_section(env), usage, when))
    report(
        dry_run,
        f"{file}: usage of {plural(len(usage), 'user association')}"
        f"{' (shares of root to every bit)' if shares.exact else ''} as of the decay pass "
        f"at {utc_text(when)} into {env.state_path}"
        + (f"; from whole usage ({_NO_SHARE}): {', '.join(shares.whole)}" if shares.whole else ""),
        ignored,
    )
