"""sshare's print_fields and sprio's format grammar, cell by cell."""

from __future__ import annotations

import math

import pytest

from fairshare_cli.core.slurm.priority import Weights
from fairshare_cli.core.slurm.priority_table import AssocShare, PartShare, PriorityTable
from fairshare_cli.errors import InputError
from fairshare_cli.render import sprio, sprio_table, sshare, sshare_fields
from fairshare_cli.render.sprio_table import listing_chunks

W = Weights(age=1000, fairshare=10000, jobsize=1000, partition=1000, qos=1000)


def _table(*rows: tuple[str, float, float, str]) -> PriorityTable:
    """A table of rows (job id, priority, weighted fair share, user): weighted age 10, job
    size 500 and partition 250, in partition ``batch``."""
    assocs = {}
    for _, _, fs, user in rows:
        assocs[fs, user] = AssocShare(user, ("hep", 0.0, fs / 10000, 0.0, fs))
    part = PartShare((0.5, 500.0, ()), ("batch", 0.25, 250.0, {}, {}, ()), ("normal", 0.0, 0.0))
    return PriorityTable(
        [r[0] for r in rows], [assocs[fs, user] for _, _, fs, user in rows], [part] * len(rows),
        [0.01] * len(rows), [10.0] * len(rows), [0] * len(rows), [0] * len(rows),
        [r[1] for r in rows],
    )  # fmt: skip


def _listing(fmt: sprio.SprioFormat, table: PriorityTable, header: bool = False) -> str:
    return "".join(listing_chunks(fmt, table, W, header=header))


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        pytest.param("%.3Y", "576", id="right-cut-to-width"),
        pytest.param("%3u", "ali", id="left-cut"),
        pytest.param("%8u|", "alice   |", id="left-padded"),
        pytest.param("%.8u", "   alice", id="right-padded"),
        pytest.param("%Y", "5760", id="natural-width"),
        pytest.param("x%.6F y", "x  5000 y", id="prefix-and-suffix"),
        pytest.param("%.12y", "0.0000013411", id="normalised-priority"),
        pytest.param("%.10f", " 0.5000000", id="normalised-factor"),
    ],
)
def test_sprio_cells(spec: str, expected: str) -> None:
    fmt, warnings = sprio.parse_format(spec)
    assert warnings == []
    assert _listing(fmt, _table(("1", 5760.0, 5000.0, "alice"))) == expected + "\n"


def test_sprio_unknown_letter_is_skipped_with_a_warning() -> None:
    fmt, warnings = sprio.parse_format("%.5i %z %.5Y")
    assert warnings == ["Invalid job format specification: z"]
    assert [f.letter for f in fmt.fields] == ["i", "Y"]


def test_sprio_sort_keys_and_float_tolerance() -> None:
    table = _table(("1", 100.0, 1.000001, "a"), ("2", 300.0, 1.0, "a"), ("3", 200.0, 2.0, "a"))
    rows = [0, 1, 2]
    assert sprio.sort_order(table, rows, "-Y") == [1, 2, 0]
    # fair share 1.000001 and 1.0 compare equal (within 1e-5): the stable sort keeps 1 first.
    assert sprio.sort_order(table, rows, "F") == [0, 1, 2]
    with pytest.raises(InputError, match="Invalid sort specification: Z"):
        sprio.sort_order(table, rows, "Z")


def test_sprio_default_format_lists_only_weighted_factors() -> None:
    w = Weights(age=0, fairshare=10, tres={"cpu": 5})
    assert sprio.default_format(w, long=False, norm=False, show_user=True) == (
        "%.15i %9r %.8u %.10Y %.10S %.10F %.20T"
    )
    assert sprio.default_format(w, long=False, norm=True, show_user=False) == (
        "%.15i %9r %10y %10f %20t"
    )


@pytest.mark.parametrize(
    ("kind", "width", "value", "expected"),
    [
        pytest.param("double", 10, 0.5, "  0.500000", id="double"),
        pytest.param("double", 10, math.inf, "       inf", id="inf"),
        pytest.param("double", 10, 12345678901.5, "1.2346e+10", id="exponent-fallback"),
        pytest.param("double", 10, 4294967294.0, "          ", id="no-val-blank"),
        pytest.param("double", 10, None, "          ", id="none-blank"),
        pytest.param("uint", 11, 1731.96, "       1731", id="truncated-usage"),
        pytest.param("uint", 10, "parent", "    parent", id="parent"),
        pytest.param("str", -20, "a" * 25, "a" * 19 + "+", id="cut-with-plus"),
        pytest.param("str", 10, "u1", "        u1", id="right-string"),
    ],
)
def test_sshare_cells(kind: str, width: int, value: object, expected: str) -> None:
    field = sshare_fields.Field("X", width, kind)
    assert sshare_fields.format_value(field, value, parsable=False) == expected


def test_sshare_format_prefixes_and_widths() -> None:
    fields = sshare_fields.parse_format("acc,U%4,rawu,Eff,fairs,lev")
    assert [(f.name, f.width) for f in fields] == [
        ("Account", -20),
        ("User", 4),
        ("RawUsage", 11),
        ("EffectvUsage", 13),
        ("FairShare", 10),
        ("LevelFS", 10),
    ]
    with pytest.raises(InputError, match='Invalid field requested: "nope"'):
        sshare_fields.parse_format("Account,Nope")


def test_sshare_parsable_modes() -> None:
    fields = sshare_fields.parse_format("Account,User,FairShare")
    rows = [{"account_display": " a", "user": None, "fairshare": 0.5}]
    assert sshare.render(fields, rows, mode="parsable") == (
        "Account|User|FairShare|\n a||0.500000|\n"
    )
    assert sshare.render(fields, rows, mode="parsable2", header=False) == " a||0.500000\n"
    assert sshare.render(fields, rows).splitlines()[1] == (
        "-------------------- ---------- ---------- "
    )


@pytest.mark.parametrize("count", [0, 1, 2, 3, 4, 5])
@pytest.mark.parametrize("header", [True, False])
def test_sprio_output_in_pieces_is_the_lines_joined(
    count: int, header: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Written in pieces of CHUNK_ROWS rows (here 2, so counts on and off a multiple),
    the output is the header and one line per row, each ending in a newline."""
    monkeypatch.setattr(sprio_table, "CHUNK_ROWS", 2)
    fmt, _ = sprio.parse_format("%.5i %.6Y")
    table = _table(*[(str(i + 1), 100.0 * (i + 1), 5000.0, "alice") for i in range(count)])
    lines = (["JOBID PRIORI"] if header else []) + [
        f"{i + 1:>5} {100 * (i + 1):>6}" for i in range(count)
    ]
    want = "".join(line + "\n" for line in lines)
    assert _listing(fmt, table, header) == want
