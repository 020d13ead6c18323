"""README.md and docs/: the README stays a front door (short, every command in one table), every
config key the reader accepts is documented, every link resolves, nothing points outside the repo."""

from __future__ import annotations

import ast
import importlib
import pkgutil
import re
import shlex
from pathlib import Path
from typing import Any

import click
import pytest

from fairshare_cli.cli.main import _COMMANDS, cli
from fairshare_cli.io.config import build_config
from fairshare_cli.io.knob_aliases import KNOBS, table_pattern

REPO = Path(__file__).resolve().parent.parent
DOCS = REPO / "docs"
README = REPO / "README.md"
#: Every page a reader may follow a link from.
PAGES = [README, *sorted(DOCS.glob("*.md")), REPO / "benchmarks" / "README.md"]

#: One of every table the reader knows, so that every allowed-key table gets consulted.
EVERY_TABLE: dict[str, Any] = {
    "pool": {},
    "accountant": {},
    "negotiator": {},
    "machines": [{"name": "m"}],
    "groups": {"g": {}},
    "priority": {"weights": {}},
    "partitions": {"p": {}},
    "qos": {"q": {}},
    "accounts": {"a": {}},
    "dirac": {
        "groups": {"d": {}},
        "correction": {"instances": [{"slices": [{"weight": 1}]}]},
    },
}
#: Tables whose keys are names the admin chooses, not config keys.
NAMED = {"groups", "partitions", "qos", "accounts", "dirac.groups"}


def _reader_class() -> Any:
    """The config reader's table checker (``Reader``), wherever the package keeps it."""
    package = importlib.import_module("fairshare_cli.io.config")
    modules = [package]
    for info in pkgutil.walk_packages(getattr(package, "__path__", []), package.__name__ + "."):
        modules.append(importlib.import_module(info.name))
    for module in modules:
        for name in ("Reader", "_Reader"):
            found = getattr(module, name, None)
            if isinstance(found, type):
                return found
    raise AssertionError("the config reader has no Reader class any more")


def accepted_keys(monkeypatch: pytest.MonkeyPatch) -> set[str]:
    """Every dotted key the reader accepts, taken from its own allowed-key tables."""
    reader = _reader_class()
    seen: list[tuple[str, tuple[str, ...]]] = []
    original = reader.__init__

    def record(self: Any, table: Any, where: str, file: str, allowed: tuple[str, ...]) -> None:
        seen.append((where, tuple(allowed)))
        original(self, table, where, file, allowed)

    monkeypatch.setattr(reader, "__init__", record)
    build_config(EVERY_TABLE, "every-table.toml")
    keys = set()
    for where, allowed in seen:
        pattern = table_pattern(where)
        if pattern in NAMED:
            continue
        table = pattern.replace("*", "<name>")
        for key in allowed:
            keys.add(f"{table}.{key}" if table else key)
    return keys


def test_every_config_key_is_in_docs_config(monkeypatch: pytest.MonkeyPatch) -> None:
    keys = accepted_keys(monkeypatch)
    assert "accountant.priority_halflife" in keys and "groups.<name>.quota" in keys
    assert "dirac.correction.instances.slices.time_span" in keys
    text = (DOCS / "config.md").read_text(encoding="utf-8")
    top = {k for k in keys if "." not in k}
    missing = sorted(k for k in keys - top if f"`{k}`" not in text and f"[{k}]" not in text)
    assert missing == [], f"docs/config.md lacks {missing}"
    assert sorted(k for k in top if f"[{k}" not in text and f"[[{k}" not in text) == []


def test_every_knob_alias_is_in_docs_config() -> None:
    text = (DOCS / "config.md").read_text(encoding="utf-8")
    for knobs in KNOBS.values():
        for knob in knobs:
            assert knob in text, f"docs/config.md does not name the knob {knob}"


def test_docs_exist_and_ship() -> None:
    for name in ("config.md", "jobs.md", "state.md", "json.md", "exit-codes.md"):
        assert (DOCS / name).is_file(), name
    shipped = REPO / "fairshare_cli" / "docs"
    assert shipped.resolve() == DOCS.resolve()  # the package's docs/ is the repo's


