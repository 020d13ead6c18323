"""What ``fs --version`` reports, and where the installed docs and sample pool are."""

from __future__ import annotations

import os
import platform
from pathlib import Path

from fairshare_cli import __version__


def package_folder(name: str) -> Path:
    """A folder shipped inside the package (``docs``, ``sample_configs``).

    An installed wheel holds it in the package; a source checkout has it beside the package.
    """
    inside = Path(__file__).resolve().parent.parent / name
    if inside.is_dir():
        return inside
    return Path(__file__).resolve().parent.parent.parent / name


def _dist_version(name: str) -> str:
    from importlib import metadata

    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "not installed"


def _classad_version() -> str:
    try:
        import classad2
    except ImportError:
        return "not installed"
    return str(getattr(classad2, "version", lambda: "unknown")())


def version_lines() -> list[str]:
    """fs, Python, htcondor/classad versions, then the config ``fs`` would use and its profile."""
    from fairshare_cli.cli.resolve import resolve_config_path
    from fairshare_cli.errors import FairshareError

    lines = [
        f"fs (fairshare-cli) {__version__}",
        f"Python {platform.python_version()}",
        f"htcondor {_dist_version('htcondor')}, classad {_classad_version()}",
    ]
    try:
        path = resolve_config_path(os.environ.get("FAIRSHARE_CONFIG"))
    except FairshareError as exc:  # none there, or a folder fs may not look in
        text = str(exc)
        found = "none found (run 'fs init')" if text.startswith("no pool config") else text
        lines.append(f"config: {found}")
    else:
        lines.append(f"config: {path} (profile {_profile(path)})")
    lines.append(f"docs: {package_folder('docs')}")
    return lines


def _profile(path: Path) -> str:
    from fairshare_cli.errors import FairshareError
    from fairshare_cli.io.config import load_config

    try:
        return load_config(path).pool.defaults
    except FairshareError as exc:
        return f"unreadable: {exc}"


#: The sample pool's files, as ``fs init --example`` writes them.
EXAMPLE_FILES = (
    "pool.toml",
    "sample-state.json",
    "jobs.json",
    "dirac-jobs.json",
    "history.csv",
    "workload.json",
    "sweep.toml",  # docs/sweep.md's grid of two half-lives and two quotas
    "sample-state.history.sqlite",  # the usage history kept beside the state (binary)
)


#: What ``fs init --example`` stages its files under (``.fs-example.*.tmp``): what a
#: killed one left is found by it and removed by the next.
STAGED = "fs-example"


def write_example(folder: Path, force: bool) -> list[str]:
    """Copy the sample pool shipped with the package into ``folder``; the names written.

    All or nothing: a new folder is written whole beside it and renamed into place; in a
    folder that is there, every file is written beside its place first, then each renamed
    into place, ``pool.toml`` last. A killed one leaves no sample file but hidden staged
    ones (removed by the next), or, killed among the renames, sample files as shipped and
    no ``pool.toml``: those are no clash, and the next one puts the rest in place.

    Raises:
        InputError: a file is there already (without ``force``), or ``folder`` is a file.
        RuntimeFailure: the folder cannot be written.
    """
    from fairshare_cli.errors import InputError
    from fairshare_cli.io.atomic import folder_lock, is_link, remove_staged, write_new_folder

    is_link(folder)  # (a name too long: one line, exit 2, as for fs init PATH; not exit 1)
    if folder.exists() and not folder.is_dir():
        kind = "a file" if folder.is_file() else "not a folder"  # (a pipe, a socket, a device)
        raise InputError(f"--example {folder}: is {kind}; give a folder")
    data = _sample_data()
    with folder_lock(folder / "pool.toml", "config file"):  # (as merges into it take)
        if folder.is_dir():
            _into_folder(folder, data, force)
        else:
            remove_staged(folder.parent, f"{STAGED}.{folder.name}")
            write_new_folder(folder, data, "sample file", 0o644, f"{STAGED}.{folder.name}")
    return list(EXAMPLE_FILES)


def _sample_data() -> dict[str, list[bytes]]:
    """The shipped sample files' bytes, by name, in :data:`EXAMPLE_FILES`' order.

    Raises:
        RuntimeFailure: the installed package lacks one.
    """
    from fairshare_cli.errors import RuntimeFailure

    source = package_folder("sample_configs")
    data = {}
    for name in EXAMPLE_FILES:
        try:
            data[name] = [(source / name).read_bytes()]
        except OSError as exc:
            why = exc.strerror
            raise RuntimeFailure(f"the installed sample pool lacks {name}: {why}") from None
    return data


def _into_folder(folder: Path, data: dict[str, list[bytes]], force: bool) -> None:
    """The sample files into a folder that is there (a file there as a symbolic link is
    written through it, as fs init writes its config), ``pool.toml`` renamed last.

    Raises:
        InputError: a file is there already, but for a sample file as shipped beside no
            ``pool.toml`` (an interrupted ``--example``), without ``force``.
        RuntimeFailure: a file cannot be written.
    """
    from fairshare_cli.errors import InputError
    from fairshare_cli.io.atomic import remove_staged, replace_files, through_link

    targets = {name: through_link(folder / name) for name in EXAMPLE_FILES}
    for place in {target.parent for target in targets.values()}:
        remove_staged(place, STAGED)
    interrupted = not targets["pool.toml"].exists()  # (renamed last: a pool not whole)
    todo = []
    for name, target in targets.items():
        if not force and target.exists():
            if interrupted and _holds(target, data[name]):
                continue  # (a file as shipped, put there by a killed one: as it is)
            raise InputError(
                f"--example {folder}: {name} already exists; use --force to overwrite it"
            )
        todo.append(name)
    last = sorted(todo, key=lambda name: name == "pool.toml")
    replace_files({targets[name]: data[name] for name in last}, "sample file", 0o644, STAGED)


def _holds(path: Path, data: list[bytes]) -> bool:
    """Whether the file at ``path`` holds ``data`` byte for byte."""
    try:
        return path.read_bytes() == b"".join(data)
    except OSError:
        return False
