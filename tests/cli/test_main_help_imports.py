"""``fs --help`` and every ``fs CMD --help`` import no heavy module (help must stay under 0.1 s, benchmarks/README.md).

Help is printed before any work, so what a help run imports is all it costs beyond
starting Python: ``fs --help`` needs Click and the command list only; a command's help
needs that command's module, never the renderers (rich), HTCondor's bindings, orjson,
SQLite or tomlkit, which the commands import when they run. Each case runs in
a fresh interpreter and reads ``sys.modules`` after the help is printed (no timing).
"""

from __future__ import annotations

import json
import subprocess
import sys

import click

from fairshare_cli.cli.main import cli

HEAVY = ("rich", "htcondor", "classad", "orjson", "numpy", "sqlite3", "tomlkit")
"""Top-level packages no help may import. (msgspec is not among them: the config's records
are its structs, so a command whose module reads the config imports it; sixteen frozen
dataclasses cost more: ``fs delete --help`` ran 328 M instructions with them, 282 M with
the structs and msgspec.)"""

_PROBE = """
import json, os, runpy, sys
result = {}
for path in json.loads(sys.argv[1]):
    read, write = os.pipe()
    if os.fork() == 0:  # a fresh copy of this small interpreter per help
        os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
        sys.argv = ["fs", *path, "--help"]
        code = 1
        try:
            runpy.run_module("fairshare_cli", run_name="__main__")
        except SystemExit as exc:
            code = exc.code or 0
        os.write(write, json.dumps([code, sorted(sys.modules)]).encode())
        os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as fh:
        result[" ".join(path)] = json.loads(fh.read())
    os.wait()
print(json.dumps(result))
"""


def _modules_of(paths: list[list[str]]) -> dict[str, list[str]]:
    """Each help's imported modules (one interpreter, forked per help: cheap)."""
    out = subprocess.run(
        [sys.executable, "-c", _PROBE, json.dumps(paths)],
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, list[str]] = {}
    for name, (code, modules) in json.loads(out.stdout).items():
        assert code == 0, f"fs {name} --help exits {code}: {out.stderr}"
        result[name] = modules
    return result


def _command_paths() -> list[list[str]]:
    paths: list[list[str]] = []

    def walk(cmd: click.Command, path: list[str]) -> None:
        paths.append(path)
        if isinstance(cmd, click.Group):
            ctx = click.Context(cmd)
            for name in cmd.list_commands(ctx):
                sub = cmd.get_command(ctx, name)
                assert sub is not None
                walk(sub, [*path, name])

    walk(cli, [])
    return paths[1:]


def test_fs_help_imports_click_and_the_command_list_only() -> None:
    modules = _modules_of([[]])[""]
    assert [m for m in modules if m.startswith("fairshare_cli")] == [
        "fairshare_cli",
        "fairshare_cli.cli",
        "fairshare_cli.cli.entry",
        "fairshare_cli.cli.interrupts",  # (the Ctrl-C line and the SIGTERM handler: a leaf)
        "fairshare_cli.cli.main",
    ]
    assert not {m.split(".")[0] for m in modules} & {*HEAVY, "msgspec", "tomllib", "tomli"}


def test_command_help_imports_nothing_heavy() -> None:
    paths = _command_paths()
    assert len(paths) > 30  # every command and import kind
    found = {
        name: sorted({m.split(".")[0] for m in modules} & set(HEAVY))
        for name, modules in _modules_of(paths).items()
    }
    assert {name: heavy for name, heavy in found.items() if heavy} == {}
