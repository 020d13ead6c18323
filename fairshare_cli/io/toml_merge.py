"""TOML fragments from the importers: print one, or merge it into a config file.

``fs import condor-config``, ``slurm-conf``, ``sacctmgr`` and ``dirac-cfg`` turn the real
tools' configuration into a *fragment*: a nested dict of our config keys. Without
``--into`` it is printed as TOML; with ``--into CONFIG`` it is merged into that file,
keeping the file's comments, layout and other keys (``tomlkit``). A key the file already
has with a different value is refused unless ``--replace``; the merged text must still be a
valid config (checked before anything is written), and it is written atomically.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tomlkit
from tomlkit.exceptions import TOMLKitError
from tomlkit.items import InlineTable

from fairshare_cli.errors import ConfigError
from fairshare_cli.io.atomic import atomic_write_text, folder_lock, refuse_special, through_link
from fairshare_cli.io.inputs import read_regular
from fairshare_cli.io.toml import loads_file
from fairshare_cli.io.toml_values import leaf as _leaf
from fairshare_cli.io.toml_values import plain as _plain
from fairshare_cli.io.toml_values import same as _same

Fragment = Mapping[str, Any]
"""A nested dict of config keys: tables are dicts, ``[[machines]]`` a list of dicts."""


@dataclass
class MergeReport:
    """What a merge did, as dotted keys (for the import's summary line)."""

    added: list[str] = field(default_factory=list)
    replaced: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)


@dataclass
class Written:
    """What a merge wrote, to undo it: the file's bytes before (None: it was not there), those
    the merge put in their place (None: it wrote nothing), and a hard link to the file it
    replaced (None: none could be made), whose rename puts it back on a full disk."""

    before: bytes | None = None
    after: bytes | None = None
    kept: Path | None = None
    #: An open descriptor of ``kept``, locked (``flock``) while this fs may still need it:
    #: a link whose lock can be taken is one a killed fs left (:func:`_remove_left_links`).
    held: int | None = None


INLINE_KEYS = frozenset(
    {
        "users",
        "user_priority",
        "attributes",
        "tres",
        "concurrency_limits",
        "concurrency_limit_scope_defaults",
    }
)
"""Tables written inline (``users = { u1 = 1 }``), as the config examples show them."""

INLINE_ARRAY_KEYS = frozenset({"slices"})
"""Arrays of tables written as arrays of inline tables (``slices = [ { ... }, ... ]``)."""

NEW_CONFIG: Fragment = {"pool": {"defaults": "current"}}
"""What a config an import creates holds besides the fragment: the profile of today's
releases (what ``fs init`` writes), as the real tools' dumps are of today's pools; a file
without it would read as ``legacy``, and ``fs config check`` would warn so."""


def new_config(fragment: Fragment) -> Fragment:
    """``fragment`` as a new config holds it: :data:`NEW_CONFIG` first, the fragment's
    own values winning."""
    pool = {**NEW_CONFIG["pool"], **fragment.get("pool", {})}
    return {"pool": pool, **{k: v for k, v in fragment.items() if k != "pool"}}


def fragment_text(fragment: Fragment) -> str:
    """The fragment as TOML text (tables in the fragment's order)."""
    document = tomlkit.document()
    _fill(document, fragment)
    return tomlkit.dumps(document)


def _value(key: str, value: Any) -> Any:
    """A leaf for tomlkit: known small tables inline, tables inside arrays inline too."""
    if isinstance(value, Mapping) and key in INLINE_KEYS:
        inline = tomlkit.inline_table()
        inline.update(_plain(value))
        return inline
    if key in INLINE_ARRAY_KEYS and isinstance(value, (list, tuple)):
        items = tomlkit.array()
        for item in value:
            inline = tomlkit.inline_table()
            inline.update(_plain(item))
            items.append(inline)
        if len(items) > 1:
            items.multiline(True)
        return items
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, Mapping) for v in value):
        array = tomlkit.aot()
        for item in value:
            t = tomlkit.table()
            for k, v in item.items():
                t[str(k)] = _value(str(k), v)
            array.append(t)
        return array
    return _leaf(value)


def _dotted(path: list[str]) -> str:
    return ".".join(p if p.replace("_", "").isalnum() else f'"{p}"' for p in path)


def merge_fragment(
    document: Any, fragment: Fragment, replace: bool, where: str, path: list[str] | None = None
) -> MergeReport:
    """Merge ``fragment`` into a tomlkit ``document`` (or table) in place.

    Tables merge key by key; any other value (arrays, ``[[machines]]`` included) is a leaf:
    added when absent, kept when equal, replaced only with ``replace``.

    Raises:
        ConfigError: a differing value without ``replace``, naming ``where`` and the key.
    """
    report = MergeReport()
    _merge(document, fragment, replace, where, path or [], report)
    return report


