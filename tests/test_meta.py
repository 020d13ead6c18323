"""Meta-tests: the core stays pure, every command has help."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import click
import pytest

from fairshare_cli.cli.main import _COMMANDS, cli

REPO = Path(__file__).resolve().parent.parent


def test_core_imports_nothing_impure() -> None:
    code = (
        "import sys, pkgutil, importlib, fairshare_cli.core as c\n"
        "for m in pkgutil.walk_packages(c.__path__, 'fairshare_cli.core.'):\n"
        "    importlib.import_module(m.name)\n"
        "bad = [n for n in ('click', 'rich', 'platformdirs', 'tomllib', 'tomli') "
        "if n in sys.modules]\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO
    )
    assert out.stdout.strip() == ""


def test_every_module_imports_on_its_own() -> None:
    """No import cycles: each module of the package imports first, in a fresh interpreter."""
    code = (
        "import sys, pkgutil, importlib, fairshare_cli as f\n"
        "names = [m.name for m in pkgutil.walk_packages(f.__path__, 'fairshare_cli.')]\n"
        "bad = []\n"
        "for name in names:\n"
        "    for k in [k for k in sys.modules if k.startswith('fairshare_cli.')]:\n"
        "        del sys.modules[k]\n"
        "    try:\n"
        "        importlib.import_module(name)\n"
        "    except ImportError as exc:\n"
        "        bad.append(f'{name}: {exc}')\n"
        "print(len(names)); print('\\n'.join(bad))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO
    )
    count, *bad = out.stdout.strip().split("\n")
    assert int(count) > 60
    assert not [b for b in bad if b], bad


SCHEDULERS = ("htcondor", "slurm", "dirac")


def _layer(module: str) -> str:
    """``cli``, ``io``, ``render``, ``core`` (shared), ``core.<scheduler>``, ``core.operations``,
    or the top-level module's name (``errors``)."""
    parts = module.split(".")
    if len(parts) > 2 and parts[1] == "core" and parts[2] in (*SCHEDULERS, "operations"):
        return f"core.{parts[2]}"
    return parts[1] if len(parts) > 1 else parts[0]


def _package_modules() -> dict[str, Path]:
    """Each package module's dotted name -> its file."""
    out: dict[str, Path] = {}
    for path in sorted((REPO / "fairshare_cli").rglob("*.py")):
        parts = path.relative_to(REPO).with_suffix("").parts
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


def _package_imports() -> dict[str, set[str]]:
    """Each package module -> the ``fairshare_cli`` modules it imports: every import
    statement, at module level, inside functions and under ``TYPE_CHECKING`` alike.

    ``from package import name`` names the module ``package.name`` when there is one (else
    the package itself); relative imports are resolved against the importing module.
    """
    modules = _package_modules()
    out: dict[str, set[str]] = {}
    for module, path in modules.items():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*parent, base] if base else parent)
                for alias in node.names:
                    names.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base)
        out[module] = {n for n in names if n.split(".")[0] == "fairshare_cli" and n != module}
    return out


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import cycles of ``graph``: each group of modules that import one another,
    directly or through others (a strongly connected component of two or more), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []
    for root in sorted(graph):  # Tarjan's algorithm, iterative (no recursion limit)
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root] & graph.keys())))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        cycles.append(sorted(group))
            elif child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(sorted(graph[child] & graph.keys()))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return sorted(cycles)


def test_no_import_cycles() -> None:
    """No module imports itself through others, at any depth (STYLE.md: shared types live
    in leaf modules; a module above both picks the path)."""
    found = [
        {m.removeprefix("fairshare_cli.") for m in group}
        for group in import_cycles(_package_imports())
    ]
    assert [sorted(c) for c in found] == []


