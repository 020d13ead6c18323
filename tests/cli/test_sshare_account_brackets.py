"""``fs sshare -A 'hep[1-2]'``: the accounts of a bracketed name, as sshare's
``slurm_addto_char_list`` reads ``-A`` (and ``-o``, and ``-M``'s cluster names).

Before, a ``[`` was not modelled: ``-A 'hep[1-2]'`` named the account ``hep[1-2]``, which
no association is in, and printed the header alone. The expected lists are derived by
hand from ``slurm_addto_char_list_with_case`` (``src/common/slurm_protocol_defs.c``, 22.05
and today alike): a ``[`` keeps commas from cutting until the next ``]``; at that ``]``
the text since the last cut is handed to ``hostlist_create`` and each name
``hostlist_shift`` gives is added (lower case, the last of equal ones kept); what follows
the ``]`` up to the next comma is dropped, a last such piece kept as a name. A range the
hostlist refuses (``_parse_single_range``: ``Invalid range: `x'`` on stderr) adds nothing,
its text read on with what follows. ``hostlist.c`` cuts at spaces, tabs and commas
(today newlines too, 22.05 not), reads ``lo-hi`` and ``a,b`` lists, and pads each number
to the width of the first one (``01-03``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import NOW

CONFIG = """
[pool]
name = "pool1"
[[machines]]
name = "exec"
count = 1
slots = 2
attributes = { Cpus = 1, Memory = 4096 }
partitions = ["batch"]
[partitions.batch]
default = true
[accounts.hep1]
shares = 1
users = { alice = 1 }
[accounts.hep2]
shares = 1
users = { bob = 1 }
[accounts.hep3]
shares = 1
users = { carol = 1 }
[accounts.hep01]
shares = 1
users = { dave = 1 }
"""
OLD = '[priority]\noutput_compat = "22.05"\n'
HEADER = "Account|User|RawShares|NormShares|RawUsage|EffectvUsage|FairShare\n"
ROWS = {
    name: f"{name}||1|0.250000|0|0.000000|0.625000\n {name}|{user}|1|0.250000|0|0.000000|0.625000\n"
    for name, user in (("hep1", "alice"), ("hep2", "bob"), ("hep3", "carol"), ("hep01", "dave"))
}


def _pool(folder: Path, extra: str = "") -> list[str]:
    (folder / "pool.toml").write_text(CONFIG + extra, encoding="utf-8")
    (folder / "state.json").write_text(
        '{"format": "fairshare-cli state", "schema_version": 1}', encoding="utf-8"
    )
    return ["--config", str(folder / "pool.toml"), "--state", str(folder / "state.json"),
            "--now", NOW]  # fmt: skip


@pytest.mark.parametrize(
    ("accounts", "listed"),
    [
        pytest.param("hep[1-2]", ["hep1", "hep2"], id="range"),
        pytest.param("HEP[1,3]", ["hep1", "hep3"], id="list-any-case"),
        pytest.param("hep[01-03]", ["hep01"], id="zero-padded"),  # (hep01, hep02, hep03)
        pytest.param("hep[2]x,hep3", ["hep2", "hep3"], id="after-bracket-dropped"),
        pytest.param("hep[1]hep3", ["hep1", "hep3"], id="last-piece-kept"),
        pytest.param("x hep[3]", ["hep3"], id="space-cuts"),  # (x, hep3)
    ],
)
def test_sshare_A_expands_a_bracketed_name(
    accounts: str, listed: list[str], tmp_path: Path, run: Callable[..., Any]
) -> None:
    common = _pool(tmp_path)
    before = (tmp_path / "state.json").read_bytes()
    result = run("sshare", "-P", "-a", "-A", accounts, *common)
    assert (result.exit_code, result.stderr) == (0, "")
    # rows in the tree's order, whatever the list's
    assert result.stdout == HEADER + "".join(ROWS[name] for name in ROWS if name in listed)
    assert (tmp_path / "state.json").read_bytes() == before


def test_sshare_A_bad_range_warns_and_matches_nothing(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    result = run("sshare", "-P", "-a", "-A", "hep[x]", *_pool(tmp_path))
    assert (result.exit_code, result.stdout) == (0, HEADER)
    assert result.stderr == "fs: warning: Invalid range: `x'\n"


def test_sshare_v_lists_the_expanded_accounts(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``hep[3-1]`` is refused (lo above hi) and the comma after its ``]`` drops it."""
    result = run("sshare", "-v", "-a", "-P", "-A", "hep[3-1],HEP[2-3],hep2", *_pool(tmp_path))
    assert result.exit_code == 0
    assert result.stderr == (
        "fs: warning: Invalid range: `3-1'\n"
        "Users requested:\n\t: all\n"
        "Accounts requested:\n\t: hep3\n\t: hep2\n"
    )
    assert result.stdout == HEADER + ROWS["hep2"] + ROWS["hep3"]