def _merge(
    table: Any,
    fragment: Fragment,
    replace: bool,
    where: str,
    path: list[str],
    report: MergeReport,
    inline: bool = False,
) -> None:
    """``inline``: ``table`` is written inline (``{ ... }``) or by dotted keys below a
    [table] (``groups.lhcb_user.job_share = 1``), where what is added goes inline: a
    [table] there was a traceback, or written under a wrong name (``[groups.lhcb_prod]``)."""
    for key, value in fragment.items():
        here = [*path, str(key)]
        if isinstance(value, Mapping) and key not in INLINE_KEYS:
            if key not in table:
                report.added.extend(_leaves(value, here))
                table[key] = _inline(value) if inline else tomlkit.table(_has_only_tables(value))
                if not inline:
                    _fill(table[key], value)
                continue
            existing = table[key]
            if not isinstance(existing, Mapping):
                raise ConfigError(f"{where}: {_dotted(here)} is not a table in the file")
            within = inline or _written_inline(table, key, path)
            _merge(existing, value, replace, where, here, report, within)
        elif key not in table:
            table[key] = _inline(value) if inline else _value(key, value)
            report.added.append(_dotted(here))
        elif _same(table[key], value, here):
            report.unchanged.append(_dotted(here))
        elif isinstance(value, Mapping) and isinstance(table[key], Mapping):
            within = inline or _written_inline(table, key, path)
            _merge(table[key], value, replace, where, here, report, within)
        elif replace:
            table[key] = _inline(value) if inline else _value(key, value)
            report.replaced.append(_dotted(here))
        else:
            differs = _entry_difference(table[key], value) or (
                f" is {_show(table[key])} in the file, the import says {_show(value)}"
            )
            raise ConfigError(f"{where}: {_dotted(here)}{differs}; pass --replace to overwrite it")


def _written_inline(table: Any, key: str, path: list[str]) -> bool:
    """``table[key]`` is an inline table, or a table of dotted keys below a [table] (at the
    top of the file tomlkit names what it adds there right)."""
    if isinstance(table[key], InlineTable):
        return True
    body = table.value.body if path else []
    return any(k is not None and k.key == key and k.is_dotted() for k, _ in body)


def _inline(value: Any) -> Any:
    """``value`` as a value inside an inline table: its tables inline, at any depth."""
    if isinstance(value, Mapping):
        table = tomlkit.inline_table()
        table.update({str(k): _inline(v) for k, v in value.items()})
        return table
    if isinstance(value, (list, tuple)):
        array = tomlkit.array()
        array.extend(_inline(v) for v in value)
        return array
    return value


def _entry_difference(existing: Any, value: Any) -> str | None:
    """Where two arrays of tables whose entries have the same names differ: the first
    entry and key (``machines[0] (localhost).partitions``), as the line then says; by
    their names alone, '1 table (localhost) in the file, the import says 1 table
    (localhost)', it named no difference. None for other values."""
    mine = _plain(existing.unwrap() if hasattr(existing, "unwrap") else existing)
    theirs = _plain(value)
    if not (isinstance(mine, list) and isinstance(theirs, list) and len(mine) == len(theirs)):
        return None
    pairs = list(zip(mine, theirs, strict=True))
    if not all(
        isinstance(a, Mapping) and isinstance(b, Mapping) and a.get("name") == b.get("name")
        for a, b in pairs
    ):
        return None
    for index, (a, b) in enumerate(pairs):
        for key in [*a, *(k for k in b if k not in a)]:
            if key not in a or key not in b or not _same(a[key], b[key], [str(key)]):
                was = _show(a[key]) if key in a else "not set"
                says = _show(b[key]) if key in b else "not set"
                entry = f"[{index}] ({a.get('name', '?')}).{_dotted([str(key)])}"
                return f"{entry} is {was} in the file, the import says {says}"
    return None


def _leaves(fragment: Fragment, path: list[str]) -> list[str]:
    """The dotted keys of a table added whole, counted as :func:`_merge` counts a table
    merged key by key (so a first merge into a new file and a second one agree: "29
    added", then "29 unchanged"; it said "4 added", the new top-level tables)."""
    out: list[str] = []
    for key, value in fragment.items():
        here = [*path, str(key)]
        if isinstance(value, Mapping) and key not in INLINE_KEYS:
            out.extend(_leaves(value, here))
        else:
            out.append(_dotted(here))
    return out


