"""Slurm's own fair-share tests (testsuite/expect/test24.1, 24.3 and 24.4), as data.

Each builds an association tree with fixed raw usage (no decay) and checks the lines
``sshare -l -p`` prints for it. The trees and expected lines are those of the Slurm test
suite; the cluster there tracks only the ``cpu`` TRES, so the TRES column is left out.
"""

from __future__ import annotations

import pytest

from fairshare_cli.core.slurm.assoc_tree import (
    AccountDef,
    build_tree,
    set_usage,
)
from fairshare_cli.core.slurm.fairshare import compute_fairshare, share_rows
from fairshare_cli.render import sshare, sshare_fields


def _lines(
    accounts: list[AccountDef],
    usage: dict[tuple[str, str], float],
    algorithm: str,
    account_fairshare: bool,
) -> list[str]:
    tree = build_tree(accounts)
    set_usage(tree, usage)
    compute_fairshare(tree, algorithm)
    rows = share_rows(tree, algorithm, account_fairshare=account_fairshare)
    spec = sshare_fields.default_format(True, algorithm == "fair_tree")
    out = sshare.render(sshare_fields.parse_format(spec), rows, mode="parsable", header=False)
    return out.splitlines()


# test24.1: the Slurm 2.0 example tree plus AccountG (0 shares), classic fair share.
TEST_24_1_TREE = [
    AccountDef("AccountA", shares=40),
    AccountDef("AccountB", parent="AccountA", shares=30, users={"User1": 1}),
    AccountDef("AccountC", parent="AccountA", shares=10, users={"User2": 1, "User3": 1}),
    AccountDef("AccountD", shares=60),
    AccountDef("AccountE", parent="AccountD", shares=25, users={"User4": 1}),
    AccountDef("AccountF", parent="AccountD", shares=35, users={"User5": 1}),
    AccountDef("AccountG", shares=0, users={"User6": 0}),
]
TEST_24_1_USAGE = {
    ("AccountB", "User1"): 20.0,
    ("AccountC", "User2"): 25.0,
    ("AccountC", "User3"): 0.0,
    ("AccountE", "User4"): 25.0,
    ("AccountF", "User5"): 0.0,
    ("AccountG", "User6"): 30.0,
}
TEST_24_1_EXPECT = [
    "AccountA||40|0.400000|45|0.450000|0.450000|0.458502|",
    "AccountB||30|0.300000|20|0.200000|0.387500|0.408479|",
    "AccountB|User1|1|0.300000|20|0.200000|0.387500|0.408479|",
    "AccountC||10|0.100000|25|0.250000|0.300000|0.125000|",
    "AccountC|User2|1|0.050000|25|0.250000|0.275000|0.022097|",
    "AccountC|User3|1|0.050000|0|0.000000|0.150000|0.125000|",
    "AccountD||60|0.600000|25|0.250000|0.250000|0.749154|",
    "AccountE||25|0.250000|25|0.250000|0.250000|0.500000|",
    "AccountE|User4|1|0.250000|25|0.250000|0.250000|0.500000|",
    "AccountF||35|0.350000|0|0.000000|0.145833|0.749154|",
    "AccountF|User5|1|0.350000|0|0.000000|0.145833|0.749154|",
    "AccountG||0|0.000000|30|0.300000|0.300000|0.000000|",
    "AccountG|User6|0|",
]


@pytest.mark.parametrize("expected", TEST_24_1_EXPECT)
def test_slurm_test24_1_classic(expected: str) -> None:
    lines = _lines(TEST_24_1_TREE, TEST_24_1_USAGE, "classic", account_fairshare=True)
    assert any(expected in line for line in lines), "\n".join(lines)


