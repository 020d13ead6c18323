"""``fs sshare -o`` against rules read in Slurm's ``src/common/print_fields.c``
(``print_fields_double``), ``src/sshare/process.c`` and ``slurm_addto_char_list`` that no
capture exercises: doubles in a left-justified field, doubles in a field too narrow for
``%e``, and the field list's spaces, repeats and widths. Every expected line is worked out
by hand from those functions, on the sample pool (docs/slurm.md's sessions)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.cli.conftest import EMPTY_STATE

REPO = Path(__file__).resolve().parents[2]
POOL = ["--config", str(REPO / "sample_configs" / "pool.toml"), "--now", "2026-11-21T12:00:00Z"]


def _lines(run: Callable[..., Any], fields: str, count: int) -> list[str]:
    result = run("sshare", "-a", "-o", fields, *POOL)
    assert result.exit_code == 0, result.stderr
    return result.stdout.splitlines()[:count]


def test_a_left_justified_double_is_printed_from_the_left(run: Callable[..., Any]) -> None:
    """print_fields_double: ``%-*f`` where the field's width is negative (``Name%-N``), as
    its header (``%*.*s``) and strings are; a blank double stays N spaces."""
    fields = "Account,User%-6,EffectvUsage%-13,FairShare%-10,RawUsage%-11"
    assert _lines(run, fields, 4) == [
        "Account              User   EffectvUsage  FairShare  RawUsage    ",
        "-------------------- ------ ------------- ---------- ----------- ",
        "root                        1.000000                 8805629     ",
        " root                ops    0.027321      1.000000   240578      ",
    ]


def test_a_double_too_wide_for_a_narrow_field_takes_cs_default_precision(
    run: Callable[..., Any],
) -> None:
    """print_fields_double: 1.000000 is wider than 5, so ``%5.5e`` (1.00000e+00, 11
    characters); 6 too many, the width and precision become 5 - 6 = -1, which printf takes
    as a left-justified width of 1 and the default precision, 6: 1.000000e+00 (Python's
    ``%`` takes that precision as 0: 1e+00). Width 7: ``%7.7e`` is 13 long, so ``%1.1e``."""
    assert _lines(run, "Account,User,FairShare%5", 4) == [
        "Account                    User FairS ",
        "-------------------- ---------- ----- ",
        "root                                  ",
        " root                       ops 1.000000e+00 ",
    ]
    assert _lines(run, "User,FairShare%-4", 4)[3] == "       ops 1.000000e+00 "
    assert _lines(run, "User,FairShare%7", 4)[3] == "       ops 1.0e+00 "


def test_the_field_list_is_read_as_slurm_reads_a_name_list(run: Callable[..., Any]) -> None:
    """slurm_addto_char_list trims each name and keeps one of equal names, the last
    (" Account " is Account; "User,Account,User" is Account, User); process.c sets a
    width on the one field record every mention of the field prints, so the last width
    given is every mention's (User%5 and User: both 5 wide)."""
    assert _lines(run, "User%5, Account ,FairShare%12,User", 4) == [
        " User Account                 FairShare  User ",
        "----- -------------------- ------------ ----- ",
        "      root                                    ",
        "  ops  root                    1.000000   ops ",
    ]
    assert _lines(run, "User,Account,User", 1) == ["Account                    User "]


def test_m_adds_the_partition_column_after_user(run: Callable[..., Any]) -> None:
    """sshare.c's ``-m`` (PRINT_PARTITIONS) puts ``P`` (Partition, 12 wide) after User
    in the default lists; associations without a partition print it blank."""
    result = run("sshare", "-a", "-m", *POOL)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[:4] == [
        "Account                    User    Partition  RawShares  NormShares    RawUsage  "
        "EffectvUsage  FairShare ",
        "-------------------- ---------- ------------ ---------- ----------- ----------- "
        "------------- ---------- ",
        # Account (20), User (10), Partition (12) and RawShares (10) blank, then 0.000000
        # right-justified in NormShares' 11: 56 + 3 characters before it.
        "root" + " " * 55 + "0.000000     8805629      1.000000            ",
        " root                       ops" + " " * 22 + "10    0.090909      240578      "
        "0.027321   1.000000 ",
    ]
    long_ = run("sshare", "-a", "-l", "--partition", "-P", *POOL)
    assert long_.stdout.splitlines()[0] == (
        "Account|User|Partition|RawShares|NormShares|RawUsage|NormUsage|EffectvUsage|"
        "FairShare|LevelFS|GrpTRESMins|TRESRunMins"
    )