def test_readme_is_at_most_250_lines() -> None:
    lines = README.read_text(encoding="utf-8").count("\n")
    assert lines <= 250, f"README.md has {lines} lines; move tutorials and reference to docs/"


def test_readme_starts_with_the_two_set_up_commands() -> None:
    """The first lines install and run fs on the sample pool, then run the tests as .ci/run does."""
    head = README.read_text(encoding="utf-8").splitlines()[:6]
    assert head[2] == "```bash"
    assert head[3].startswith("python -m pip install -e . && fs ")
    assert "sample_configs/pool.toml" in head[3]
    assert head[4] == "python -m pip install -e '.[test]' && python -m pytest -n auto"
    assert "python -m pytest -n auto" in (REPO / ".ci" / "run").read_text(encoding="utf-8")


def commands_in_code_blocks() -> list[tuple[str, list[str], dict[str, str]]]:
    """Each ``fs`` or ``fairshare`` command of the pages' code blocks other than console
    sessions (which tools/readme_sessions.py runs): (page, words, environment), taken out
    of ``A && B``, ``A | B`` and ``eval "$(...)"``, comments dropped."""
    found = []
    for page in [README, *sorted(DOCS.glob("*.md"))]:
        text = page.read_text(encoding="utf-8")
        for lang, body in re.findall(r"```(\w*)\n(.*?)```", text, flags=re.S):
            if lang == "console":
                continue
            for line in body.splitlines():
                line = line.split("  #")[0]
                inner = re.search(r"\$\((.*)\)", line)
                for part in re.split(r"&&|\|", inner.group(1) if inner else line):
                    if not re.match(r"\s*([A-Z_]+=\S*\s+)*(fs|fairshare)(\s|$)", part):
                        continue  # (not a command: a tree, a message, JSON)
                    words = shlex.split(part)
                    env = {}
                    while words and re.match(r"[A-Z_]+=", words[0]):
                        key, _, value = words.pop(0).partition("=")
                        env[key] = value
                    if words and words[0] in ("fs", "fairshare"):
                        found.append((page.name, words, env))
    return found


def test_every_command_of_a_code_block_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """The README's first line (``fs userprio --config sample_configs/pool.toml --now ...``)
    and its completion lines for zsh and fish ran in no test: only console sessions did."""
    from click.testing import CliRunner

    monkeypatch.chdir(REPO)
    commands = commands_in_code_blocks()
    assert [env for _, _, env in commands if env] == [
        {"_FAIRSHARE_COMPLETE": shell} for shell in ("bash_source", "zsh_source", "fish_source")
    ]
    assert commands[0][1][1:4] == ["userprio", "--config", "sample_configs/pool.toml"]
    for page, words, env in commands:
        result = CliRunner().invoke(cli, words[1:], prog_name=words[0], env=env)
        assert result.exit_code == 0, (page, words, result.output)
        assert result.stdout.strip(), (page, words)


def _command_names() -> list[str]:
    ctx = click.Context(cli)
    names: list[str] = []
    for name in _COMMANDS:
        cmd = cli.get_command(ctx, name)
        assert cmd is not None, name
        if isinstance(cmd, click.Group):
            names += [f"{name} {sub}" for sub in cmd.list_commands(click.Context(cmd, parent=ctx))]
        else:
            names.append(name)
    return names


def _section(text: str, heading: str) -> str:
    start = text.index(f"\n## {heading}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end >= 0 else len(text)]


@pytest.mark.parametrize("name", _command_names())
def test_every_command_is_in_the_readme_table_and_in_docs(name: str) -> None:
    """The README's Commands table names every command; docs/ tells how to use it."""
    table = _section(README.read_text(encoding="utf-8"), "Commands")
    assert f"`fs {name}" in table, f"fs {name} is not in the README's Commands table"
    docs = "".join(p.read_text(encoding="utf-8") for p in DOCS.glob("*.md"))
    assert f"fs {name}" in docs, f"fs {name} is in no page of docs/"


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    seen: dict[str, int] = {}
    found = set()
    for heading in re.findall(r"^#{1,6} (.+)$", text, flags=re.M):
        base = slug(heading)
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def links(page: Path) -> list[str]:
    """The targets of the page's Markdown links, outside code blocks and code spans."""
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    text = re.sub(r"`[^`\n]*`", "", text)
    return re.findall(r"\]\(([^)\s]+)\)", text)


def test_slugs_follow_github() -> None:
    assert slug("`[pool]`") == "pool"
    assert (
        slug("What-if and simulation: trying a policy") == "what-if-and-simulation-trying-a-policy"
    )
    assert slug("`fs taskqueues`") == "fs-taskqueues"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(REPO)))
