"""Merging an importer's config fragment into a pool config file."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fairshare_cli.errors import ConfigError
from fairshare_cli.io.config import build_config, load_config
from fairshare_cli.io.toml_merge import fragment_text, merge_into_file
from fairshare_cli.io.toml_values import LONG_ARRAY, leaf

BASE = """# my pool
[pool]
name = "demo"  # keep me

[accounts.A]
shares = 40
users = { u1 = 1 }
"""

FRAGMENT = {
    "accountant": {"priority_halflife": 3600},
    "accounts": {"A": {"users": {"u2": 3}}, "B": {"parent": "A", "shares": 5}},
    "machines": [{"name": "n", "count": 2, "slots": 1, "attributes": {"Cpus": 4}}],
}


def test_fragment_prints_as_the_config_examples_read() -> None:
    text = fragment_text(FRAGMENT)
    assert '[accounts.B]\nparent = "A"\nshares = 5\n' in text
    assert "users = {u2 = 3}" in text
    assert "[[machines]]" in text and "attributes = {Cpus = 4}" in text


def test_merge_keeps_comments_and_other_keys(tmp_path: Path) -> None:
    path = tmp_path / "pool.toml"
    path.write_text(BASE, encoding="utf-8")
    report = merge_into_file(path, FRAGMENT, False, build_config)
    assert report.added == [
        "accountant.priority_halflife",
        "accounts.A.users.u2",
        "accounts.B.parent",
        "accounts.B.shares",
        "machines",
    ]
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# my pool\n") and 'name = "demo"  # keep me' in text
    config = load_config(path)
    assert config.accountant.priority_halflife == 3600
    assert config.accounts["A"].users == {"u1": 1, "u2": 3}
    assert config.accounts["B"].parent == "A"


def test_equal_value_is_unchanged_and_nothing_written(tmp_path: Path) -> None:
    path = tmp_path / "pool.toml"
    path.write_text(BASE, encoding="utf-8")
    before = path.stat().st_mtime_ns
    report = merge_into_file(path, {"pool": {"name": "demo"}}, False, build_config)
    assert report.unchanged == ["pool.name"] and not report.added
    assert path.stat().st_mtime_ns == before


def test_differing_value_needs_replace(tmp_path: Path) -> None:
    path = tmp_path / "pool.toml"
    path.write_text(BASE, encoding="utf-8")
    with pytest.raises(
        ConfigError,
        match=r"pool\.name is \"demo\" in the file, the import says \"x\"; pass --replace",
    ):
        merge_into_file(path, {"pool": {"name": "x"}}, False, build_config)
    assert path.read_text(encoding="utf-8") == BASE
    report = merge_into_file(path, {"pool": {"name": "x"}}, True, build_config)
    assert report.replaced == ["pool.name"]
    assert load_config(path).pool.name == "x"
    assert "# keep me" in path.read_text(encoding="utf-8")


def test_invalid_result_is_refused_and_file_untouched(tmp_path: Path) -> None:
    path = tmp_path / "pool.toml"
    path.write_text(BASE, encoding="utf-8")
    with pytest.raises(ConfigError, match=r"unknown key 'accountant\.halflife'"):
        merge_into_file(path, {"accountant": {"halflife": 1}}, False, build_config)
    assert path.read_text(encoding="utf-8") == BASE
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_dry_run_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "pool.toml"
    path.write_text(BASE, encoding="utf-8")
    report = merge_into_file(path, FRAGMENT, False, build_config, dry_run=True)
    assert report.added and path.read_text(encoding="utf-8") == BASE


def test_missing_file_is_created(tmp_path: Path) -> None:
    path = tmp_path / "new.toml"
    merge_into_file(path, {"accountant": {"priority_halflife": 60}}, False, build_config)
    assert load_config(path).accountant.priority_halflife == 60


def test_a_config_with_a_byte_order_mark_takes_a_merge(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``fs import sacctmgr dump.txt --into pool.toml`` on a config an editor saved with a
    byte-order mark (which every command reads, as docs/exit-codes.md says): refused, exit 2,
    ``config file pool.toml is not valid TOML: Empty key at line 1 col 0``. The merge reads
    it as the config reader does now, and writes the mark back."""
    config = tmp_path / "pool.toml"
    config.write_bytes(b"\xef\xbb\xbf" + BASE.encode())
    dump = tmp_path / "dump.txt"
    dump.write_text("Account|User|Share|ParentName\nB||5|A\n")
    result = run("import", "sacctmgr", str(dump), "--into", str(config))
    assert result.exit_code == 0, result.stderr
    text = config.read_bytes().decode("utf-8")
    assert text.startswith("\ufeff# my pool\n[pool]\n")
    assert "[accounts.B]" in text
    assert load_config(config).pool.name == "demo"  # (the merged file reads)


@pytest.mark.parametrize(
    ("held", "said"),
    [
        # before: tomlkit's words, "Unexpected character: '\x00' at line 6 col 0" (the end
        # of the file, which holds no NUL)
        pytest.param(BASE[: BASE.index("shares")] + "sha", "config file pool.toml is not valid "
                     "TOML: Expected '=' after a key in a key/value pair (at end of document)",
                     id="cut-short"),
        # before: "... is not valid TOML: Empty key at line 1 col 0", no word of what it is
        pytest.param('{\n  "format": "fairshare-cli state",\n  "schema_version": 1\n}\n',
                     "config file pool.toml is not valid TOML: Invalid statement (at line 1, "
                     "column 1); it looks like fs's own state file: give it as --state",
                     id="a-state"),
    ],
)  # fmt: skip
def test_a_bad_config_to_merge_into_is_refused_as_config_refuses_it(
    held: str, said: str, tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``fs import sacctmgr dump.txt --into pool.toml`` of a config cut short, or of a state
    file: refused in the words ``--config pool.toml`` is (tomli's), the file left as it was,
    and a state is told where it goes, as ``fs userprio --config`` tells it."""
    (tmp_path / "pool.toml").write_text(held, encoding="utf-8")
    (tmp_path / "dump.txt").write_text("Account|User|Share|ParentName\nB||5|A\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = run("import", "sacctmgr", "dump.txt", "--into", "pool.toml")
    assert (result.exit_code, result.stdout) == (2, ""), result.stderr
    assert result.stderr == f"fs: error: {said}\n"
    assert (tmp_path / "pool.toml").read_text(encoding="utf-8") == held
    if "state" not in said:
        config = run("config", "check", "--config", "pool.toml")
        assert config.stderr == f"fs: error: {said}\n"


@given(
    st.lists(
        st.one_of(
            st.integers(min_value=-(2**63), max_value=2**63 - 1),
            st.floats(allow_nan=False),
            st.booleans(),
            st.text(max_size=5),
        ),
        min_size=LONG_ARRAY + 1,
        max_size=LONG_ARRAY + 40,
    )
)
def test_a_long_array_is_written_as_tomlkit_writes_it(values: list[Any]) -> None:
    """A long array of values (``toml_values.leaf``, its items made at once: tomlkit's own
    ``item(list)`` takes time quadratic in its length) is the array ``item`` makes, byte
    for byte, in a document too."""
    import tomlkit

    made, theirs = leaf(values), tomlkit.item(values)
    assert made.as_string() == theirs.as_string()
    assert made.unwrap() == theirs.unwrap()
    ours, real = tomlkit.document(), tomlkit.document()
    ours["a"], real["a"] = made, theirs
    ours["b"], real["b"] = 1, 1
    assert tomlkit.dumps(ours) == tomlkit.dumps(real)
