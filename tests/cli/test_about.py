"""A newcomer's first hour: init profiles, the example pool, --version, the docs."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from fairshare_cli.cli.about import EXAMPLE_FILES

REPO = Path(__file__).resolve().parents[2]
NOW = "2026-11-21T12:00:00Z"


@pytest.mark.parametrize(
    ("args", "profile", "prio_factor"),
    [
        pytest.param([], "current", 1000.0, id="default-is-current"),
        pytest.param(["--profile", "current"], "current", 1000.0, id="current"),
        pytest.param(["--profile", "legacy"], "legacy", 1.0, id="legacy"),
    ],
)
def test_init_profile_then_check(
    tmp_path: Path, run: Callable[..., Any], args: list[str], profile: str, prio_factor: float
) -> None:
    target = tmp_path / "fairshare.toml"
    assert run("init", str(target), *args).exit_code == 0
    assert f'defaults = "{profile}"' in target.read_text()
    check = run("config", "check", "--config", str(target))
    assert check.exit_code == 0, check.stderr
    assert check.stdout.splitlines()[0] == f'# profile "{profile}"'
    assert check.stderr == ""
    data = json.loads(run("config", "check", "--config", str(target), "--json").stdout)
    assert data["accountant"]["default_prio_factor"] == prio_factor


@pytest.mark.parametrize("profile", ["current", "legacy"])
def test_the_starters_commented_keys_name_both_profiles_defaults_truly(
    profile: str, tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``fs init``'s commented-out keys say their default under each profile, and say it
    as ``fs config check`` gives it (``# nice_user_prio_factor = 1e7`` showed the legacy
    value alone in a file that says ``defaults = "current"``, where it is 1e10)."""
    import re

    import tomli

    target = tmp_path / "fairshare.toml"
    assert run("init", str(target), "--profile", profile).exit_code == 0
    data = json.loads(run("config", "check", "--config", str(target), "--json").stdout)
    section, checked = "", []
    for line in target.read_text().splitlines():
        if line.startswith("["):
            section = line.strip("[]").split("]")[0]
        commented = re.match(r"# (\w+) = \S+ +# legacy (\S+), current (\S+?)\b", line)
        if commented is None:
            continue
        key, legacy, current = commented.groups()
        want = tomli.loads(f"v = {legacy if profile == 'legacy' else current}")["v"]
        assert data[section][key] == want, (section, key)
        checked.append(key)
    assert checked == [
        "default_prio_factor", "nice_user_prio_factor", "remote_prio_factor",
        "use_slot_weights", "allow_quota_oversubscription",
    ]  # fmt: skip


