"""``fs import scontrol-assoc``: raw usage from ``scontrol show assoc_mgr``."""

from __future__ import annotations

import click

from fairshare_cli.cli.context import mutate_state
from fairshare_cli.cli.imports._slurm_state import (
    last_decay_option,
    plural,
    refuse_none_known,
    report,
    resolve_last_decay,
    slurm_section,
    store_slurm,
)
from fairshare_cli.cli.options import GlobalOptions, common_options, dry_run_option, pass_options


@click.command("scontrol-assoc")
@click.argument("file", metavar="FILE")
@last_decay_option()
@dry_run_option
@common_options
@pass_options
def command(
    opts: GlobalOptions,
    file: str,
    last_decay: str | None,
    dry_run: bool,
) -> None:
    """Set Slurm raw usage from scontrol show assoc_mgr output (- for stdin).

    \b
    Example:
      scontrol show assoc_mgr flags=assoc > assoc_mgr.txt
      fs import scontrol-assoc assoc_mgr.txt --last-decay 2026-11-21T23:13:20Z

    UsageRaw has two decimals there (sshare's RawUsage is cut to an integer). The
    usage of every user association replaces the state's, as of the last decay pass;
    usage of users the config has no association for is listed as ignored (a dump of
    none it has is refused). Where the
    state already holds usage from an earlier pass that, decayed to this one, rounds to
    what the dump printed, that value is kept with all its decimals. QOS usage factors
    are not in this dump (scontrol prints no UsageFactor): import them from
    sacctmgr show qos format=Name,Priority,UsageFactor (fs import sacctmgr).
    """
    from fairshare_cli.core.epoch import utc_text
    from fairshare_cli.core.slurm.snapshot import keep_precision, known_usage, with_usage
    from fairshare_cli.io.importers.scontrol_assoc import read_assoc_mgr

    dump = read_assoc_mgr(file)
    with mutate_state(opts, dry_run) as env:
        when = resolve_last_decay(last_decay, env.now)
        usage, ignored = known_usage(dump.users, env.config)
        refuse_none_known(file, len(usage), ignored)
        prior = slurm_section(env)
        usage, kept = keep_precision(prior, usage, when, env.config)
        store_slurm(env, with_usage(prior, usage, when))
        text = (
            f"{file}: usage of {plural(len(usage), 'user association')} as of the decay pass "
            f"at {utc_text(when)} into {env.state_path}"
        )
        if kept:
            text += f"; {len(kept)} kept to every decimal from the state's earlier pass"
    report(
        dry_run,
        text,
        [*ignored, *(f"{p} (per partition)" for p in dump.partitions)],
    )
