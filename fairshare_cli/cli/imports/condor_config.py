"""``fs import condor-config``: HTCondor's knobs as a config fragment."""

from __future__ import annotations

from pathlib import Path

import click

from fairshare_cli.cli.fragment import emit_fragment, fragment_options
from fairshare_cli.errors import InputError


@click.command("condor-config")
@click.argument("file", metavar="FILE")
@fragment_options
def command(file: str, into: str | None, replace: bool, dry_run: bool, verbose: bool) -> None:
    """Read a condor_config file or condor_config_val -dump output (- for stdin).

    \b
    Examples:
      fs import condor-config /etc/condor/condor_config
      condor_config_val -dump | fs import condor-config - --into pool.toml

    Takes the knobs the pool config models, under their real names (PRIORITY_HALFLIFE,
    *_PRIO_FACTOR, UID_DOMAIN, ACCOUNTANT_LOCAL_DOMAIN, GROUP_NAMES and the GROUP_* knobs,
    NEGOTIATOR_*, PREEMPTION_*, SLOT_WEIGHT, GROUP_SORT_EXPR, START and RANK as [pool]
    start and rank, which [[machines]] entries without their own take, CONSUMPTION_POLICY,
    NUM_CLAIMS and CONSUMPTION_* likewise for partitionable machines), expanding
    $(MACRO) and $(MACRO:default) (one set nowhere, with no built-in default, as empty,
    with a warning), following include lines, if/else blocks and use templates, and
    reading the files of LOCAL_CONFIG_DIR and LOCAL_CONFIG_FILE after FILE, as HTCondor
    25.0 does; values such as 5 * 60 are evaluated as it does. Every other knob is
    counted as ignored (-v lists them); one that changes which jobs match that fs does not
    model (NEGOTIATOR_MATCH_EXPRS, NEGOTIATOR_IGNORE_JOB_RANKS = true, ...) gets a
    warning of its own. A file with none of these knobs is refused (unless
    it is HTCondor's: a use line, LOCAL_CONFIG_DIR), and so are += lines (HTCondor has no
    +=) and a knob fs takes that a use template sets to a value fs does not hold (POLICY :
    DESKTOP's START): import condor_config_val -dump output, which holds what they set.
    """
    from fairshare_cli.io.importers.as_config import Imported
    from fairshare_cli.io.importers.classad_dumps import open_dump
    from fairshare_cli.io.importers.condor_config_lines import EXPECTED
    from fairshare_cli.io.importers.condor_config_local import read_as_daemons
    from fairshare_cli.io.importers.condor_knobs import (
        fragment_from_knobs,
        undefined,
        unmodelled,
        unmodelled_settings,
    )
    from fairshare_cli.io.inputs import bounded_lines

    base = Path(file).parent if file != "-" else Path.cwd()
    with open_dump(file) as fh:  # (read as the first reading reads it: a bad line ends it)
        conf, readings = read_as_daemons(bounded_lines(fh, file, EXPECTED), file, base)
    try:  # (a value refused for its key: the macros taken as empty in it, named first)
        fragment, used, ignored, origins = fragment_from_knobs(conf, file, readings)
        warnings = unmodelled(conf) + unmodelled_settings(conf) + unlisted_groups(ignored)
    except InputError:
        _warn(undefined(conf, readings))
        raise
    groups = len(fragment.get("groups", {}))
    summary = (
        f"condor-config {file}: {len(used)} knob{'s' if len(used) != 1 else ''} taken, "
        f"{groups} group{'s' if groups != 1 else ''}"
    )
    imported = Imported(fragment, origins)
    try:
        emit_fragment(imported, into, replace, dry_run, summary, ignored, verbose)
    finally:
        _warn(undefined(conf, readings) + warnings)


def unlisted_groups(ignored: list[str]) -> list[str]:
    """A warning for each group knob ignored for naming a group ``GROUP_NAMES`` lacks
    (``GROUP_QUOTA_group_lhcb``): the negotiator reads a group's knobs for the groups
    ``GROUP_NAMES`` lists only, so a group left out (or misspelt there) has no quota."""
    from fairshare_cli.io.importers.condor_knobs import PER_GROUP

    prefixes = sorted(PER_GROUP, key=len, reverse=True)
    knobs = ("GROUP_QUOTA_ROUND_ROBIN_RATE", "GROUP_QUOTA_MAX_ALLOCATION_ROUNDS")
    out = []
    for name in ignored:
        prefix = next((p for p in prefixes if name.upper().startswith(p)), None)
        if prefix is None or name.upper() in knobs or len(name) == len(prefix):
            continue
        group = name[len(prefix) :]
        out.append(
            f"{name}: {group} is not in GROUP_NAMES, so the negotiator never reads it (ignored); "
            f"add {group} to GROUP_NAMES"
        )
    return out


def _warn(lines: list[str]) -> None:
    for line in lines:
        click.echo(f"fs: warning: {line}", err=True)