# test24.4: Fair Tree with Fairshare=parent accounts and users, zero shares and ties.
TEST_24_4_TREE = [
    AccountDef("root", users={"u1": 10, "u2": 10}),
    AccountDef("aA", shares=40),
    AccountDef("aAA", parent="aA", shares=30, users={"uAA1": 1}),
    AccountDef("aAB", parent="aA", shares=10, users={"uAB1": 1, "uAB2": 1}),
    AccountDef("aB", shares=60),
    AccountDef("aBA", parent="aB", shares=25, users={"uBA1": 1}),
    AccountDef("aBB", parent="aB", shares=35, users={"uBB1": 1}),
    AccountDef("aC", shares=0, users={"uC1": 0}),
    AccountDef("aD", shares=50, users={"uD1": "parent", "uD2": 40, "uD3": 50}),
    AccountDef(
        "aDA", parent="aD", shares="parent", users={"uDA1": "parent", "uDA2": 30, "uDA3": 50}
    ),
    AccountDef("aE", shares=10, users={"aE1": 10, "aE2": 10}),
    AccountDef("aF", shares=20, users={"uF1": 10, "uF2": 20}),
    AccountDef("aG", shares=8, users={"uG1": 10}),
    AccountDef("aGA", parent="aG", shares=10, users={"uGA1": 20, "uGA2": 20}),
]
TEST_24_4_USAGE = {
    ("aAA", "uAA1"): 20.0,
    ("aAB", "uAB1"): 25.0,
    ("aAB", "uAB2"): 0.0,
    ("aBA", "uBA1"): 25.0,
    ("aBB", "uBB1"): 0.0,
    ("aC", "uC1"): 30.0,
    ("aDA", "uDA1"): 10.0,
    ("aDA", "uDA2"): 10.0,
    ("aDA", "uDA3"): 25.0,
    ("aD", "uD1"): 20.0,
    ("aD", "uD2"): 20.0,
    ("aD", "uD3"): 25.0,
    ("root", "u1"): 0.0,
    ("root", "u2"): 10.0,
    ("aG", "uG1"): 10.0,
    ("aGA", "uGA1"): 4.0,
    ("aGA", "uGA2"): 6.0,
}
TEST_24_4_EXPECT = [
    "root|||0.000000|240||1.000000||||",
    "root|u1|10|0.048077|0|0.000000|0.000000|1.000000|inf||",
    "root|u2|10|0.048077|10|0.041667|0.041667|0.666667|1.153846||",
    "aA||40|0.192308|45|0.187500|0.187500||1.025641||",
    "aAA||30|0.750000|20|0.083333|0.444444||1.687500||",
    "aAA|uAA1|1|1.000000|20|0.083333|1.000000|0.619048|1.000000||",
    "aAB||10|0.250000|25|0.104167|0.555556||0.450000||",
    "aAB|uAB1|1|0.500000|25|0.104167|1.000000|0.523810|0.500000||",
    "aAB|uAB2|1|0.500000|0|0.000000|0.000000|0.571429|inf||",
    "aB||60|0.288462|25|0.104167|0.104167||2.769231||",
    "aBA||25|0.416667|25|0.104167|1.000000||0.416667||",
    "aBA|uBA1|1|1.000000|25|0.104167|1.000000|0.714286|1.000000||",
    "aBB||35|0.583333|0|0.000000|0.000000||inf||",
    "aBB|uBB1|1|1.000000|0|0.000000|0.000000|0.761905|inf||",
    "aC||0|0.000000|30|0.125000|0.125000||0.000000||",
    "aC|uC1|0|0.000000|30|0.125000|1.000000|0.047619|0.000000||",
    "aD||50|0.240385|110|0.458333|0.458333||0.524476||",
    "aD|uD1|parent|0.240385|20|0.083333|0.181818|0.476190|||",
    "aD|uD2|40|0.235294|20|0.083333|0.181818|0.238095|1.294118||",
    "aD|uD3|50|0.294118|25|0.104167|0.227273|0.333333|1.294118||",
    "aDA||parent|0.240385|45|0.187500|0.409091||||",
    "aDA|uDA1|parent|0.240385|10|0.041667|0.090909|0.476190|||",
    "aDA|uDA2|30|0.176471|10|0.041667|0.090909|0.380952|1.941176||",
    "aDA|uDA3|50|0.294118|25|0.104167|0.227273|0.333333|1.294118||",
    "aE||10|0.048077|0|0.000000|0.000000||inf||",
    "aE|aE1|10|0.500000|0|0.000000|0.000000|1.000000|inf||",
    "aE|aE2|10|0.500000|0|0.000000|0.000000|1.000000|inf||",
    "aF||20|0.096154|0|0.000000|0.000000||inf||",
    "aF|uF1|10|0.333333|0|0.000000|0.000000|1.000000|inf||",
    "aF|uF2|20|0.666667|0|0.000000|0.000000|1.000000|inf||",
    "aG||8|0.038462|20|0.083333|0.083333||0.461538||",
    "aG|uG1|10|0.500000|10|0.041667|0.500000|0.190476|1.000000||",
    "aGA||10|0.500000|10|0.041667|0.500000||1.000000||",
    "aGA|uGA1|20|0.500000|4|0.016667|0.400000|0.190476|1.250000||",
    "aGA|uGA2|20|0.500000|6|0.025000|0.600000|0.095238|0.833333||",
]


