"""The TOML reader's fast path (rtoml) reads what tomllib reads, and tomllib has the last word.

``fairshare_cli.io.toml.loads`` must return exactly ``tomllib.loads``'s value (types, key
order, float bits) and raise exactly its error: documents are compared after a walk that
keeps order and types, on the repository's configs, on generated documents and on the
cases where the fast path must give way (errors, deep nesting, long integers, date-times).
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
    """The document's :func:`shape`, or the error's type and message."""
    try:
        return shape(parse(text))
    except (ValueError, RecursionError) as exc:
        return (type(exc), str(exc))


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
def test_where_the_fast_path_gives_way(text: str) -> None:
    same_as_tomllib(text)


def test_offset_date_times_are_tomllibs() -> None:
    value = loads("a = 1979-05-27T07:32:00Z\n")["a"]
    assert value.tzinfo is datetime.timezone.utc


def test_bad_toml_is_one_line_naming_the_file_line_and_column(tmp_path: Path) -> None:
    """tomllib's words, whichever parser saw the error first."""
    path = tmp_path / "pool.toml"
    path.write_text('[pool]\nname = "x"\n[accounts.a\n', encoding="utf-8")
    with pytest.raises(ConfigError) as exc:
        read_toml(path)
    assert str(exc.value) == (
        f"config file {path} is not valid TOML: Expected ']' at the end of a table "
        "declaration (at line 3, column 12)"
    )


def test_a_file_that_is_not_utf8_names_the_byte(tmp_path: Path) -> None:
    path = tmp_path / "pool.toml"
    path.write_bytes(b'[pool]\nname = "\xff"\n')
    with pytest.raises(ConfigError) as exc:
        read_toml(path)
    assert str(exc.value) == (
        f"config file {path} is not UTF-8 text (byte 15); expected a TOML file"
    )
