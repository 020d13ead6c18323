"""``[accounts]`` tables of the usual shape are read by a fast path; it reads them exactly as
the general reader does, and leaves everything else (and every error) to it."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairshare_cli.core.limits import UINT32_MAX
from fairshare_cli.errors import ConfigError
from fairshare_cli.io.config import build_config
from fairshare_cli.io.config.slurm import _plain_account, _read_account

NAMES = st.sampled_from(["alice", "bob", "a b", "x@y@z", "", "é", "u\t1", "root", "g1"])
SHARES = st.one_of(
    st.integers(min_value=-2, max_value=UINT32_MAX + 2),
    st.sampled_from([0, 1, UINT32_MAX, True, 1.0, "parent", "Parent", "nope", None]),
)
BODIES = st.dictionaries(
    st.sampled_from(["parent", "shares", "users", "priority", "user_priority", "fairshare"]),
    st.one_of(SHARES, NAMES, st.dictionaries(NAMES, SHARES, max_size=4)),
    max_size=4,
)


def read(name: str, body: Any) -> Any:
    try:
        return _read_account(name, body, "pool.toml")
    except ConfigError as exc:
        return str(exc)


@settings(max_examples=500, deadline=None)
@given(st.sampled_from(["acct", "root", "g1"]), BODIES | st.sampled_from([[], "x", 3]))
def test_the_fast_path_reads_what_the_general_reader_reads(name: str, body: Any) -> None:
    fast = _plain_account(name, body)
    if fast is not None:
        assert fast == read(name, body)
        assert type(fast.users) is dict and fast.users is not body.get("users")


@pytest.mark.parametrize(
    "body",
    [
        pytest.param({"parent": "g1", "shares": 3, "users": {"alice": 1, "bob": 0}}, id="usual"),
        pytest.param({}, id="empty"),
        pytest.param({"shares": UINT32_MAX}, id="most-shares"),
    ],
)
def test_usual_tables_take_the_fast_path(body: dict[str, Any]) -> None:
    fast = _plain_account("acct", body)
    assert fast is not None
    assert fast == read("acct", body)


@pytest.mark.parametrize(
    "body",
    [
        pytest.param({"shares": "parent"}, id="parent-shares"),
        pytest.param({"shares": True}, id="boolean"),
        pytest.param({"shares": UINT32_MAX + 1}, id="too-many"),
        pytest.param({"users": {"a b": 1}}, id="bad-user-name"),
        pytest.param({"users": {"alice": -1}}, id="negative-user-shares"),
        pytest.param({"priority": 3}, id="priority"),
        pytest.param({"Fairshare": 3}, id="knob-name"),
        pytest.param({"parent": 3}, id="parent-not-text"),
    ],
)
def test_other_tables_go_to_the_general_reader(body: dict[str, Any]) -> None:
    assert _plain_account("acct", body) is None


def test_errors_still_name_the_key() -> None:
    raw = {"accounts": {"g1": {"shares": 2}, "a": {"parent": "g1", "users": {"al ice": 1}}}}
    with pytest.raises(ConfigError, match=r"accounts\.a\.users: expected a name without blanks"):
        build_config(raw, "pool.toml")


@given(
    st.dictionaries(
        st.text(max_size=6) | st.sampled_from(["a@b", "x" * 1025, "ok", "u\x00", "é"]),
        st.just(1),
        max_size=6,
    )
)
def test_plain_names_are_good_names(names: dict[str, int]) -> None:
    """The joined check says yes only when ``name_problem`` finds nothing in any name, and
    yes for every set of good names without ``@`` (those are checked one by one)."""
    from fairshare_cli.core.names import name_problem
    from fairshare_cli.io.config.reader import plain_names

    good = all(name_problem(n, submitter=True) is None for n in names)
    if plain_names(names):
        assert good
    elif good:
        assert any("@" in n for n in names)