def test_every_relative_link_resolves(page: Path) -> None:
    """A relative link names a file of the repository; its #anchor names a heading there."""
    assert page.is_file(), page
    broken = []
    for target in links(page):
        if re.match(r"[a-z]+:", target):
            continue  # https:, mailto:
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists() or (anchor and file.suffix == ".md" and anchor not in anchors(file)):
            broken.append(target)
    assert broken == [], f"{page.relative_to(REPO)}: broken links {broken}"


def test_nothing_points_outside_the_repo() -> None:
    """No DESIGN document, no section numbers of documents users do not have."""
    paths = [REPO / "README.md", *DOCS.glob("*.md")]
    paths += [p for p in (REPO / "fairshare_cli").rglob("*.py")]
    for path in paths:
        text = path.read_text(encoding="utf-8")
        assert "DESIGN" not in text, path
        if path.suffix == ".md":
            assert "§" not in text, path


@pytest.mark.parametrize(
    ("expression", "ok"),
    [
        pytest.param("1" + " + 1" * 150, True, id="150-operators"),
        pytest.param("1" + " + 1" * 151, False, id="151-operators"),
        pytest.param("a" + " && a" * 75, True, id="75-ands-count-150"),
        pytest.param("a" + " && a" * 76, False, id="76-ands-count-152"),
        pytest.param("f(" + ", ".join(["1"] * 200) + ")", True, id="commas-free"),
        pytest.param('"' + "+" * 19_998 + '"', True, id="20000-chars-strings-free"),
        pytest.param('"' + "+" * 19_999 + '"', False, id="20001-chars"),
    ],
)
def test_documented_expression_limits(
    expression: str, ok: bool, write_config: Any, run: Any
) -> None:
    """docs/config.md's limits are the ones enforced: 20,000 characters; 150 operator
    characters and opening brackets (``&&`` two, commas and string contents none)."""
    from fairshare_cli.core.htcondor import classad_text

    text = (DOCS / "config.md").read_text()
    assert f"{classad_text.MAX_EXPRESSION_LENGTH:,} characters" in text
    assert f"at most {classad_text.MAX_EXPRESSION_OPERATORS}\noperator characters" in text
    assert "20,000 characters and 150 operator" in (DOCS / "jobs.md").read_text()
    cfg = write_config(f"[negotiator]\nslot_weight = '{expression}'\n")
    res = run("config", "check", "--config", str(cfg))
    assert res.exit_code == (0 if ok else 2), res.stderr
    if not ok:
        assert "slot_weight" in res.stderr and len(res.stderr.splitlines()) == 1


def test_architecture_names_every_module_once() -> None:
    """docs/architecture.md has one row per package module, under its folder's heading, and
    no row for a module that is gone."""
    listed: list[str] = []
    folder = ""
    for line in (DOCS / "architecture.md").read_text(encoding="utf-8").splitlines():
        heading = re.match(r"### `fairshare_cli/(.*?)/?`$", line)
        if heading:
            folder = heading.group(1)
            continue
        row = re.match(r"\| `([\w]+\.py)` \|", line)
        if row:
            listed.append(f"{folder}/{row.group(1)}".lstrip("/"))
    package = REPO / "fairshare_cli"
    modules = [
        str(p.relative_to(package))
        for p in sorted(package.rglob("*.py"))
        if p.name != "__init__.py" or ast.get_docstring(ast.parse(p.read_text(encoding="utf-8")))
    ]
    assert sorted(listed) == sorted(set(listed)), "a module is named twice"
    assert sorted(listed) == sorted(modules)
