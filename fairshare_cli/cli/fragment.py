"""Configuration fragments from the importers: printed as TOML, or merged with ``--into``."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from fairshare_cli.cli.options import FilePath, output_file

if TYPE_CHECKING:  # tomlkit only when a fragment is written: `fs import --help` stays light
    from fairshare_cli.io.importers.as_config import Imported
    from fairshare_cli.io.toml_merge import MergeReport, Written

F = TypeVar("F", bound=Callable[..., Any])


def fragment_options(func: F) -> F:
    """``--into CONFIG``, ``--replace``, ``--dry-run`` and ``-v`` for kinds that make
    configuration."""
    func = click.option(
        "-v",
        "--verbose",
        is_flag=True,
        help="List every ignored name, one per line (the summary shows the first few).",
    )(func)
    func = click.option(
        "--dry-run",
        is_flag=True,
        help="With --into: show what would change; write nothing.",
    )(func)
    func = click.option(
        "--replace",
        is_flag=True,
        help="With --into: overwrite keys the config already has with other values.",
    )(func)
    func = click.option(
        "--into",
        "into",
        metavar="CONFIG",
        type=FilePath(),
        callback=output_file("config file", writable=False),
        help="Merge into this pool config (keeps its comments and other keys; made if "
        "missing or blank, with defaults = current) instead of printing a TOML fragment.",
    )(func)
    return func


def emit_fragment(
    imported: Imported,
    into: str | None,
    replace: bool,
    dry_run: bool,
    summary: str,
    ignored: Iterable[str] = (),
    verbose: bool = False,
    held: HeldMerge | None = None,
) -> None:
    """Print ``imported``'s fragment as TOML (stdout), or merge it into ``into``; summary
    on stderr (held back by ``held``, which also learns what the merge wrote, when given).
    The config's own checks run on the fragment (with ``into``, on the config the merge
    makes, among whose values the fragment's may name others) before anything is printed
    or written: a value they refuse is refused at the input line it came from.

    ``summary`` says what came in ("12 knobs, 3 groups"); ``ignored`` names what the input
    had that the config does not model: counted on the summary line with the first few
    names, and with ``verbose`` every name after it, one per line.

    Raises:
        InputError: the config refuses a value of the fragment (nothing written).
        ConfigError: ``into`` is not valid TOML, a value differs without ``replace``, or
            the merged config is invalid for what ``into`` held (nothing written).
    """
    from fairshare_cli.io.importers.as_config import check_fragment
    from fairshare_cli.io.toml_merge import fragment_text

    fragment, origins = imported
    echo = held if held is not None else click.echo
    skipped = sorted(set(ignored))
    note = f"; ignored {len(skipped)}: {_first_names(skipped, verbose)}" if skipped else ""
    kept: dict[str, list[str]] = {}  # (with into: its names the fragment does not list)
    if into is None:
        check_fragment(fragment, origins)
        echo(fragment_text(fragment), nl=False)
        echo(f"{summary}{note}", err=True)
    else:
        written = held.written if held is not None else None
        report = _merge(Path(into), imported, replace, dry_run, written, kept)
        verb = "would merge" if dry_run else "merged"
        echo(f"{verb} into {into}: {summary} ({_changes(report)}){note}", err=True)
    if verbose:
        for name in skipped:
            echo(name, err=True)
    for table, names in kept.items():  # (after -v's list)
        echo(f"fs: note: {kept_note(str(into), table, names)}", err=True)


def _changes(report: MergeReport) -> str:
    """What a merge did to the config's keys: by name when it touched three or fewer
    (``machines added``, where "1 added" beside "2 [[machines]] entries" read as one
    machine), else counted (``21 added, 0 replaced, 0 unchanged``)."""
    done = [("added", report.added), ("replaced", report.replaced)]
    done.append(("unchanged", report.unchanged))
    if sum(len(keys) for _, keys in done) > 3:
        return ", ".join(f"{len(keys)} {word}" for word, keys in done)
    return "; ".join(f"{', '.join(keys)} {word}" for word, keys in done if keys) or "no keys"


#: The tables of names an import may bring whole: (what they are, what they take, whose).
KEPT_TABLES = {
    "accounts": ("account", "their shares in the tree", "cluster's"),
    "groups": ("group", "their quotas", "pool's"),
}


def kept_note(into: str, table: str, kept: list[str]) -> str:
    """What a ``table`` of names merged into ``into`` keeps of the config's own: the names
    ``kept`` that the import does not list, which still take part."""
    from fairshare_cli.core.names import first_five

    what, takes, whose = KEPT_TABLES[table]
    some = what if len(kept) == 1 else f"{what}s"
    return (
        f"{into} keeps {len(kept)} {some} the import does not list ({first_five(kept)}), "
        f"which take {takes}: delete from [{table}] any that are not the {whose} (such as "
        "those 'fs init' writes as examples)"
    )


def _kept(merged: Any, fragment: Any) -> dict[str, list[str]]:
    """Per table of :data:`KEPT_TABLES` the fragment holds, the merged config's names in it
    that the fragment does not list."""
    out = {}
    for table in KEPT_TABLES:
        listed, have = fragment.get(table), merged.get(table)
        if isinstance(listed, dict) and isinstance(have, dict):
            names = sorted(n for n in have if n not in listed and n != "root")
            if names:
                out[table] = names
    return out


def _merge(
    into: Path,
    imported: Imported,
    replace: bool,
    dry_run: bool,
    written: Written | None,
    kept: dict[str, list[str]],
) -> MergeReport:
    """Merge the fragment into ``into``, the config's own checks run on the merged config
    (:func:`~fairshare_cli.io.importers.as_config.check_fragment`). Where a value differs
    from the config's without ``replace``, a value of the fragment the config refuses is
    named before the difference (the merge with ``replace``, unwritten, checked).
    ``kept`` is given the config's names the fragment does not list (:func:`_kept`).

    Raises:
        InputError: a value of the fragment the merged config refuses.
        ConfigError: as :func:`~fairshare_cli.io.toml_merge.merge_into_file` raises it.
    """
    from fairshare_cli.errors import ConfigError
    from fairshare_cli.io.importers.as_config import check_fragment
    from fairshare_cli.io.toml_merge import merge_into_file

    fragment, origins = imported

    def validate(merged: dict[str, Any], where: str) -> None:  # (where its values will be)
        check_fragment(merged, origins, where)
        kept.clear()
        kept.update(_kept(merged, fragment))

    try:
        return merge_into_file(into, fragment, replace, validate, dry_run, written)
    except ConfigError:
        if not replace:
            merge_into_file(into, fragment, True, validate, dry_run=True)
        raise


#: How many ignored names the summary line shows.
SHOWN_NAMES = 12


def _first_names(names: list[str], verbose: bool) -> str:
    """``a, b, c`` and, beyond :data:`SHOWN_NAMES`, how many more (and that ``-v`` lists
    them, unless it is given)."""
    shown = ", ".join(names[:SHOWN_NAMES])
    more = len(names) - SHOWN_NAMES
    if more <= 0:
        return shown
    return f"{shown} (+{more} more{'' if verbose else '; -v lists them'})"


class HeldMerge:
    """The ``echo`` of :func:`emit_fragment` inside :func:`merged_last`: lines said once
    the body is done, and what the merge wrote, to undo it."""

    def __init__(self) -> None:
        from fairshare_cli.io.toml_merge import Written

        self.lines: list[tuple[Any, Any]] = []
        self.written = Written()

    def __call__(self, *args: Any, **kwargs: Any) -> None:
        self.lines.append((args, kwargs))


@contextlib.contextmanager
def merged_last(into: str | None, dry_run: bool) -> Iterator[HeldMerge]:
    """A :class:`HeldMerge` for :func:`emit_fragment`, whose lines are said once the body
    is done; the config ``into`` is put back as it was (removed, if it was not there) when
    the body fails after merging into it: ``fs import condor-status --into`` merges the
    machines, then writes the claims on them into the state, and a state that cannot be
    written (a full disk, Ctrl-C) leaves neither file changed, nor a line saying it was
    merged. The put-back is a rename of a hard link to the old file, kept beside it until
    the body ends (no new space needed: a disk still full puts it back too), under the
    folder's lock, as merges run; it leaves a config another fs changed since."""
    held = HeldMerge()
    try:
        yield held
    except BaseException:
        if into is not None and not dry_run:
            from fairshare_cli.io.toml_merge import undo_merge

            undo_merge(Path(into), held.written)
        raise
    from fairshare_cli.io.toml_merge import forget_merge

    forget_merge(held.written)
    for args, kwargs in held.lines:
        click.echo(*args, **kwargs)