def _users(run: Callable[..., Any], *args: str) -> list[str]:
    result = run("sshare", "-U", "-n", "-P", "-o", "User", *args, *POOL)
    assert result.exit_code == 0, result.stderr
    return result.stdout.splitlines()


def test_the_last_of_a_and_u_decides_which_users_are_shown(run: Callable[..., Any]) -> None:
    """sshare.c: ``-a`` sets all_users, a later ``-u LIST`` clears it (only LIST), a later
    ``-a`` sets it again (the list dropped); ``-u -1`` is every user, a later ``-u LIST``
    is only LIST."""
    assert _users(run, "-a", "-u", "carol") == ["carol"]
    assert len(_users(run, "-u", "carol", "-a")) == 9
    assert _users(run, "-u", "-1", "-u", "grace") == ["grace"]
    assert len(_users(run, "-u", "grace", "-u", "-1")) == 9


def test_users_and_accounts_are_matched_without_regard_to_case(run: Callable[..., Any]) -> None:
    """``assoc_mgr_get_shares`` (22.05 and today) keeps a row whose user and account are in
    ``-u``'s and ``-A``'s lists by ``xstrcasecmp``: ``fs sshare -A HEP -u DAVE,Bob`` listed
    nothing; it lists hep's row and bob's and dave's, as ``-A hep -u dave,bob`` does (the
    numbers are docs/slurm.md's ``sshare -a -l`` session). hep's parent is not listed, so
    ``slurmdb_tree_name_get`` indents hep's row by nothing and its users' by one space."""
    result = run("sshare", "-A", "HEP", "-u", "DAVE,Bob", *POOL)
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout.splitlines()[2:] == [
        "hep                                     40    0.666667     3592695      0.626658            ",
        " hep                        bob          1    0.333333      876556      0.243983   0.444444 ",
        " hep                       dave          1    0.333333     1325071      0.368824   0.333333 ",
    ]
    assert result.stdout == run("sshare", "-A", "hep", "-u", "dave,bob", *POOL).stdout


def test_quotes_in_the_field_list_are_read_as_slurm_reads_them(run: Callable[..., Any]) -> None:
    """slurm_addto_char_list: a list that opens with a quote ends at the next one (what
    follows is dropped: ``'Account,User' ,RawShares`` is Account, User); any other quote
    becomes a backquote, and the name is refused with it. fs cut at every comma and
    refused ``"account`` and ``acc'x`` as written."""
    header = ["Account                    User ", "-------------------- ---------- "]
    assert _lines(run, '"Account,User"', 2) == header
    assert _lines(run, "'Account,User' ,RawShares", 2) == header
    result = run("sshare", "-a", "-o", "Acc'x", *POOL)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == 'fs: error: Invalid field requested: "acc`x"\n'


def test_each_o_adds_to_the_list(run: Callable[..., Any]) -> None:
    """sshare.c appends each ``-o`` and a comma (``xstrfmtcat(opt_field_list, "%s,",
    optarg)``): ``-o Account -o User%4`` is ``Account,User%4,``, two columns, the second 4
    wide; a quote opening the first ``-o`` runs on into the next."""
    result = run("sshare", "-a", "-o", "Account", "-o", "User%4", *POOL)
    assert result.stdout.splitlines()[:2] == ["Account              User ", "-" * 20 + " ---- "]
    quoted = run("sshare", "-a", "-o", "'Account", "-o", "User'", *POOL)
    assert quoted.stdout.splitlines()[0] == "Account                    User "


def test_u_names_are_cut_at_commas_without_trimming(run: Callable[..., Any]) -> None:
    """sshare.c reads ``-u`` with slurm_parse_char_list (22.05 and 26.05), which trims
    nothing: ``-u "alice, bob"`` names alice and " bob", and no user is " bob", so only
    alice's row is shown (fs trimmed and showed bob's too). A list opening with a quote
    ends at the next quote, as ``-o``'s does: ``-u "'alice,bob"`` is alice and bob."""
    assert _users(run, "-u", "alice, bob") == ["alice"]
    assert _users(run, "-u", "'alice,bob") == ["alice", "bob"]