@pytest.mark.parametrize("expected", TEST_24_4_EXPECT)
def test_slurm_test24_4_fair_tree(expected: str) -> None:
    lines = _lines(TEST_24_4_TREE, TEST_24_4_USAGE, "fair_tree", account_fairshare=False)
    assert any(expected in line for line in lines), "\n".join(lines)


# test24.3: test24.1's tree plus AccountH with Fairshare=parent users and a parent account,
# classic fair share; root prints its factor (2^-1) too.
TEST_24_3_TREE = [
    *TEST_24_1_TREE,
    AccountDef("AccountH", shares=50, users={"UHRA1": "parent", "UHRA2": 40, "UHRA3": 50}),
    AccountDef(
        "AccountHTA",
        parent="AccountH",
        shares="parent",
        users={"UHTAStd1": "parent", "UHTAStd2": 30, "UHTAStd3": 50},
    ),
]
TEST_24_3_USAGE = {
    **TEST_24_1_USAGE,
    ("AccountH", "UHRA1"): 20.0,
    ("AccountH", "UHRA2"): 20.0,
    ("AccountH", "UHRA3"): 25.0,
    ("AccountHTA", "UHTAStd1"): 10.0,
    ("AccountHTA", "UHTAStd2"): 10.0,
    ("AccountHTA", "UHTAStd3"): 25.0,
}
TEST_24_3_EXPECT = [
    "root|||1.000000|210||1.000000|0.500000||",
    "AccountA||40|0.266667|45|0.214286|0.214286|0.572929||",
    "AccountB||30|0.200000|20|0.095238|0.184524|0.527550||",
    "AccountB|User1|1|0.200000|20|0.095238|0.184524|0.527550||",
    "AccountC||10|0.066667|25|0.119048|0.142857|0.226431||",
    "AccountC|User2|1|0.033333|25|0.119048|0.130952|0.065672||",
    "AccountC|User3|1|0.033333|0|0.000000|0.071429|0.226431||",
    "AccountD||60|0.400000|25|0.119048|0.119048|0.813594||",
    "AccountE||25|0.166667|25|0.119048|0.119048|0.609507||",
    "AccountE|User4|1|0.166667|25|0.119048|0.119048|0.609507||",
    "AccountF||35|0.233333|0|0.000000|0.069444|0.813594||",
    "AccountF|User5|1|0.233333|0|0.000000|0.069444|0.813594||",
    "AccountG||0|0.000000|30|0.142857|0.142857|0.000000||",
    "AccountG|User6|0|0.000000|30|0.142857|0.142857|0.000000||",
    "AccountH||50|0.333333|110|0.523810|0.523810|0.336475||",
    "AccountH|UHRA1|parent|0.333333|20|0.095238|0.523810|0.336475||",
    "AccountH|UHRA2|40|0.078431|20|0.095238|0.196078|0.176777||",
    "AccountH|UHRA3|50|0.098039|25|0.119048|0.238095|0.185749||",
    "AccountHTA||parent|0.333333|45|0.214286|0.523810|0.336475||",
    "AccountHTA|UHTAStd1|parent|0.333333|10|0.047619|0.523810|0.336475||",
    "AccountHTA|UHTAStd2|30|0.058824|10|0.047619|0.131653|0.211966||",
    "AccountHTA|UHTAStd3|50|0.098039|25|0.119048|0.238095|0.185749||",
]


@pytest.mark.parametrize("expected", TEST_24_3_EXPECT)
def test_slurm_test24_3_classic_parent(expected: str) -> None:
    lines = _lines(TEST_24_3_TREE, TEST_24_3_USAGE, "classic", account_fairshare=True)
    assert any(expected in line for line in lines), "\n".join(lines)
