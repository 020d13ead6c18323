"""``fs import sacctmgr``: associations and QOS from sacctmgr listings or a dump file."""

from __future__ import annotations

import click

from fairshare_cli.cli.fragment import emit_fragment, fragment_options


@click.command("sacctmgr")
@click.argument("file", metavar="FILE")
@click.option("--cluster", metavar="NAME", help="Only this cluster's associations.")
@fragment_options
def command(
    file: str, cluster: str | None, into: str | None, replace: bool, dry_run: bool, verbose: bool
) -> None:
    """Read sacctmgr associations or QOS (- for stdin) as [accounts] / [qos].

    \b
    Examples:
      sacctmgr -P show assoc format=Cluster,Account,User,Share,ParentName > assoc.txt
      sacctmgr show qos format=Name,Priority,UsageFactor > qos.txt
      fs import sacctmgr assoc.txt --into pool.toml
      fs import sacctmgr qos.txt --into pool.toml

    Also reads the fixed-width tables (tree form too) and 'sacctmgr dump' files; the
    kind of listing is told from its header. Users may be in several accounts.
    """
    from fairshare_cli.io.importers.as_config import Imported
    from fairshare_cli.io.importers.sacctmgr import read_sacctmgr

    listing = read_sacctmgr(file, cluster=cluster)
    users = sum(len(a.get("users", {})) for a in listing.accounts.values())
    accounts = sum(1 for a in listing.accounts if a != "root")
    parts = []
    if listing.seen:
        parts.append(f"{accounts} account{'s' if accounts != 1 else ''}")
        parts.append(f"{users} user association{'s' if users != 1 else ''}")
    if listing.qos:
        parts.append(f"{len(listing.qos)} QOS")
    emit_fragment(
        Imported(listing.fragment(), listing.origins),
        into,
        replace,
        dry_run,
        f"{file}: {', '.join(parts)}",
        listing.ignored,
        verbose,
    )