def test_a_u_name_starting_with_a_digit_is_a_uid(tmp_path: Path, run: Callable[..., Any]) -> None:
    """sshare.c's ``_addto_name_char_list_internal``: a name whose first character is a
    digit is ``strtoul``'d into a uid and replaced by its user name (from 23.11,
    ``uid_to_string_or_null`` names uid 0 ``root`` whatever the passwd file says), so
    ``-u 0`` shows root's row; fs looked for a user called "0". A uid with no passwd entry
    ends sshare with ``Invalid user id: N`` (fs: exit 2, the usage error); 99999999999 is
    held in a uint32_t as 99999999999 mod 2**32 = 1215752191."""
    config = tmp_path / "pool.toml"
    config.write_text(
        '[pool]\nname = "uids"\n\n'
        '[[machines]]\nname = "n1"\nattributes = { Cpus = 8 }\n\n'
        "[partitions.batch]\ndefault = true\n\n"
        "[accounts.ops]\nusers = { root = 1, ann = 1 }\n"
    )
    (tmp_path / "s.json").write_text(EMPTY_STATE, encoding="utf-8")
    common = ["--config", str(config), "--state", str(tmp_path / "s.json"), "--now", POOL[-1]]
    result = run("sshare", "-U", "-n", "-P", "-o", "Account,User", "-u", "0", *common)
    assert (result.exit_code, result.stdout, result.stderr) == (0, "ops|root\n", "")
    for uid, held in (("4000000", 4000000), ("99999999999", 1215752191)):
        result = run("sshare", "-u", uid, *common)
        assert (result.exit_code, result.stdout) == (2, "")
        assert result.stderr.startswith(f"fs: error: Invalid user id: {held} (-u {uid}: ")


def test_an_empty_a_names_no_account(run: Callable[..., Any]) -> None:
    """``-A`` is read by slurm_addto_char_list, which keeps an empty list as one empty name
    (``check for empty strings user='' etc``): ``-A ""`` asks for the account "", which
    no association is in, so assoc_mgr_get_shares returns no row and sshare prints the
    header alone; fs took it as no -A and printed every account."""
    result = run("sshare", "-a", "-A", "", *POOL)
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout.splitlines() == [
        "Account                    User  RawShares  NormShares    RawUsage  EffectvUsage  "
        "FairShare ",
        "-------------------- ---------- ---------- ----------- ----------- ------------- "
        "---------- ",
    ]


def test_slurm_22_05_trims_no_name_of_o_or_a(tmp_path: Path, run: Callable[..., Any]) -> None:
    """slurm_addto_char_list trims each name from Slurm 25.05 on (``_add_to_list``'s
    ``xstrtrim``); 22.05's keeps the spaces. Under ``output_compat = "22.05"``,
    ``-o "Account, User"`` asks for " user", which no field's name starts with:
    ``Invalid field requested: " user"``; and ``-A "astro, hep"`` names " hep", which
    no account is, so astro's rows alone are shown. fs trimmed both, as 26.05 does (and
    still does under the current output)."""
    config = tmp_path / "pool.toml"
    pool = (REPO / "sample_configs" / "pool.toml").read_text()
    config.write_text(pool.replace("[priority]\n", '[priority]\noutput_compat = "22.05"\n', 1))
    state = str(REPO / "sample_configs" / "sample-state.json")
    common = ["--config", str(config), "--state", state, "--now", POOL[-1]]
    result = run("sshare", "-a", "-o", "Account, User", *common)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == 'fs: error: Invalid field requested: " user"\n'
    result = run("sshare", "-a", "-A", "astro, hep", "-n", "-P", "-o", "Account,User", *common)
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout.splitlines() == ["astro|", " astro|erin", " astro|frank"]
    current = run("sshare", "-a", "-A", "astro, hep", "-n", "-P", "-o", "Account,User", *POOL)
    assert len(current.stdout.splitlines()) == 7  # astro and hep, each with its users