@pytest.mark.parametrize(
    ("compat", "listed"),
    [
        pytest.param("", ["hep1", "hep2"], id="today"),  # (x, hep1, hep2)
        pytest.param('[priority]\noutput_compat = "22.05"\n', [], id="22.05"),  # ("x\nhep1", ...)
    ],
)
def test_sshare_A_newline_cuts_from_23_02(
    compat: str, listed: list[str], tmp_path: Path, run: Callable[..., Any]
) -> None:
    result = run("sshare", "-P", "-a", "-A", "x\nhep[1-2]", *_pool(tmp_path, compat))
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout.endswith("".join(ROWS[name] for name in listed))
    assert result.stdout.count("\n") == 1 + 2 * len(listed)


def test_sshare_o_expands_a_bracketed_field(tmp_path: Path, run: Callable[..., Any]) -> None:
    """process.c reads ``-o`` with slurm_addto_char_list: ``Acc[1]`` is ``acc1``."""
    common = _pool(tmp_path)
    before = (tmp_path / "state.json").read_bytes()
    result = run("sshare", "-o", "User,Acc[1]", *common)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == 'fs: error: Invalid field requested: "acc1"\n'
    assert (tmp_path / "state.json").read_bytes() == before


def test_sshare_M_expands_a_bracketed_cluster(tmp_path: Path, run: Callable[..., Any]) -> None:
    """slurm_get_cluster_info reads ``-M`` with slurm_addto_char_list: ``POOL[1]`` is pool1."""
    result = run("sshare", "-M", "POOL[1]", "-a", "-P", "-A", "hep1", *_pool(tmp_path))
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == "CLUSTER: pool1\n" + HEADER + ROWS["hep1"]


@pytest.mark.parametrize(
    ("cluster", "compat", "code"),
    [
        pytest.param(" pool[1]", "", 0, id="today-bracket"),
        pytest.param(" pool[1]", OLD, 0, id="22.05-bracket"),  # (a blank cuts a hostlist)
        pytest.param(" pool1", "", 0, id="today-trimmed"),
        pytest.param(" pool1", OLD, 2, id="22.05-untrimmed"),
    ],
)
def test_sprio_M_reads_the_list_as_sshare_does(
    cluster: str, compat: str, code: int, tmp_path: Path, run: Callable[..., Any]
) -> None:
    """sprio's ``-M`` goes through slurm_get_cluster_info too: `` pool[1]`` is pool1 (the
    hostlist parser skips the blank), and `` pool1`` is pool1 from Slurm 25.05 on (names
    trimmed), where 22.05 asks for the cluster `` pool1``, which fs's one is not."""
    options = _pool(tmp_path, compat)
    before = (tmp_path / "state.json").read_bytes()
    result = run("sprio", "-M", cluster, *options)
    assert result.exit_code == code
    if code:
        assert result.stderr == (
            f"fs: error: -M {cluster!r}: fs models one cluster, 'pool1' (the pool config's "
            "[pool] name); give that name or 'all', or leave -M out\n"
        )
    else:
        assert result.stderr == ""
    assert (tmp_path / "state.json").read_bytes() == before
