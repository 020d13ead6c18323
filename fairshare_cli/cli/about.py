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
    from fairshare_cli.cli.context import resolve_config_path
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


def write_example(folder: Path, force: bool) -> list[str]:
    """Copy the sample pool shipped with the package into ``folder``; the names written.

    Raises:
        InputError: a file is there already (without ``force``), or ``folder`` is a file.
        RuntimeFailure: the folder cannot be written.
    """
    from fairshare_cli.errors import InputError
    from fairshare_cli.io.atomic import folder_lock, through_link

    source = package_folder("sample_configs")
    if folder.exists() and not folder.is_dir():
        raise InputError(f"--example {folder}: is a file; give a folder")
    # (a file there as a symbolic link is written through it, as fs init writes its config)
    targets = {name: through_link(folder / name) for name in EXAMPLE_FILES}
    clash = [name for name, target in targets.items() if target.exists()]
    if clash and not force:
        raise InputError(f"--example {folder}: {clash[0]} already exists; use --force")
    new = [target for target in targets.values() if not target.exists()]
    had_folder = folder.is_dir()
    with folder_lock(folder / "pool.toml", "config file"):  # (as merges into it take)
        _write_files(source, targets, new, None if had_folder else folder)
    return list(EXAMPLE_FILES)


def _write_files(
    source: Path, targets: dict[str, Path], new: list[Path], made: Path | None
) -> None:
    """Each sample file whole; those written removed again when one fails."""
    from fairshare_cli.errors import RuntimeFailure
    from fairshare_cli.io.atomic import atomic_write_text

    try:
        for name in EXAMPLE_FILES:
            try:
                data = (source / name).read_bytes()
            except OSError as exc:
                raise RuntimeFailure(
                    f"the installed sample pool lacks {name}: {exc.strerror}"
                ) from None
            # (bytes as they are, each file whole: the store was written in place, and a
            # full disk left a truncated one)
            atomic_write_text(targets[name], [data], "sample file", 0o644)
    except BaseException:
        _remove_new(new, made)
        raise


def _remove_new(files: list[Path], folder: Path | None) -> None:
    """Remove the sample files a failed ``--example`` wrote (and the folder it made): a full
    disk left half the sample pool."""
    import contextlib

    for path in files:
        with contextlib.suppress(OSError):
            path.unlink()
    if folder is not None:
        with contextlib.suppress(OSError):
            folder.rmdir()
