"""tools/readme_sessions.py: the console sessions of README.md and docs/*.md print what fs prints."""

from __future__ import annotations

import sys
from pathlib import Path
from types import ModuleType

import pytest

REPO = Path(__file__).resolve().parents[2]


def _tool() -> ModuleType:
    sys.path.insert(0, str(REPO / "tools"))
    try:
        import readme_sessions
    finally:
        sys.path.pop(0)
    return readme_sessions


readme_sessions = _tool()


def test_session_files_are_the_readme_and_every_doc_with_a_session() -> None:
    files = readme_sessions.session_files()
    assert files[0] == REPO / "README.md"
    with_sessions = {
        p for p in (REPO / "docs").glob("*.md") if "```console" in p.read_text(encoding="utf-8")
    }
    assert set(files[1:]) == with_sessions
    for name in ("htcondor.md", "slurm.md", "dirac.md", "whatif-and-simulate.md"):
        assert REPO / "docs" / name in with_sessions, name


@pytest.mark.parametrize(
    "path",
    readme_sessions.session_files(),
    ids=lambda p: str(p.relative_to(REPO)),
)
def test_sessions_print_what_fs_prints(path: Path) -> None:
    """Every ```console session runs as written and prints what it shows."""
    problems = readme_sessions.check([path])
    assert not problems, "\n\n".join(problems[:3])


def test_a_wrong_output_is_reported_with_its_file(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("```console\n$ echo one\none\n$ echo two\nthree\n```\n", encoding="utf-8")
    problems = readme_sessions.check([page])
    assert len(problems) == 1
    assert "$ echo two" in problems[0] and str(page) in problems[0]


def test_update_rewrites_the_output(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("Text.\n\n```console\n$ echo two\nthree\n```\n", encoding="utf-8")
    readme_sessions.update([page])
    assert page.read_text(encoding="utf-8") == "Text.\n\n```console\n$ echo two\ntwo\n```\n"
    assert readme_sessions.check([page]) == []


def test_files_run_in_scratch_folders_of_their_own(tmp_path: Path) -> None:
    """A file cannot lean on what another file's session wrote to /tmp/."""
    first, second = tmp_path / "a.md", tmp_path / "b.md"
    first.write_text("```console\n$ echo x > /tmp/left.txt\n```\n", encoding="utf-8")
    second.write_text("```console\n$ ls /tmp/left.txt 2>/dev/null\n```\n", encoding="utf-8")
    assert readme_sessions.check([first, second]) == []


@pytest.mark.parametrize(
    ("expected", "actual", "ok"),
    [
        ("a\nb", "a\nb  ", True),
        ("a\n...\nz", "a\nb\nc\nz", True),
        ("a\n...\nz", "a\nb\nc", False),
        ("a", "b", False),
    ],
)
def test_matches(expected: str, actual: str, ok: bool) -> None:
    assert readme_sessions.matches(expected, actual) is ok
