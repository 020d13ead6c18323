"""The association tree and the four fair-share algorithms, with hand-checked numbers."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairshare_cli.core.slurm.assoc_tree import (
    NO_VAL,
    AccountDef,
    build_tree,
    set_usage,
)
from fairshare_cli.core.slurm.fairshare import compute_fairshare, share_rows
from fairshare_cli.errors import ConfigError

# The Slurm 2.0 multifactor page's example (Figure 3): A(40){B(30): u1, C(10): u2 u3},
# D(60){E(25): u4, F(35): u5}; users 1, 2 and 4 used 0.2, 0.25 and 0.25 of the machine.
SEED_TREE = [
    AccountDef("A", shares=40),
    AccountDef("B", parent="A", shares=30, users={"user1": 1}),
    AccountDef("C", parent="A", shares=10, users={"user2": 1, "user3": 1}),
    AccountDef("D", shares=60),
    AccountDef("E", parent="D", shares=25, users={"user4": 1}),
    AccountDef("F", parent="D", shares=35, users={"user5": 1}),
]
SEED_USAGE = {("B", "user1"): 0.2, ("C", "user2"): 0.25, ("E", "user4"): 0.25}


def _seed(algorithm: str):
    tree = build_tree(SEED_TREE)
    set_usage(tree, SEED_USAGE)
    # Slurm 2.0 normalises by the machine's capacity: these usages are already fractions.
    compute_fairshare(tree, algorithm, capacity=1.0)
    return tree


def _user(tree, account: str, user: str):
    return tree.by_key[(account, user)]


@pytest.mark.parametrize(
    ("account", "user", "shares"),
    [
        pytest.param("B", "user1", 0.3, id="user1"),
        pytest.param("C", "user2", 0.05, id="user2"),
        pytest.param("C", "user3", 0.05, id="user3"),
        pytest.param("E", "user4", 0.25, id="user4"),
        pytest.param("F", "user5", 0.35, id="user5"),
    ],
)
def test_seed_normalized_shares(account: str, user: str, shares: float) -> None:
    assert _user(_seed("linear"), account, user).shares_norm == pytest.approx(shares)


def test_seed_account_effective_usage() -> None:
    tree = _seed("linear")
    ue = {name: tree.accounts[name].usage_efctv for name in "ABCDEF"}
    assert ue["A"] == pytest.approx(0.45)
    assert ue["D"] == pytest.approx(0.25)
    assert ue["B"] == pytest.approx(0.2 + (0.45 - 0.2) * 30 / 40)  # 0.3875
    assert ue["C"] == pytest.approx(0.25 + (0.45 - 0.25) * 10 / 40)  # 0.3
    assert ue["E"] == pytest.approx(0.25)
    assert ue["F"] == pytest.approx(0.0 + 0.25 * 35 / 60)  # 0.1458


@pytest.mark.parametrize(
    ("account", "user", "ue", "factor"),
    [
        pytest.param("B", "user1", 0.3875, 0.45625, id="user1"),
        pytest.param("C", "user2", 0.275, 0.3875, id="user2"),
        pytest.param("C", "user3", 0.15, 0.45, id="user3"),
        pytest.param("E", "user4", 0.25, 0.5, id="user4"),
        pytest.param("F", "user5", 0.25 * 35 / 60, 0.6021, id="user5"),
    ],
)
def test_seed_linear_factors(account: str, user: str, ue: float, factor: float) -> None:
    a = _user(_seed("linear"), account, user)
    assert a.usage_efctv == pytest.approx(ue)
    assert a.fs_factor == pytest.approx(factor, abs=5e-5)


@pytest.mark.parametrize(
    ("account", "user", "expected"),
    [
        pytest.param("B", "user1", 2 ** (-0.3875 / 0.3), id="user1"),
        pytest.param("C", "user2", 2 ** (-0.275 / 0.05), id="user2"),
        pytest.param("C", "user3", 2 ** (-0.15 / 0.05), id="user3"),
        pytest.param("E", "user4", 2 ** (-0.25 / 0.25), id="user4"),
        pytest.param("F", "user5", 2 ** (-(0.25 * 35 / 60) / 0.35), id="user5"),
    ],
)
def test_seed_classic_factors(account: str, user: str, expected: float) -> None:
    assert _user(_seed("classic"), account, user).fs_factor == pytest.approx(expected)


def test_classic_dampening_divides_the_exponent() -> None:
    tree = build_tree(SEED_TREE)
    set_usage(tree, SEED_USAGE)
    compute_fairshare(tree, "classic", dampening_factor=2, capacity=1.0)
    assert _user(tree, "B", "user1").fs_factor == pytest.approx(2 ** (-(0.3875 / 0.3) / 2))


def test_depth_oblivious_hand_example() -> None:
    # root: A(1){a1, a2}, B(1){b1}; usage a1=3, a2=1, b1=4 (total 8).
    tree = build_tree([AccountDef("A", users={"a1": 1, "a2": 1}), AccountDef("B", users={"b1": 1})])
    set_usage(tree, {("A", "a1"): 3.0, ("A", "a2"): 1.0, ("B", "b1"): 4.0})
    compute_fairshare(tree, "depth_oblivious")
    a1 = _user(tree, "A", "a1")
    # A is under root: UE = usage_norm = 0.5, S = 0.5, so R_parent = 1 (ln = 0 → k = 1).
    r_parent = 0.5 / 0.5
    r_s = (3 / 8 + 1 / 8) / 0.5
    r_l = ((3 / 8) / 0.25) / r_s
    assert a1.usage_efctv == pytest.approx(r_parent * r_l * 0.25)
    assert a1.fs_factor == pytest.approx(2 ** (-r_parent * r_l))


def test_depth_oblivious_damps_when_parent_and_child_disagree() -> None:
    # Parent over-served (R_parent = 2), child under-served within it: k < 1.
    tree = build_tree([AccountDef("A", users={"a1": 1, "a2": 1}), AccountDef("B", users={"b1": 1})])
    set_usage(tree, {("A", "a1"): 1.0, ("A", "a2"): 99.0, ("B", "b1"): 0.0})
    compute_fairshare(tree, "depth_oblivious")
    a1 = _user(tree, "A", "a1")
    r_parent = 1.0 / 0.5
    r_l = ((0.01) / 0.25) / ((0.01 + 0.99) / 0.5)
    k = 1 / (1 + (5 * math.log(r_parent)) ** 2)
    assert a1.fs_factor == pytest.approx(2 ** (-r_parent * r_l**k))


def _fair_tree(accounts, usage):
    tree = build_tree(accounts)
    set_usage(tree, usage)
    compute_fairshare(tree, "fair_tree")
    return tree


def test_fair_tree_tied_users_share_a_rank() -> None:
    tree = _fair_tree(
        [AccountDef("A", users={"x": 1, "y": 1, "z": 1})], {("A", "x"): 10.0, ("A", "y"): 10.0}
    )
    # z never ran (LF inf): rank 3/3; x and y both have LF (1/3)/(1/2) and share rank 2.
    assert _user(tree, "A", "z").fs_factor == 1.0
    assert _user(tree, "A", "x").fs_factor == pytest.approx(2 / 3)
    assert _user(tree, "A", "y").fs_factor == pytest.approx(2 / 3)


def test_fair_tree_user_tied_with_an_account() -> None:
    accounts = [AccountDef("root", users={"u": 1}), AccountDef("B", users={"b1": 1, "b2": 1})]
    tree = _fair_tree(accounts, {("root", "u"): 50.0, ("B", "b1"): 50.0})
    # u and B both have LF 0.5/0.5 = 1; users sort first: u takes rank 3. B is visited
    # tied, so its first child (b2, LF inf) keeps rank 3; b1 then takes the next, 1.
    assert _user(tree, "root", "u").fs_factor == 1.0
    assert _user(tree, "B", "b2").fs_factor == 1.0
    assert _user(tree, "B", "b1").fs_factor == pytest.approx(1 / 3)


@pytest.mark.parametrize("zeta_first", [True, False], ids=["config-zeta-first", "alphabetical"])
def test_fair_tree_tied_accounts_keep_lineage_order(zeta_first: bool) -> None:
    """Accounts zeta and alpha tie (each 1 share of 2, half the usage: LF 0.5/0.5 = 1).
    slurmctld's children list is in lineage order (``/root/alpha/`` first; slurmdbd sends
    the associations ``order by lineage``) and ``_calc_tree_fs`` sorts siblings stably, so
    alpha is walked first whatever the config's order: a1 (no usage, LF inf) rank 3, a2
    (LF 0.5/1) rank 2, then zeta, tied, passes the tie to z1: rank 2 kept. In config order
    (zeta first) z1 took rank 3 and a1, tied, too; a2 rank 1."""
    zeta = AccountDef("zeta", users={"z1": 1})
    alpha = AccountDef("alpha", users={"a1": 1, "a2": 1})
    accounts = [zeta, alpha] if zeta_first else [alpha, zeta]
    tree = _fair_tree(accounts, {("zeta", "z1"): 10.0, ("alpha", "a2"): 10.0})
    assert tree.accounts["zeta"].level_fs == tree.accounts["alpha"].level_fs == 1.0
    assert _user(tree, "alpha", "a1").fs_factor == 1.0
    assert _user(tree, "alpha", "a2").fs_factor == pytest.approx(2 / 3)
    assert _user(tree, "zeta", "z1").fs_factor == pytest.approx(2 / 3)


def test_fair_tree_zero_share_account_ranks_last() -> None:
    tree = _fair_tree(
        [AccountDef("A", shares=0, users={"a1": 1}), AccountDef("B", users={"b1": 1})],
        {("B", "b1"): 10.0},
    )
    assert tree.accounts["A"].level_fs == 0.0
    assert _user(tree, "B", "b1").fs_factor == 1.0
    assert _user(tree, "A", "a1").fs_factor == 0.5


def test_fair_tree_parent_account_moves_children_up() -> None:
    accounts = [
        AccountDef("A", users={"a1": 1}),
        AccountDef("P", parent="A", shares="parent", users={"p1": 1, "p2": 1}),
    ]
    tree = _fair_tree(accounts, {("A", "a1"): 30.0, ("P", "p1"): 10.0})
    p = tree.accounts["P"]
    a = tree.accounts["A"]
    assert _user(tree, "P", "p1").fs_parent is a
    assert p.fs_children == []
    # Level of A: a1, P, p1, p2 with level shares 1 + 0 + 1 + 1 = 3.
    assert _user(tree, "P", "p1").level_shares == 3
    assert _user(tree, "P", "p1").level_fs == pytest.approx((1 / 3) / (10 / 40))
    assert p.level_fs == NO_VAL
    # Sorted: p2 (inf), P (NO_VAL), p1 (4/3), a1 (4/9).
    assert _user(tree, "P", "p2").fs_factor == 1.0
    assert _user(tree, "P", "p1").fs_factor == pytest.approx(2 / 3)
    assert _user(tree, "A", "a1").fs_factor == pytest.approx(1 / 3)
    rows = {(r["account"], r["user"]): r for r in share_rows(tree, "fair_tree")}
    assert rows[("P", None)]["raw_shares"] == "parent"
    assert rows[("P", None)]["level_fs"] is None


def test_classic_parent_user_uses_parent_values() -> None:
    accounts = [
        AccountDef("A", shares=3, users={"a1": "parent", "a2": 1}),
        AccountDef("B", shares=1, users={"b1": 1}),
    ]
    tree = build_tree(accounts)
    set_usage(tree, {("A", "a1"): 1.0, ("B", "b1"): 1.0})
    compute_fairshare(tree, "classic")
    a1 = _user(tree, "A", "a1")
    assert a1.shares_norm == tree.accounts["A"].shares_norm == pytest.approx(0.75)
    assert a1.fs_factor == pytest.approx(2 ** (-0.5 / 0.75))


def test_lineage_order_is_sshare_order() -> None:
    tree = build_tree(
        [
            AccountDef("b", users={"z": 1}),
            AccountDef("a", users={"y": 1}),
            AccountDef("a-x", parent="a"),
        ]
    )
    order = [(a.account, a.user) for a in tree.in_lineage_order()]
    assert order == [
        ("root", None),
        ("a", None),
        ("a", "y"),
        ("a-x", None),
        ("b", None),
        ("b", "z"),
    ]


def test_unknown_parent_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match=r'accounts\.B\.parent: unknown account "X"'):
        build_tree([AccountDef("B", parent="X")])


def test_cycle_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match=r"cycle \(A -> B -> A\)"):
        build_tree([AccountDef("A", parent="B"), AccountDef("B", parent="A")])


def test_negative_shares_are_a_config_error() -> None:
    with pytest.raises(ConfigError, match=r"accounts\.A\.users\.u: shares cannot be negative"):
        build_tree([AccountDef("A", users={"u": -1})])


@settings(max_examples=60, deadline=None)
@given(
    shares=st.lists(st.integers(min_value=1, max_value=50), min_size=2, max_size=6),
    usage=st.lists(st.floats(min_value=0, max_value=1e6), min_size=2, max_size=6),
    algorithm=st.sampled_from(["linear", "classic", "fair_tree", "depth_oblivious"]),
)
def test_properties(shares: list[int], usage: list[float], algorithm: str) -> None:
    n = min(len(shares), len(usage))
    accounts = [AccountDef(f"a{i}", shares=shares[i], users={f"u{i}": 1}) for i in range(n)]
    tree = build_tree(accounts)
    set_usage(tree, {(f"a{i}", f"u{i}"): usage[i] for i in range(n)})
    compute_fairshare(tree, algorithm)
    users = tree.users
    if algorithm != "fair_tree":
        assert sum(u.shares_norm for u in users) == pytest.approx(1.0)
    for u in users:
        assert 0.0 <= u.usage_norm <= 1.0
        if algorithm in ("classic", "depth_oblivious", "fair_tree"):
            assert u.fs_factor is not None
            assert 0.0 <= u.fs_factor <= 1.0
    if algorithm == "fair_tree":
        assert max(u.fs_factor for u in users) == 1.0


def draw_accounts(data: st.DataObject, min_accounts: int) -> list[AccountDef]:
    """Up to 8 accounts ``a0``, ``a1``, ... each under root or an earlier one, with shares
    (and users ``x``/``y``/``z`` with shares) of 0 to 20 or ``parent``."""
    n = data.draw(st.integers(min_value=min_accounts, max_value=8))
    shares = st.one_of(st.integers(min_value=0, max_value=20), st.just("parent"))
    accounts = []
    for i in range(n):
        parent = data.draw(st.sampled_from(["root"] + [f"a{j}" for j in range(i)]))
        users = data.draw(st.dictionaries(st.sampled_from(["x", "y", "z"]), shares, max_size=3))
        accounts.append(AccountDef(f"a{i}", parent=parent, shares=data.draw(shares), users=users))
    return accounts


@settings(max_examples=80, deadline=None)
@given(
    data=st.data(), algorithm=st.sampled_from(["linear", "classic", "fair_tree", "depth_oblivious"])
)
def test_random_trees_with_parent_shares(data: st.DataObject, algorithm: str) -> None:
    tree = build_tree(draw_accounts(data, min_accounts=1))
    usage = {
        (u.account, u.user): data.draw(st.floats(min_value=0, max_value=1e6)) for u in tree.users
    }
    set_usage(tree, usage)
    compute_fairshare(tree, algorithm)
    rows = share_rows(tree, algorithm)
    assert len(rows) == len(tree.assocs)
    for u in tree.users:
        assert u.fs_factor is not None
        assert math.isfinite(u.fs_factor)
        if algorithm != "linear":
            assert 0.0 <= u.fs_factor <= 1.0


_NAMES = st.text(
    alphabet="aAbB-._0zé\u674e\U0001f600", min_size=1, max_size=4
)  # (UTF-8 of 2 to 4 bytes)


@settings(max_examples=200)
@given(st.data())
def test_lineage_order_is_the_byte_sort_of_full_lineages(data: st.DataObject) -> None:
    """sshare sorts by the whole lineage string; the linear pre-order walk must agree."""
    from fairshare_cli.core.config import AccountSpec

    # An account called "0-x" would share its lineage part with a user x (both "0-x/"):
    # equal lineages have no byte order to follow, so such names are left out.
    names = data.draw(
        st.lists(
            _NAMES.filter(lambda n: not n.startswith("0-")), min_size=1, max_size=12, unique=True
        )
    )
    specs = []
    for i, name in enumerate(names):
        parent = data.draw(st.sampled_from(["root", *names[:i]]))
        users = data.draw(st.dictionaries(_NAMES, st.integers(1, 3), max_size=3))
        specs.append(AccountSpec(name=name, parent=parent, shares=1, users=users))
    tree = build_tree(specs)
    expected = sorted(tree.assocs, key=lambda a: a.lineage.encode())
    assert tree.in_lineage_order() == expected


def test_a_chain_ten_thousand_deep_builds() -> None:
    """Deep Fairshare=parent chains: linear cycle check, parents and lineage order."""
    from fairshare_cli.core.config import AccountSpec

    n = 10_000
    specs = [
        AccountSpec(
            name=f"a{i}",
            parent=f"a{i - 1}" if i else "root",
            shares="parent" if i % 2 else 1,
            users={"u": 1} if i == n - 1 else {},
        )
        for i in range(n)
    ]
    tree = build_tree(specs)
    order = tree.in_lineage_order()
    assert len(order) == n + 2
    assert [a.depth for a in order] == [*range(n + 1), n + 1]
    user = tree.user_assoc("u", f"a{n - 1}")
    assert user is not None and user.fs_parent is not None
    # a9999 is in parent mode, so the user's fair-share parent is a9998.
    assert user.fs_parent.account == f"a{n - 2}"
    cyclic = [*specs[:3], AccountSpec(name="a0", parent="a2")]
    with pytest.raises(ConfigError, match=r"cycle \(a0 -> a2 -> a1 -> a0\)"):
        build_tree(cyclic)


_SHARES = st.one_of(
    st.integers(min_value=-2, max_value=2),
    st.sampled_from([0x7FFFFFFE, 0x7FFFFFFF, 2**32, "parent", "Parent", "half", True, 1.5]),
)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["root", "a", "b", "c", None, "x"]),
            _SHARES,
            st.dictionaries(st.sampled_from(["u", "v"]), _SHARES, max_size=2),
        ),
        max_size=3,
    )
)
def test_check_tree_refuses_what_build_tree_refuses(
    specs: list[tuple[str | None, object, dict[str, object]]],
) -> None:
    """check_tree (the config reader's check, building no tree when the shares are plain)
    raises exactly when build_tree does, with its message: unknown parents, cycles and
    shares out of range or of the wrong kind, in any mix."""
    from fairshare_cli.core.slurm.assoc_tree import check_tree

    accounts = {
        name: AccountDef(name, parent=parent, shares=shares, users=users)  # type: ignore[arg-type]
        for name, (parent, shares, users) in zip("abc", specs, strict=False)
    }

    def outcome(check: object) -> str | None:
        try:
            check(accounts)  # type: ignore[operator]
        except ConfigError as exc:
            return str(exc)
        return None

    assert outcome(check_tree) == outcome(build_tree)
