"""The TOML reader (``tomli``, TOML 1.1) reads every TOML 1.0 document as ``tomllib`` does.

``fairshare_cli.io.toml.loads`` must return exactly ``tomllib.loads``'s value (types, key
order, float bits) and raise an error with its words for what TOML 1.1 refuses too:
documents are compared after a walk that keeps order and types, on the repository's
configs, on generated documents and on hand-picked errors; what TOML 1.1 adds is read as
its specification says (https://toml.io/en/v1.1.0), and nesting past the parser's limit is
one line.
"""

from __future__ import annotations

import datetime
import math
import sys
from pathlib import Path
from typing import Any

import pytest
import tomlkit
from hypothesis import given, settings
from hypothesis import strategies as st

from fairshare_cli.errors import ConfigError
from fairshare_cli.io.config import read_toml
from fairshare_cli.io.toml import loads

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - 3.10
    import tomli as tomllib

REPO = Path(__file__).resolve().parents[2]


def shape(value: Any) -> Any:
    """``value`` with its types, dict key order and float bits spelt out (``==`` on
    dicts ignores order, and ``0.0 == -0.0``)."""
    if isinstance(value, dict):
        return ("table", [(k, shape(v)) for k, v in value.items()])
    if isinstance(value, list):
        return ("array", [shape(v) for v in value])
    if isinstance(value, float):
        return ("float", "nan" if math.isnan(value) else value.hex())
    if isinstance(value, datetime.datetime):
        return ("datetime", repr(value))  # the time zone's class too
    return (type(value).__name__, value)


def same_as_tomllib(text: str) -> None:
    assert outcome(loads, text) == outcome(tomllib.loads, text)


def outcome(parse: Any, text: str) -> Any:
    """The document's :func:`shape`, or the error's kind and message."""
    try:
        return shape(parse(text))
    except RecursionError as exc:
        return ("RecursionError", str(exc))
    except ValueError as exc:  # each parser's own TOMLDecodeError class
        return ("ValueError", str(exc))


@pytest.mark.parametrize(
    "path",
    sorted({*REPO.glob("sample_configs/*.toml"), *REPO.glob("tests/**/*.toml")}),
    ids=lambda p: str(p.relative_to(REPO)),
)
def test_repository_configs_read_as_tomllib_reads_them(path: Path) -> None:
    same_as_tomllib(path.read_text(encoding="utf-8"))


def test_a_large_association_tree_reads_as_tomllib_reads_it() -> None:
    """The shape of the sshare benchmark's config: many tables, inline user tables."""
    parts = ['[pool]\nname = "bench"\n']
    for g in range(40):
        parts.append(f"[accounts.g{g}]\nshares = {g + 1}\n")
        for a in range(25):
            users = ", ".join(f"u{g}_{a}_{u} = {u % 5 + 1}" for u in range(6))
            parts.append(
                f'[accounts.g{g}a{a}]\nparent = "g{g}"\nshares = {a * 7 % 60}\n'
                f"users = {{ {users} }}\n"
            )
    same_as_tomllib("".join(parts))


KEYS = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=6)
SCALARS = (
    st.integers(min_value=-(2**63), max_value=2**63 - 1)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.booleans()
    | st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12)
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(KEYS, inner, max_size=4),
    max_leaves=20,
)
DOCUMENTS = st.dictionaries(KEYS, VALUES, max_size=6)


@settings(max_examples=300, deadline=None)
@given(DOCUMENTS)
def test_generated_documents_read_as_tomllib_reads_them(doc: dict[str, Any]) -> None:
    """Tables, arrays, quoted keys, escapes, every float (inf, nan, -0.0) as tomlkit
    writes them, and the same text cut short (mostly invalid: tomllib's error)."""
    text = tomlkit.dumps(doc)
    same_as_tomllib(text)
    same_as_tomllib(text[: len(text) // 2])


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("[pool\nname=1", id="unclosed-table"),
        pytest.param("a = 1\na = 2\n", id="duplicate-key"),
        pytest.param("[a]\nb = 1\n[a]\n", id="table-twice"),
        pytest.param('a = "\\q"\n', id="bad-escape"),
        pytest.param("a = 0x\n", id="bad-number"),
        pytest.param("a = 99999999999999999999999\n", id="long-integer"),
        pytest.param("a = " + "[" * 300 + "]" * 300 + "\n", id="deep-array"),
        pytest.param("[" + ".".join(["x"] * 300) + "]\n", id="deep-table"),
        pytest.param("a = 1979-05-27T07:32:00-08:00\n", id="offset-date-time"),
        pytest.param("a = 1979-05-27T07:32:00Z\nb = 1979-05-27\n", id="utc-date-time"),
        pytest.param("a = 07:32:00\nb = 1979-05-27T07:32:00\n", id="local-times"),
    ],
)
def test_errors_and_edges_read_as_tomllib_reads_them(text: str) -> None:
    same_as_tomllib(text)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        pytest.param("a = {b = 1,}\n", {"a": {"b": 1}}, id="trailing-comma-inline-table"),
        pytest.param("a = {\n  b = 1,\n  c = 2\n}\n", {"a": {"b": 1, "c": 2}}, id="multi-line"),
        pytest.param('a = "\\x41\\e"\n', {"a": "A\x1b"}, id="x-and-e-escapes"),
        pytest.param("a = 07:32\n", {"a": datetime.time(7, 32)}, id="time-without-seconds"),
    ],
)
def test_what_toml_1_1_adds_is_read(text: str, value: dict[str, Any]) -> None:
    """TOML 1.1's additions (toml.io/en/v1.1.0 changelog), which docs/config.md names."""
    assert shape(loads(text)) == shape(value)


def test_too_deep_a_nesting_is_one_line(tmp_path: Path) -> None:
    """tomli stops at 400 nested inline arrays or tables, before Python's stack would."""
    path = tmp_path / "pool.toml"
    path.write_text("a = " + "[" * 5000 + "]" * 5000 + "\n", encoding="utf-8")
    with pytest.raises(ConfigError) as exc:
        read_toml(path)
    assert str(exc.value) == (
        f"config file {path} is not valid TOML: TOML inline arrays/tables are nested more "
        "than the allowed 400 levels"
    )


def test_bad_toml_is_one_line_naming_the_file_line_and_column(tmp_path: Path) -> None:
    """The parser's words, with the line and column."""
    path = tmp_path / "pool.toml"
    path.write_text('[pool]\nname = "x"\n[accounts.a\n', encoding="utf-8")
    with pytest.raises(ConfigError) as exc:
        read_toml(path)
    assert str(exc.value) == (
        f"config file {path} is not valid TOML: Expected ']' at the end of a table "
        "declaration (at line 3, column 12)"
    )


def test_a_byte_order_mark_is_skipped(tmp_path: Path) -> None:
    """As editors on Windows save it; TOML itself has no byte-order mark."""
    path = tmp_path / "pool.toml"
    path.write_bytes(b'\xef\xbb\xbf[pool]\nname = "x"\n')
    assert read_toml(path) == {"pool": {"name": "x"}}


def test_a_file_that_is_not_utf8_names_the_byte(tmp_path: Path) -> None:
    path = tmp_path / "pool.toml"
    path.write_bytes(b'[pool]\nname = "\xff"\n')
    with pytest.raises(ConfigError) as exc:
        read_toml(path)
    assert str(exc.value) == (
        f"config file {path} is not UTF-8 text (byte 15); expected a TOML file"
    )