@pytest.mark.parametrize(
    ("graph", "cycles"),
    [
        pytest.param({"a": {"b"}, "b": {"c"}, "c": set()}, [], id="a chain"),
        pytest.param({"a": {"b"}, "b": {"a"}}, [["a", "b"]], id="two"),
        pytest.param(
            {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": {"e"}, "e": {"d"}},
            [["a", "b", "c"], ["d", "e"]],
            id="three and two",
        ),
    ],
)
def test_import_cycles_finds_every_circle(
    graph: dict[str, set[str]], cycles: list[list[str]]
) -> None:
    assert import_cycles(graph) == cycles


#: What each layer may import besides itself (docs/architecture.md): cli -> io, render ->
#: core; inside core, operations may use every scheduler, a scheduler only the shared core.
ALLOWED = {
    "cli": {"io", "render", "core", *(f"core.{s}" for s in SCHEDULERS), "core.operations"},
    "io": {"core", *(f"core.{s}" for s in SCHEDULERS), "core.operations"},
    "render": {"core", *(f"core.{s}" for s in SCHEDULERS), "core.operations"},
    "core.operations": {"core", *(f"core.{s}" for s in SCHEDULERS)},
    **{f"core.{s}": {"core"} for s in SCHEDULERS},
    "core": set(),
}


def test_layers_import_only_downwards() -> None:
    """No scheduler package imports another's (``core/slurm`` never ``core/htcondor``), the
    shared core no scheduler, ``io`` and ``render`` neither each other nor ``cli``."""
    wrong = []
    for module, imports in _package_imports().items():
        layer = _layer(module)
        if layer not in ALLOWED:
            continue  # __main__, errors, the package itself
        for imported in imports:
            target = _layer(imported)
            if target not in (layer, "errors", "fairshare_cli") and target not in ALLOWED[layer]:
                wrong.append(f"{module} imports {imported}")
    assert wrong == []


def test_layer_check_sees_lazy_imports() -> None:
    """The check reads imports inside functions too (the CLI imports lazily)."""
    imports = _package_imports()
    series = imports["fairshare_cli.core.operations.slurm_series"]
    assert "fairshare_cli.core.slurm.fairshare" in series  # inside a method
    assert "fairshare_cli.core.slurm.model" in series  # ``from package import module``
    assert {_layer(m) for m in imports["fairshare_cli.core.slurm.model"]} <= {
        "core",
        "core.slurm",
        "errors",
    }
    assert {_layer(m) for m in imports["fairshare_cli.core.dirac.correction"]} <= {
        "core",
        "core.dirac",
    }


#: The modules that decode JSON themselves: every other reads through one of them.
JSON_READERS = {
    "fairshare_cli/io/jobs.py": "the jobs file",
    "fairshare_cli/io/state.py": "the state file",
    "fairshare_cli/io/history.py": "usage-history lines",
    "fairshare_cli/io/inputs.py": "other JSON documents",
    "fairshare_cli/io/json_stream.py": "HTCondor's -json dumps, streamed object by object",
}
_DECODES_JSON = re.compile(
    r"json\.loads?\(|JSONDecoder\(|raw_decode|msgspec\.json\.(decode|Decoder)|json\.(decode|Decoder)\("
)


def test_five_modules_decode_json() -> None:
    """One reader per format: only the five readers call a JSON decoder."""
    decoding = {
        path.relative_to(REPO).as_posix()
        for path in (REPO / "fairshare_cli").rglob("*.py")
        if _DECODES_JSON.search(path.read_text(encoding="utf-8"))
    }
    assert decoding == set(JSON_READERS)


MAX_MODULE_LINES = 500
MAX_FUNCTION_LINES = 80


def _is_tuned_hot_loop(lines: list[str], node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """A function whose head comment names the benchmark it is tuned for may run long."""
    head = lines[node.lineno : node.lineno + 6]
    return any("#" in line and "benchmarks/" in line for line in head)


def test_modules_and_functions_stay_within_budget() -> None:
    """No module over 500 lines, no function over 80 (STYLE.md), but a measured hot loop."""
    over = []
    for path in sorted((REPO / "fairshare_cli").rglob("*.py")):
        rel = path.relative_to(REPO).as_posix()
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines()
        if len(lines) > MAX_MODULE_LINES:
            over.append(f"{rel}: {len(lines)} lines")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > MAX_FUNCTION_LINES and not _is_tuned_hot_loop(lines, node):
                    over.append(f"{rel}:{node.lineno} {node.name}: {length} lines")
    assert over == []


def _all_commands() -> list[tuple[str, click.Command]]:
    ctx = click.Context(cli)
    out: list[tuple[str, click.Command]] = []
    for name in _COMMANDS:
        cmd = cli.get_command(ctx, name)
        assert cmd is not None, name
        if isinstance(cmd, click.Group):
            sub_ctx = click.Context(cmd, parent=ctx)
            for sub in cmd.list_commands(sub_ctx):
                sub_cmd = cmd.get_command(sub_ctx, sub)
                assert sub_cmd is not None, f"{name} {sub}"
                out.append((f"{name} {sub}", sub_cmd))
        else:
            out.append((name, cmd))
    return out


@pytest.mark.parametrize(("name", "cmd"), _all_commands())
def test_command_has_help(name: str, cmd: click.Command) -> None:
    """(The README's Commands table and docs/ are checked in test_docs.py.)"""
    assert cmd.help and cmd.help.strip(), f"fs {name} has no help text"