def test_accounts_are_indented_from_the_rows_printed(run: Callable[..., Any]) -> None:
    """process.c names each row's account with ``slurmdb_tree_name_get`` (22.05 and 26.05
    alike), which indents a row one space deeper than its parent's row among those printed
    so far, and not at all when that row is not printed: ``-A physics,hep`` prints physics
    (its parent, root, left out) flush left, hep one space in, hep's users two; ``-U`` skips
    every account row before naming it, so no user row is indented. fs indented each row
    by its depth in the whole tree (" physics", "  hep", "   hep|alice")."""
    result = run("sshare", "-a", "-A", "physics,hep", "-P", "-o", "Account,User", *POOL)
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout.splitlines() == [
        "Account|User",
        "physics|",
        " hep|",
        "  hep|alice",
        "  hep|bob",
        "  hep|dave",
    ]
    result = run("sshare", "-a", "-U", "-n", "-o", "Account,User", *POOL)
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout.splitlines()[:2] == [
        "root                        ops ",
        "chemistry                 carol ",
    ]
    assert result.stdout.splitlines()[-1] == "hep                        dave "


def test_a_cell_counts_the_bytes_of_a_utf_8_name(tmp_path: Path, run: Callable[..., Any]) -> None:
    """print_fields_str fits a name by ``strlen`` and ``%*.*s``, bytes both: "josé" (5
    bytes) takes 5 of User's 10 columns' room, so 5 spaces before it, not 6; "ééééééé"
    (14 bytes) is cut to its first 9 bytes and a "+" (four é, the first byte of the
    fifth), written as they are; ``User%-6``: 5 bytes and "+", two é and a lone byte. fs
    counted letters."""
    config = tmp_path / "pool.toml"
    config.write_text(
        '[pool]\nname = "utf8"\n\n'
        '[[machines]]\nname = "n1"\nattributes = { Cpus = 8 }\n\n'
        "[partitions.batch]\ndefault = true\n\n"
        '[accounts.ops]\nusers = { "josé" = 1, "ééééééé" = 1 }\n',
        encoding="utf-8",
    )
    (tmp_path / "s.json").write_text(EMPTY_STATE, encoding="utf-8")
    common = ["--config", str(config), "--state", str(tmp_path / "s.json"), "--now", POOL[-1]]
    result = run("sshare", "-a", "-U", "-n", "-o", "User", "-u", "josé", *common)
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == "     josé \n"
    e = "é".encode()
    env = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONIOENCODING": "utf-8"}
    for fields, cut in (("User", e * 4 + e[:1] + b"+ "), ("User%-6", e * 2 + e[:1] + b"+ ")):
        line = [sys.executable, "-m", "fairshare_cli", "sshare", "-a", "-U", "-n", "-o", fields]
        done = subprocess.run(
            [*line, *common], capture_output=True, env=env, cwd=REPO, timeout=60, check=False
        )
        assert (done.returncode, done.stderr) == (0, b"")
        assert done.stdout.splitlines()[1] == cut


def test_a_utf_8_name_beside_a_double_too_wide_for_its_field(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """fs sshare -a -n -o User%-20,EffectvUsage%5: "ééé" (6 bytes, 3 letters) left 17
    letters of its 20 bytes, and the 0 of EffectvUsage (0.000000, 3 past its 5) filled the
    line to its width in letters, so the narrow field's %e (0.000000e+00) was not taken:
    print_fields_double prints it as for bob."""
    config = tmp_path / "pool.toml"
    config.write_text(
        '[pool]\nname = "utf8"\n\n'
        '[[machines]]\nname = "n1"\nattributes = { Cpus = 8 }\n\n'
        "[partitions.batch]\ndefault = true\n\n"
        '[accounts.ops]\nusers = { "ééé" = 1, bob = 1 }\n',
        encoding="utf-8",
    )
    (tmp_path / "s.json").write_text(EMPTY_STATE, encoding="utf-8")
    common = ["--config", str(config), "--state", str(tmp_path / "s.json"), "--now", POOL[-1]]
    result = run("sshare", "-a", "-n", "-o", "User%-20,EffectvUsage%5", *common)
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout.splitlines()[2:] == [
        "bob                  0.000000e+00 ",
        "ééé" + " " * 14 + " 0.000000e+00 ",
    ]