def test_check_warns_without_a_profile(
    write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    cfg = write_config("[pool]\nname = 'x'\n")
    check = run("config", "check", "--config", str(cfg))
    assert check.exit_code == 0
    assert check.stdout.splitlines()[0] == '# profile "legacy"'
    assert check.stderr.startswith(f"fs: warning: {cfg} sets no [pool] defaults")


def test_check_reads_the_file_once(
    write_config: Callable[[str], Path],
    run: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The config and the missing-defaults warning come from one read of the TOML."""
    import fairshare_cli.io.config as config_io

    reads: list[Path] = []
    real = config_io.read_toml

    def counting(path: Path) -> dict[str, Any]:
        reads.append(path)
        return real(path)

    monkeypatch.setattr(config_io, "read_toml", counting)
    cfg = write_config("[pool]\nname = 'x'\n")
    check = run("config", "check", "--config", str(cfg))
    assert check.exit_code == 0, check.stderr
    assert "sets no [pool] defaults" in check.stderr
    assert reads == [cfg]


def test_init_example_follows_the_readme(
    tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The sample pool written out prints what the repository's copy prints."""
    monkeypatch.chdir(tmp_path)
    result = run("init", "--example", "sample_configs")
    assert result.exit_code == 0, result.stderr
    for name in EXAMPLE_FILES:
        written = (tmp_path / "sample_configs" / name).read_bytes()
        assert written == (REPO / "sample_configs" / name).read_bytes()
    here = run("userprio", "--config", "sample_configs/pool.toml", "--now", NOW)
    repo = run("userprio", "--config", str(REPO / "sample_configs" / "pool.toml"), "--now", NOW)
    assert here.exit_code == 0 and here.stdout == repo.stdout
    again = run("init", "--example", "sample_configs")
    assert again.exit_code == 2 and "already exists; use --force" in again.stderr


def test_init_example_writes_every_sample_file_the_docs_use(
    tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every file of the repository's sample_configs/ is written, so that each session of
    the docs runs in a fresh folder: 'fs sweep sample_configs/sweep.toml --out /tmp/runs'
    (docs/sweep.md) was refused there, as the sweep spec was not written."""
    shipped = {p.name for p in (REPO / "sample_configs").iterdir() if p.suffix != ".lock"}
    assert set(EXAMPLE_FILES) == shipped
    monkeypatch.chdir(tmp_path)
    assert run("init", "--example", "sample_configs").exit_code == 0
    result = run("sweep", "sample_configs/sweep.toml", "--out", str(tmp_path / "runs"))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[-1].startswith("base ")


@pytest.mark.parametrize(
    ("extra", "shown"), [(["--profile", "legacy"], "--profile"), (["old-pool.toml"], "PATH")]
)
def test_init_example_refuses_the_starters_options(
    extra: list[str], shown: str, tmp_path: Path, run: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    """``fs init --example DIR --profile legacy`` wrote the sample pool as shipped (its
    config says ``defaults = "current"``) and ignored ``--profile``; a PATH was ignored as
    well. Now either is refused, exit 2, nothing written."""
    monkeypatch.chdir(tmp_path)
    result = run("init", "--example", "sample_configs", *extra)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.startswith(
        f"fs: error: {shown} shapes the starter config, which --example does not write"
    )
    assert list(tmp_path.iterdir()) == []


def test_version_names_versions_config_and_profile(
    write_config: Callable[[str], Path], run: Callable[..., Any]
) -> None:
    from importlib import metadata

    cfg = write_config('[pool]\ndefaults = "current"\n')
    result = run("--version", env={"FAIRSHARE_CONFIG": str(cfg)})
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0].startswith("fs (fairshare-cli) ")
    assert lines[1].startswith("Python 3.")
    assert lines[2].startswith(f"htcondor {metadata.version('htcondor')}")
    assert lines[3] == f"config: {cfg} (profile current)"
    docs = Path(lines[4].removeprefix("docs: "))
    assert (docs / "config.md").is_file()


def test_debug_is_listed_in_help(run: Callable[..., Any]) -> None:
    help_text = run("--help").stdout
    assert "--debug" in help_text and "--version" in help_text
    assert "fairshare" in help_text


def test_submit_is_quiet_unless_verbose(tmp_path: Path, run: Callable[..., Any]) -> None:
    args = ["--config", str(REPO / "sample_configs" / "pool.toml"), "--now", NOW]
    args += ["--state", str(tmp_path / "s.json")]
    many = run("submit", "--owner", "alice", "--count", "1000", *args)
    assert many.stdout == "Submitted 1000 jobs as cluster 1\n"
    one = run("submit", "--owner", "bob", "--count", "3", "-v", *args)
    assert one.stdout == "Submitted 3 jobs as cluster 2: 2.0, 2.1, 2.2\n"


def test_a_missing_state_folder_is_an_error(tmp_path: Path, run: Callable[..., Any]) -> None:
    state = tmp_path / "no" / "such" / "state.json"
    args = ["--config", str(REPO / "sample_configs" / "pool.toml"), "--now", NOW]
    args += ["--state", str(state)]
    for command in (["submit", "--owner", "a"], ["userprio"]):
        refused = run(*command, *args)
        assert refused.exit_code == 2
        assert refused.stderr == (
            f"fs: error: state folder {state.parent} does not exist; create it, or pass "
            "--create-dirs to let fs create it\n"
        )
    assert not state.parent.exists()
    made = run("submit", "--owner", "a", *args, "--create-dirs")
    assert made.exit_code == 0 and state.is_file()


def test_one_error_prefix(run: Callable[..., Any]) -> None:
    """Every message fs writes on stderr starts with ``fs:``, whatever the command."""
    import re

    pattern = re.compile(r'f?"(?:([a-z_]+): )?(error|warning|note): ')
    for path in (REPO / "fairshare_cli").rglob("*.py"):
        for prefix, _ in pattern.findall(path.read_text(encoding="utf-8")):
            assert prefix == "fs", f"{path}: '{prefix}:' prefix"
    bad = run("sprio", "-o", "%Z", "--config", str(REPO / "sample_configs" / "pool.toml"))
    assert bad.stderr.startswith("fs: error: Invalid job format specification")
    group = run("--bogus")
    assert group.exit_code == 2
    assert group.stderr.startswith("fs: error: No such option '--bogus'. (see '")
    assert len(group.stderr.splitlines()) == 1


def test_fairshare_is_the_same_program_with_its_own_completion() -> None:
    """``fairshare`` and ``fs`` name one entry point; each completes under its own name."""
    import sys

    from click.testing import CliRunner

    from fairshare_cli.cli.main import cli

    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib
    scripts = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts["fairshare"] == scripts["fs"] == "fairshare_cli.cli.entry:main"
    for prog in ("fs", "fairshare"):
        var = f"_{prog.upper()}_COMPLETE"
        result = CliRunner().invoke(cli, [], prog_name=prog, env={var: "bash_source"})
        assert result.exit_code == 0
        assert f"{var}=bash_complete" in result.stdout
        assert f"complete -o nosort -F _{prog}_completion {prog}" in result.stdout
    help_text = CliRunner().invoke(cli, ["--help"], prog_name="fairshare").stdout
    assert help_text.startswith("Usage: fairshare [OPTIONS] COMMAND [ARGS]...")


def test_version_with_a_config_folder_it_may_not_look_in(
    tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A service account with another user's HOME: looking for the default config raises
    PermissionError (here made by the test: it may run as root, who reads everything).
    ``fs --version`` says so on its config line; a view says it in one line, exit 2."""
    from fairshare_cli.io.paths import user_config_file

    monkeypatch.chdir(tmp_path)
    locked = user_config_file().parent
    real = Path.is_file

    def is_file(self: Path) -> bool:
        if locked in self.parents:
            raise PermissionError(13, "Permission denied", str(self))
        return real(self)

    monkeypatch.setattr(Path, "is_file", is_file)
    result = run("--version")
    assert result.exit_code == 0, result.stderr
    config_line = result.stdout.splitlines()[3]
    assert config_line == (
        f"config: cannot look for a config at {user_config_file()}: Permission denied; "
        "pass --config PATH (or set FAIRSHARE_CONFIG)"
    )
    view = run("userprio", "--now", NOW)
    assert view.exit_code == 2
    assert view.stderr == f"fs: error: {config_line.removeprefix('config: ')}\n"


def test_init_names_a_file_whose_name_is_not_utf8(tmp_path: Path) -> None:
    """``fs init $'\\xff.toml'`` crashed writing the name into the starter's comment (a
    UnicodeEncodeError traceback, exit 1); the comment shows U+FFFD and the config reads.
    (Run as a program: its output takes the name's byte as it came.)"""
    import subprocess
    import sys

    target = os.fsencode(tmp_path) + b"/\xff.toml"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    done = subprocess.run(
        [sys.executable, "-m", "fairshare_cli", "init", target],
        capture_output=True, env=env, timeout=60, check=False,
    )  # fmt: skip
    assert (done.returncode, done.stderr) == (0, b""), done.stderr
    assert done.stdout.startswith(b"Wrote a starter pool config (current profile) to ")
    text = Path(os.fsdecode(target)).read_text(encoding="utf-8")
    assert "fs config check --config " in text and "\ufffd.toml" in text
    from fairshare_cli.io.config import load_config

    assert load_config(Path(os.fsdecode(target))).pool.uid_domain


@pytest.mark.parametrize("existing", [False, True], ids=["new-folder", "folder-there"])
def test_init_example_on_a_full_disk_leaves_nothing(
    tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch, existing: bool
) -> None:
    """``fs init --example DIR`` whose disk filled up left the files written so far and a
    truncated ``sample-state.history.sqlite`` (written in place, not renamed whole). Now
    each file is written whole and a failure removes what the command wrote."""
    import errno

    from fairshare_cli.io import atomic

    real = atomic._write
    count = {"n": 0}

    def fills_up(fd: int, text: Any) -> None:
        count["n"] += 1
        if count["n"] == len(EXAMPLE_FILES):  # (the last one: the store)
            os.close(fd)
            raise OSError(errno.ENOSPC, "No space left on device")
        real(fd, text)

    monkeypatch.setattr(atomic, "_write", fills_up)
    folder = tmp_path / "ex"
    if existing:
        folder.mkdir()
        (folder / "mine.txt").write_text("kept")
    result = run("init", "--example", str(folder))
    assert (result.exit_code, result.stdout) == (1, "")
    last = "pool.toml" if existing else EXAMPLE_FILES[-1]  # (into a folder: the config last)
    assert result.stderr == (
        f"fs: error: cannot write sample file {folder / last}: No space left on device\n"
    )
    if existing:
        assert [p.name for p in folder.iterdir()] == ["mine.txt"]
    else:
        assert not folder.exists()


@pytest.mark.parametrize("tail", ["", "/sub"], ids=["folder", "below-it"])
def test_init_example_into_a_name_too_long_is_a_usage_error(
    tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch, tail: str
) -> None:
    """``fs init --example xxx...`` (300 characters, past the file system's 255): an
    OSError escaped to the last resort, exit 1 and the name echoed whole, where ``fs init
    xxx...`` says it in one short line, exit 2. Now as fs init PATH does."""
    monkeypatch.chdir(tmp_path)
    result = run("init", "--example", "x" * 300 + tail)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"fs: error: {'x' * 80}...: File name too long; give a shorter path\n"
    assert list(tmp_path.iterdir()) == []
