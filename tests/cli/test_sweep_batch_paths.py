"""``fs sweep --engine htcondor|slurm`` into a folder whose path has a space, ``#`` or ``%``:
the DAG and the ``#SBATCH`` lines name it as DAGMan and sbatch read them."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.test_sweep import write_spec


@pytest.fixture
def spec(tmp_path: Path) -> Path:
    return write_spec(tmp_path)


def _dag_file_name(line: str) -> str:
    """The submit file a DAG's JOB or FINAL line names, read as DAGMan's parse.cpp does
    (``next_possibly_quoted_token``: a token, or what stands between double quotes)."""
    rest = line.split(None, 2)[2].lstrip(" \t")
    if rest.startswith('"'):
        return rest[1:].split('"', 1)[0]
    return rest.split()[0]


def _sbatch_argument(text: str) -> str:
    """One ``#SBATCH`` argument read as sbatch's ``_get_argument`` reads it: quotes group,
    a backslash escapes, an unquoted ``#`` ends the line."""
    out, quote, escape = [], "", False
    for ch in text.lstrip():
        if escape:
            out.append(ch)
            escape = False
        elif ch == "\\":
            escape = True
        elif quote:
            if ch == quote:
                quote = ""
            else:
                out.append(ch)
        elif ch in "\"'":
            quote = ch
        elif ch == "#" or ch.isspace():
            break
        else:
            out.append(ch)
    return "".join(out)


def test_a_dag_names_submit_files_in_a_folder_with_a_space(
    spec: Path, tmp_path: Path, run: Callable[..., Any]
) -> None:
    """fs sweep SPEC --out 'my runs' --engine htcondor wrote 'JOB points .../my runs/sweep.sub',
    which DAGMan reads as the file '.../my'."""
    out = (tmp_path / "my runs").resolve()
    result = run("sweep", str(spec), "--out", str(out), "--engine", "htcondor")
    assert result.exit_code == 0, result.stderr
    lines = (out / "sweep.dag").read_text(encoding="utf-8").splitlines()[1:]
    assert [_dag_file_name(line) for line in lines] == [
        str(out / "sweep.sub"),
        str(out / "collect.sub"),
    ]


def test_a_dag_cannot_name_a_folder_with_a_double_quote(
    spec: Path, tmp_path: Path, run: Callable[..., Any]
) -> None:
    out = tmp_path / 'say "hi"'
    result = run("sweep", str(spec), "--out", str(out), "--engine", "htcondor")
    assert result.exit_code == 2, result.stderr
    assert result.stderr.startswith("fs: error: ") and len(result.stderr.splitlines()) == 1
    assert "double quote" in result.stderr
    assert not (out / "sweep.dag").exists() and not (out / "sweep.sub").exists()


def test_sbatch_lines_name_a_folder_with_a_space_a_hash_a_percent_and_a_backslash(
    spec: Path, tmp_path: Path, run: Callable[..., Any]
) -> None:
    """fs sweep SPEC --out 'runs #1 at 100%' --engine slurm wrote '#SBATCH
    --output=.../runs #1 at 100%/logs/task-%a.out', which sbatch cuts at the space; and a
    folder with a backslash had no --output that worked: slurmstepd's expand_stdio_fields
    (src/common/print_fields.c) drops every backslash of a pattern that has one and
    expands no %a. The jobs run in the folder now (--chdir, read as a path, no pattern),
    their logs named from there (expand_stdio_fields puts the job's working directory
    before a relative pattern, unexpanded)."""
    out = (tmp_path / "runs #1 at 100% \\ 'q'").resolve()
    assert run("sweep", str(spec), "--out", str(out), "--engine", "slurm").exit_code == 0
    for name, log in (("sweep.sbatch", "task-%a.out"), ("collect.sbatch", "collect.out")):
        lines = (out / name).read_text(encoding="utf-8").splitlines()
        chdir = next(x for x in lines if x.startswith("#SBATCH --chdir="))
        assert _sbatch_argument(chdir.removeprefix("#SBATCH --chdir=")) == str(out)
        assert f"#SBATCH --output=logs/{log}" in lines


def _condor_arguments(value: str) -> list[str]:
    """A submit file's ``arguments`` in the new syntax, read as condor_arglist.cpp reads
    it: ``V2QuotedToV2Raw`` (the outer double quotes off, ``""`` a quote), then
    ``split_args`` (blanks split, single quotes group, ``''`` a quote)."""
    raw = value.strip()
    assert raw[0] == '"' and raw[-1] == '"'
    raw = raw[1:-1].replace('""', '"')
    words, word, quoted, started, k = [], "", False, False, 0
    while k < len(raw):
        ch = raw[k]
        if quoted and ch == "'" and raw[k + 1 : k + 2] == "'":
            word, k = word + "'", k + 2
            continue
        if ch == "'":
            quoted, started = not quoted, True
        elif ch in " \t\r\n" and not quoted:
            if started:
                words.append(word)
            word, started = "", False
        else:
            word, started = word + ch, True
        k += 1
    if started:
        words.append(word)
    return words