def _has_only_tables(fragment: Fragment) -> bool:
    return bool(fragment) and all(isinstance(v, Mapping) for v in fragment.values())


def _fill(table: Any, fragment: Fragment) -> None:
    for key, value in fragment.items():
        if isinstance(value, Mapping) and key not in INLINE_KEYS:
            table[key] = tomlkit.table(is_super_table=_has_only_tables(value))
            _fill(table[key], value)
        else:
            table[key] = _value(str(key), value)


def _show(value: Any) -> str:
    plain = _plain(value.unwrap() if hasattr(value, "unwrap") else value)
    if isinstance(plain, list) and plain and all(isinstance(t, Mapping) for t in plain):
        # an array of tables ([[machines]]) prints as lines: name its entries instead
        names = ", ".join(str(t.get("name", "?")) for t in plain)
        text = f"{len(plain)} table{'s' if len(plain) != 1 else ''} ({names})"
    elif isinstance(plain, Mapping):  # an inline table (tomlkit.item would give lines)
        inline = tomlkit.inline_table()
        inline.update(plain)
        text = inline.as_string()
    else:
        text = tomlkit.item(plain).as_string()
    return text if len(text) <= 60 else text[:57] + "..."


def merge_into_file(
    path: Path,
    fragment: Fragment,
    replace: bool,
    validate: Callable[[dict[str, Any], str], object],
    dry_run: bool = False,
    written: Written | None = None,
) -> MergeReport:
    """Merge ``fragment`` into the config file at ``path`` (created when missing, holding
    :func:`new_config`, as a blank one comes to: :func:`blank_config`).

    ``validate(raw, where)`` is the config reader (``build_config``); it must accept the
    merged result before anything is written. With ``dry_run`` nothing is written.
    ``written``, when given, is told what the file held and what the merge writes (before
    it writes), so that :func:`undo_merge` can put it back.

    Raises:
        ConfigError: the file is not valid TOML, a value differs without ``replace``, or the
            merged config is invalid (the file is left as it was).
        InputError: ``path`` is a device, a pipe or a folder.
        RuntimeFailure: the file cannot be written.
    """
    where = str(path)
    refuse_special(path, "config file")  # (before reading: a pipe would never end)
    target = through_link(path)  # (a link stays a link: the file it names is merged into)
    with contextlib.nullcontext() if dry_run else folder_lock(target, "config file"):
        if not dry_run:
            _remove_left_links(target)
        before = _read(path)
        fresh = _blank(before)
        document = _document(path, "" if fresh else _text(path, before))
        report = merge_fragment(
            document, new_config(fragment) if fresh else fragment, replace, where
        )
        merged = tomlkit.dumps(document)
        validate(loads_file(merged, "config file", path), where)  # (tomli: in C)
        if before is not None and b"\r\n" in before:  # (a file of CRLF lines keeps them)
            merged = merged.replace("\n", "\r\n")
        merged = "\ufeff" * (before or b"").startswith(b"\xef\xbb\xbf") + merged  # (its BOM)
        if fresh:  # (the summary counts the import's keys: a rerun finds them all)
            own = set(_leaves(fragment, []))
            report.added = [k for k in report.added if k in own]
        if not dry_run and (before is None or report.added or report.replaced):
            mode = os.stat(path).st_mode & 0o777 if before is not None else 0o644
            if written is not None:
                written.before, written.after = before, merged.encode("utf-8")
                if before is not None:
                    written.kept, written.held = _link_beside(target)
            try:
                atomic_write_text(target, merged, "config file", mode=mode)
            except BaseException:
                forget_merge(written)
                raise
    return report


def _document(path: Path, text: str) -> tomlkit.TOMLDocument:
    """The config file ``path`` holding ``text``, parsed to be merged into, refused in the
    words ``--config`` reads it with (tomlkit's own call the end of a file ``'\\x00'``),
    with what the file is when it is another (a state: ``give it as --state``).

    Raises:
        ConfigError: not valid TOML.
    """
    try:
        loads_file(text, "config file", path)
        try:
            return tomlkit.parse(text)
        except TOMLKitError as exc:
            raise ConfigError(f"config file {path} is not valid TOML: {exc}") from None
    except ConfigError as exc:
        from fairshare_cli.io.importers.sniff import POOL_CONFIG, other_file

        raise other_file(exc, str(path), POOL_CONFIG) from None


