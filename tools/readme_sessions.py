"""Run the console sessions of README.md and docs/*.md and compare (or rewrite) their output.

    python tools/readme_sessions.py --check             # exit 1 if any output differs
    python tools/readme_sessions.py --update            # rewrite the files with what fs prints now
    python tools/readme_sessions.py --check docs/slurm.md   # only these files

A session is a ```console block: lines starting with ``$ `` are run with bash from the
repository root (``/tmp/`` becomes a scratch folder, one per file, ``TZ=UTC``); the lines
after a command, up to the next command, are its expected output. Each file's sessions run
in order and may use what an earlier session of the same file wrote. The tests call
:func:`check` once per file of :func:`session_files`.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
README = REPO / "README.md"
DOCS = REPO / "docs"
BLOCK = re.compile(r"```console\n(.*?)```", re.S)


def _fs_shim(folder: Path) -> None:
    """Make ``fs`` and ``fairshare`` run this checkout, installed or not."""
    for name in ("fs", "fairshare"):
        shim = folder / name
        run = f"import sys; sys.argv[0] = '{name}'; from fairshare_cli.cli.main import cli; cli()"
        shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -c "{run}" "$@"\n')
        shim.chmod(0o755)


def run_block(text: str, scratch: Path, bindir: Path) -> list[tuple[str, str, str]]:
    """(command, expected, actual) for each command of one console block."""
    out: list[tuple[str, str, str]] = []
    lines = text.splitlines()
    i = 0
    env = {
        **os.environ,
        "TZ": "UTC",
        "COLUMNS": "200",
        "PYTHONPATH": str(REPO),
        "PATH": f"{bindir}{os.pathsep}{os.environ.get('PATH', '')}",
    }
    for var in ("FAIRSHARE_CONFIG", "FAIRSHARE_STATE", "FAIRSHARE_NOW"):
        env.pop(var, None)
    while i < len(lines):
        if not lines[i].startswith("$ "):
            i += 1
            continue
        cmd = lines[i][2:]
        j = i + 1
        while j < len(lines) and not lines[j].startswith("$ "):
            j += 1
        expected = "\n".join(lines[i + 1 : j])
        real = cmd.replace("/tmp/", f"{scratch}/")
        proc = subprocess.run(
            ["bash", "-c", real], cwd=REPO, env=env, capture_output=True, text=True, check=False
        )
        actual = (proc.stdout + proc.stderr).replace(f"{scratch}/", "/tmp/").rstrip("\n")
        out.append((cmd, expected, actual))
        i = j
    return out


def _norm(text: str) -> list[str]:
    return [line.rstrip() for line in text.rstrip("\n").splitlines()]


def matches(expected: str, actual: str) -> bool:
    """Line-by-line equality (trailing spaces ignored); a line ``...`` stands for any lines."""
    want, got = _norm(expected), _norm(actual)
    if "..." not in want:
        return want == got
    segments: list[list[str]] = [[]]
    for line in want:
        if line == "...":
            segments.append([])
        else:
            segments[-1].append(line)
    pos = 0
    for k, seg in enumerate(segments):
        if not seg:
            continue
        if k == 0:
            if got[: len(seg)] != seg:
                return False
            pos = len(seg)
            continue
        last = k == len(segments) - 1
        found = -1
        for start in range(pos, len(got) - len(seg) + 1):
            if got[start : start + len(seg)] == seg and (not last or start + len(seg) == len(got)):
                found = start
                break
        if found < 0:
            return False
        pos = found + len(seg)
    return True


def session_files() -> list[Path]:
    """README.md and every docs/*.md that holds a console session, in a stable order."""
    docs = sorted(p for p in DOCS.glob("*.md") if "```console" in p.read_text(encoding="utf-8"))
    return [README, *docs]


def _name(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(REPO))
    except ValueError:
        return str(path)


def check_file(path: Path) -> list[str]:
    """Differences between one file's sessions and what runs now (empty if none)."""
    problems: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp)
        _fs_shim(scratch)
        for block in BLOCK.findall(path.read_text(encoding="utf-8")):
            for cmd, expected, actual in run_block(block, scratch, scratch):
                if not matches(expected, actual):
                    problems.append(
                        f"{_name(path)}: $ {cmd}\n--- file\n{expected}\n--- now\n{actual}"
                    )
    return problems


def check(paths: Sequence[Path] | None = None) -> list[str]:
    """Differences in every file of ``paths`` (default :func:`session_files`); empty if none."""
    problems: list[str] = []
    for path in session_files() if paths is None else paths:
        problems += check_file(path)
    return problems


def update_file(path: Path) -> None:
    """Rewrite every session's output in one file with what the commands print now."""
    text = path.read_text(encoding="utf-8")
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp)
        _fs_shim(scratch)

        def redo(m: re.Match[str]) -> str:
            parts = []
            for cmd, expected, actual in run_block(m.group(1), scratch, scratch):
                if "..." in _norm(expected) and matches(expected, actual):
                    actual = expected  # keep a deliberately shortened listing
                parts.append(f"$ {cmd}" + (f"\n{actual}" if actual else ""))
            return "```console\n" + "\n".join(parts) + "\n```"

        text = BLOCK.sub(redo, text)
    path.write_text(text, encoding="utf-8")


def update(paths: Sequence[Path] | None = None) -> None:
    """Rewrite the sessions of every file of ``paths`` (default :func:`session_files`)."""
    for path in session_files() if paths is None else paths:
        update_file(path)


def main() -> None:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="compare (the default)")
    mode.add_argument("--update", action="store_true", help="rewrite the outputs")
    p.add_argument("files", nargs="*", type=Path, help="default: README.md and docs/*.md")
    a = p.parse_args()
    paths = a.files or None
    if a.update:
        update(paths)
        return
    problems = check(paths)
    for problem in problems:
        print(problem, end="\n\n")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    shutil.which("bash") or sys.exit("needs bash")
    main()
