"""``fs import dirac-cfg``: a DIRAC configuration (``.cfg``) as the ``[dirac]`` sections."""

from __future__ import annotations

import click

from fairshare_cli.cli.fragment import emit_fragment, fragment_options


@click.command("dirac-cfg")
@click.argument("file", metavar="FILE")
@click.option(
    "--vo",
    metavar="VO",
    help="The VO DIRAC's services run with (their /DIRAC/VirtualOrganization), whose "
    "/Operations/<VO> section applies; one the file has (default: the file's "
    "/DIRAC/VirtualOrganization; without one, /Operations/Defaults only).",
)
@click.option(
    "--setup",
    metavar="SETUP",
    help="Read /Operations as DIRAC 8 did, with this setup's sections "
    "(/Operations/<SETUP>, /Operations/<VO>/Defaults, /Operations/<VO>/<SETUP>).",
)
@fragment_options
def command(
    file: str,
    vo: str | None,
    setup: str | None,
    into: str | None,
    replace: bool,
    dry_run: bool,
    verbose: bool,
) -> None:
    """Turn a DIRAC configuration into the [dirac] config sections.

    \b
    Examples:
      fs import dirac-cfg dirac.cfg
      fs import dirac-cfg dirac.cfg --into pool.toml

    Reads /Registry/Groups/<group> (JobShare, Properties with JobSharing,
    AllowBackgroundTQs) and the Operations JobScheduling options
    (taskQueueCPUTimeIntervals, EnableSharesCorrection, ShareCorrections) and
    JobDescription options (DefaultCPUTime, Min/MaxCPUTime, DefaultPriority,
    Min/MaxPriority), each value as
    DIRAC's code reads it: JobShare = 250.5 or a trailing "# comment" is not an integer,
    so DIRAC uses 1000 (a warning says so). FILE - is stdin.
    """
    from fairshare_cli.core.names import check_name
    from fairshare_cli.io.importers.as_config import Imported
    from fairshare_cli.io.importers.cfg_syntax import CFG_TEXT, parse_cfg
    from fairshare_cli.io.importers.dirac_cfg import read_dirac_cfg
    from fairshare_cli.io.inputs import bounded_lines, not_utf8, open_input

    for option, name in (("--vo", vo), ("--setup", setup)):  # ("$UNSET": read as none given)
        if name is not None:
            check_name(name, option)
    with open_input(file) as fh:
        try:
            root = parse_cfg(bounded_lines(fh, file, CFG_TEXT), file)
        except UnicodeDecodeError as exc:
            raise not_utf8(file, exc) from None
    result = read_dirac_cfg(root, file, vo=vo, setup=setup)
    for warning in [*root.dropped, *result.warnings]:
        click.echo(f"fs: warning: {warning}", err=True)
    emit_fragment(
        Imported(result.fragment, result.origins),
        into,
        replace,
        dry_run,
        result.summary,
        result.ignored,
        verbose,
    )