def undo_merge(path: Path, written: Written) -> None:
    """Put the config at ``path`` back as it was before a merge wrote ``written.after``
    (removed, if the merge made it), under the folder's lock, as the merge ran; a file
    another fs changed since is left as it is (putting it back would lose that change), and
    so is one that cannot be read or written (it stays merged: run the import again).
    """
    from fairshare_cli.errors import FairshareError

    if written.after is None:
        return
    with (
        contextlib.suppress(OSError, FairshareError),
        folder_lock(path := through_link(path), "config file"),  # (the merge's file and lock)
    ):
        if _read(path) != written.after:
            return
        if written.before is None:
            path.unlink()
        elif written.kept is not None:  # (a rename: no new space needed)
            os.replace(written.kept, path)
            written.kept = None
        else:
            mode = os.stat(path).st_mode & 0o777
            atomic_write_text(path, [written.before], "config file", mode=mode)
    forget_merge(written)


def forget_merge(written: Written | None) -> None:
    """Remove the hard link a merge kept to the file it replaced (the merge stands, or it
    was undone without it), and let go of its lock."""
    if written is None:
        return
    if written.kept is not None:
        with contextlib.suppress(OSError):
            written.kept.unlink()
        written.kept = None
    if written.held is not None:
        with contextlib.suppress(OSError):
            os.close(written.held)  # (and the lock with it)
        written.held = None


def _link_beside(path: Path) -> tuple[Path | None, int | None]:
    """A new hard link to ``path`` beside it (``.NAME.XXXXXXXX.kept``) and an open
    descriptor of it that holds its ``flock`` until :func:`forget_merge` (None where
    none); no link where the file system makes none (the undo then writes the old bytes
    back)."""
    import fcntl
    import secrets

    for _ in range(8):
        link = path.with_name(f".{path.name}.{secrets.token_hex(4)}.kept")
        try:
            os.link(path, link)
        except FileExistsError:
            continue
        except OSError:
            return None, None
        try:
            fd = os.open(link, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        except OSError:
            return link, None
        with contextlib.suppress(OSError):
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # (a new inode's: free)
        return link, fd
    return None, None


#: The name :func:`_link_beside` gives its link, after the config's own name.
_LINK_TAIL = re.compile(r"\.[0-9a-f]{8}\.kept")


def _remove_left_links(path: Path) -> None:
    """Remove the hard links beside the config ``path`` that a merge killed before it
    could remove its own left (a ``fs import condor-status --into`` killed between the
    merge and the state write): those whose lock no live fs holds (as SQLite tells a hot
    journal from a live one). Call under the folder's lock; best effort."""
    import fcntl

    prefix = f".{path.name}"
    try:
        names = os.listdir(path.parent)
    except OSError:
        return
    for name in names:
        if not (name.startswith(prefix) and _LINK_TAIL.fullmatch(name, len(prefix))):
            continue
        link = path.with_name(name)
        try:
            fd = os.open(link, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC)
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            link.unlink()  # (its writer is gone: the merge stands, or never replaced it)
        except OSError:  # (a live fs's, BlockingIOError: left to it)
            pass
        finally:
            os.close(fd)


_BLANK_BYTES = 4096  # (the most a blank config is read for: a larger file holds something)


def blank_config(path: Path) -> bool:
    """Whether the config at ``path`` is missing or white space alone (``touch fairshare.toml``):
    ``--into`` makes it a new config (:func:`new_config`), not one read as ``legacy``."""
    try:
        found = os.stat(path)
        small = stat.S_ISREG(found.st_mode) and found.st_size <= _BLANK_BYTES
        return small and _blank(read_regular(path))
    except FileNotFoundError:
        return True
    except OSError:  # (read as a config, it names the fault)
        return False


def _blank(data: bytes | None) -> bool:
    """Whether a config of ``data`` (None: no file) is blank, by :func:`blank_config`'s rule."""
    return data is None or (len(data) <= _BLANK_BYTES and not data.strip())


def _read(path: Path) -> bytes | None:
    """The bytes of the config at ``path``; None when there is none.

    Raises:
        ConfigError: it cannot be read, or is no regular file.
    """
    try:
        return read_regular(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise ConfigError(f"config file {path} cannot be read: {exc.strerror}") from None


def _text(path: Path, data: bytes | None) -> str:
    """``data`` as text, line ends as ``read_text`` reads them ("" for no file), a leading
    byte-order mark skipped, as the config reader skips it (the merge writes it back).

    Raises:
        ConfigError: not UTF-8.
    """
    try:
        text = (data or b"").decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ConfigError(
            f"config file {path} is not UTF-8 text (byte {exc.start}); expected a TOML file"
        ) from None
    return text.replace("\r\n", "\n").replace("\r", "\n")