def test_submit_files_keep_a_dollar_in_a_path_as_it_is(
    spec: Path, tmp_path: Path, run: Callable[..., Any]
) -> None:
    """fs sweep SPEC --out 'runs $5' --engine htcondor --html 'pages $(HOME)/p.html' wrote
    the paths into initialdir and arguments as they are, and condor_submit expanded
    $(HOME) (to nothing, an unknown submit macro): the collect wrote its page elsewhere.
    Now ``$`` is $(DOLLAR) and ``$$`` is $$(DOLLARDOLLAR): the bindings' own expansion
    gives the paths back (the schedd turns $$(DOLLARDOLLAR) into $$ at match time,
    qmgmt.cpp), so a $$(Memory) is not the machine's memory either."""
    htcondor2 = pytest.importorskip("htcondor2")
    out = (tmp_path / "runs $5 $$x 'q'").resolve()
    pages = tmp_path / "pages $(HOME) $$(Memory)"
    pages.mkdir()
    page = str(pages / "p.html")
    result = run("sweep", str(spec), "--out", str(out), "--engine", "htcondor", "--html", page)
    assert result.exit_code == 0, result.stderr

    def matched(text: str) -> str:  # (the schedd's $$ expansion of DOLLARDOLLAR)
        return text.replace("$$(DOLLARDOLLAR)", "$$")

    point = htcondor2.Submit((out / "sweep.sub").read_text(encoding="utf-8"))
    assert [d["point"] for d in point.itemdata()] == ["0", "1", "2", "3", "4"]
    point["point"] = "3"  # (one item's macro, as condor_submit sets it)
    assert matched(point.expand("initialdir")) == str(out)
    assert point.expand("output") == "logs/point-3.out"
    assert _condor_arguments(matched(point.expand("arguments"))) == [
        "-m", "fairshare_cli", "sweep", "run-point", str(out), "3"
    ]  # fmt: skip
    assert point.expand("executable") == sys.executable
    collect = htcondor2.Submit((out / "collect.sub").read_text(encoding="utf-8"))
    assert matched(collect.expand("initialdir")) == str(out)
    assert _condor_arguments(matched(collect.expand("arguments"))) == [
        "-m", "fairshare_cli", "sweep", "collect", str(out),
        "--html", page, "--output", "json",
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("engine", "name", "why"),
    [
        pytest.param("slurm", "runs\nnext", "a line break", id="slurm-line-break"),
        pytest.param("htcondor", "runs\nqueue", "a line break", id="htcondor-line-break"),
        pytest.param("htcondor", "runs ", "a blank or a backslash at its end", id="blank"),
        pytest.param("htcondor", "runs\\", "a blank or a backslash at its end", id="bs"),
        pytest.param("htcondor", "runs $(HOME)", "a macro", id="macro"),
        pytest.param("htcondor", "runs $ENV(HOME)", "a macro", id="env-macro"),
    ],
)
def test_a_folder_a_batch_file_cannot_name_is_refused(
    engine: str, name: str, why: str, spec: Path, tmp_path: Path, run: Callable[..., Any]
) -> None:
    """fs sweep SPEC --out 'runs\\n...' wrote a line break into every batch file (a
    submit file's next line, a script's command); --out 'runs ' --engine htcondor wrote
    'initialdir = .../runs ', which condor_submit trims to .../runs, and 'runs\\' one
    that goes on to the next line; --out 'runs $(HOME)' --engine htcondor a DAG that
    condor_submit_dag names as it is in DAGMan's own submit description, whose $(HOME)
    condor_submit expands (htcondor2.Submit.from_dag's description shows it). Each is
    refused, writing nothing."""
    out = tmp_path / name
    result = run("sweep", str(spec), "--out", str(out), "--engine", engine)
    assert result.exit_code == 2, result.stderr
    assert result.stderr.startswith("fs: error: --out ") and why in result.stderr
    assert len(result.stderr.splitlines()) == 1
    assert "Traceback" not in result.stderr
    assert not out.exists()


def test_a_pythonpath_a_submit_file_cannot_name_is_refused(
    spec: Path, tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """fs sweep SPEC --out runs --engine htcondor with PYTHONPATH=$'/opt/a\\nb' wrote the
    submit files' environment line broken in two ('b'"' a line of its own, which
    condor_submit reads as another statement). Refused, writing nothing; the Slurm
    scripts name no PYTHONPATH (a Slurm job gets the submitter's environment)."""
    monkeypatch.setenv("PYTHONPATH", "/opt/a\nb")
    out = tmp_path / "runs"
    result = run("sweep", str(spec), "--out", str(out), "--engine", "htcondor")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        "fs: error: PYTHONPATH '/opt/a\\nb': the htcondor batch files cannot name a path with"
        " a line break or another control character in it\n"
    )
    assert not out.exists()
    assert run("sweep", str(spec), "--out", str(out), "--engine", "slurm").exit_code == 0
