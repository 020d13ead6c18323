"""``fs import condor-config FILE`` on files HTCondor stops or hangs on: ``if`` blocks nested
past ``ConfigIfStack``'s 63 levels, macros that refer back to themselves through other
knobs, a knob that names itself until it is too long, and a named pipe in ``include`` or a
``LOCAL_CONFIG_DIR``. Each is one line and exit 2, without a traceback or a wait.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from fairshare_cli.core.names import shown

Run = Callable[..., Any]


def _nested(depth: int) -> str:
    return "PRIORITY_HALFLIFE = 100\n" + "if false\n" * depth + "endif\n" * depth


def test_if_blocks_nest_63_deep(tmp_path: Path, run: Run) -> None:
    """``ConfigIfStack`` (config.cpp) keeps a level per bit of a 64-bit word whose lowest
    bit is the file: ``begin_if`` shifts ``top`` left and fails when it becomes 0, so the
    63rd nested ``if`` is read and the 64th is "if nesting too deep!". Before, fs read a
    thousand nested blocks, and a hundred thousand took minutes."""
    (tmp_path / "ok").write_text(_nested(63), encoding="utf-8")
    res = run("import", "condor-config", str(tmp_path / "ok"))
    assert res.exit_code == 0, res.stderr
    (tmp_path / "deep").write_text(_nested(64), encoding="utf-8")
    res = run("import", "condor-config", str(tmp_path / "deep"))
    assert res.exit_code == 2
    assert res.stderr == (
        f"fs: error: {tmp_path / 'deep'}:65: if nesting too deep: HTCondor stops on more "
        "than 63 nested if blocks\n"
    )


def test_a_macro_loop_is_named(tmp_path: Path, run: Run) -> None:
    """``A = $(B)``, ``B = $(A)``: ``expand_macro`` expands until no macro is left, which
    never happens. Before, fs said $(A) was set in no file read."""
    conf = tmp_path / "condor_config"
    conf.write_text("A = $(B)\nB = $(A)\nPRIORITY_HALFLIFE = $(A)100\n", encoding="utf-8")
    res = run("import", "condor-config", str(conf))
    assert res.exit_code == 2
    assert res.stderr == (
        f"fs: error: {conf}:1: A: $(A) refers back to itself (A -> B -> A): HTCondor's "
        "expansion of it never ends\n"
    )


def test_a_knob_doubling_itself_is_refused(tmp_path: Path, run: Run) -> None:
    """``X = $(X)$(X)`` puts X's earlier value in twice (``expand_self_macro``): forty such
    lines make it 2**40 characters. Before, fs ran out of memory; line 21 (X 2**20 long,
    1,048,576 characters) is the first over the bound of a million."""
    conf = tmp_path / "condor_config"
    conf.write_text(
        "X = 1\n" + "X = $(X)$(X)\n" * 40 + "PRIORITY_HALFLIFE = 100\n", encoding="utf-8"
    )
    res = run("import", "condor-config", str(conf))
    assert res.exit_code == 2
    assert res.stderr == (
        f"fs: error: {conf}:21: X: its earlier value, put in where it names itself, makes "
        "it longer than 1,000,000 characters\n"
    )


@pytest.mark.parametrize("how", ["include", "folder"])
def test_a_named_pipe_is_refused_not_waited_on(tmp_path: Path, run: Run, how: str) -> None:
    """A FIFO that no one writes: opened, it waits for ever. Before, fs hung."""
    (tmp_path / "config.d").mkdir()
    fifo = tmp_path / "config.d" / "pipe"
    os.mkfifo(fifo)
    conf = tmp_path / "condor_config"
    line = f"include : {fifo}" if how == "include" else f"LOCAL_CONFIG_DIR = {fifo.parent}"
    conf.write_text(f"PRIORITY_HALFLIFE = 100\n{line}\n", encoding="utf-8")
    res = run("import", "condor-config", str(conf))
    assert res.exit_code == 2
    name = shown(str(fifo))  # (a long path shown cut)
    said = f"{conf}:2: cannot include {name}" if how == "include" else f"{name}: cannot read it"
    assert res.stderr == f"fs: error: {said}: a named pipe or socket, not a file\n"


def test_a_huge_knob_expression_is_refused_before_classad2(tmp_path: Path, run: Run) -> None:
    """``PRIORITY_HALFLIFE = 1+1+...+1`` of 200,000 terms (399,999 characters) crashed fs
    with a segmentation fault inside classad2's parser; 151 terms (150 operators) still
    evaluate. The bounds are fs's for every ClassAd expression (20,000 characters, 150
    operators and brackets)."""
    conf = tmp_path / "condor_config"
    conf.write_text("PRIORITY_HALFLIFE = " + "+".join(["1"] * 151) + "\n", encoding="utf-8")
    res = run("import", "condor-config", str(conf))
    assert res.exit_code == 0, res.stderr
    assert "priority_halflife = 151\n" in res.stdout
    conf.write_text("PRIORITY_HALFLIFE = " + "+".join(["1"] * 200_000) + "\n", encoding="utf-8")
    res = run("import", "condor-config", str(conf))
    assert res.exit_code == 2
    assert res.stderr == (
        f"fs: error: {conf}:1: PRIORITY_HALFLIFE: '{'1+' * 40}...': expression of 399,999 "
        "characters; at most 20,000 are allowed\n"
    )


@pytest.mark.parametrize(("files", "refused"), [(20, False), (21, True)])
def test_includes_nest_as_deep_as_htcondors(
    tmp_path: Path, run: Run, files: int, refused: bool
) -> None:
    """``Parse_macros`` reads the main file at depth 0 and an include at depth + 1, and
    refuses an include when depth + 1 >= ``CONFIG_MAX_NESTING_DEPTH`` (20): a chain of 20
    files (the last at depth 19) is read, a 21st file is refused from the 20th's include
    line (an include loop ends there too). Before, fs read one file more."""
    for n in range(files - 1):
        (tmp_path / f"c{n}").write_text(f"include : c{n + 1}\n", encoding="utf-8")
    (tmp_path / f"c{files - 1}").write_text("PRIORITY_HALFLIFE = 100\n", encoding="utf-8")
    res = run("import", "condor-config", str(tmp_path / "c0"))
    if not refused:
        assert res.exit_code == 0, res.stderr
        return
    assert res.exit_code == 2
    assert res.stderr == f"fs: error: {tmp_path / 'c19'}:1: includes nested too deep\n"


def test_files_read_are_counted(tmp_path: Path, run: Run) -> None:
    """A folder of 10,000 files is read; the same folder named three times in
    ``LOCAL_CONFIG_DIR`` is 30,000 reads (50 times took minutes), refused at the
    20,001st: the folder's first file on its third reading."""
    folder = tmp_path / "config.d"
    folder.mkdir()
    for n in range(10_000):
        (folder / f"f{n:05}").write_text(f"X{n} = {n}\n", encoding="utf-8")
    conf = tmp_path / "condor_config"
    conf.write_text(f"PRIORITY_HALFLIFE = 100\nLOCAL_CONFIG_DIR = {folder}\n", encoding="utf-8")
    res = run("import", "condor-config", str(conf))
    assert res.exit_code == 0, res.stderr
    conf.write_text(
        f"PRIORITY_HALFLIFE = 100\nLOCAL_CONFIG_DIR = {folder} {folder} {folder}\n",
        encoding="utf-8",
    )
    res = run("import", "condor-config", str(conf))
    assert res.exit_code == 2
    assert res.stderr == (
        f"fs: error: {shown(str(folder / 'f00000'))}: more than 20,000 configuration files "
        "read (each include and LOCAL_CONFIG_DIR file counted each time it is read)\n"
    )


def test_a_value_of_many_unclosed_macros_is_refused(tmp_path: Path, run: Run) -> None:
    """``X = $(A:$(A:...`` 30,000 times: each unclosed ``$(`` is read up to the text's end
    (``next_config_macro`` too), so the expansion took seconds, and minutes for more.
    10,000 are read (less than a second); one more is refused."""
    conf = tmp_path / "condor_config"
    conf.write_text("PRIORITY_HALFLIFE = 1\nX = " + "$(A:" * 10_000 + "1\n", encoding="utf-8")
    res = run("import", "condor-config", str(conf))
    assert res.exit_code == 0, res.stderr
    conf.write_text("PRIORITY_HALFLIFE = 1\nX = " + "$(A:" * 30_000 + "1\n", encoding="utf-8")
    res = run("import", "condor-config", str(conf))
    assert res.exit_code == 2
    assert res.stderr == (
        f"fs: error: {conf}:2: X: it holds, or expands to, more than 10,000 '$('\n"
    )
