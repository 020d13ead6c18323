"""``fs whatif ... sshare``: every figure as ``fs sshare -P`` prints its field, on each side.

sshare prints NormShares, EffectvUsage and FairShare with ``print_fields_double``
(``%f``: ``0.027321``), RawShares and RawUsage with ``print_fields_uint64``. The comparison
printed the doubles in ``%g`` (``0.0273209``, ``0.0909091``, ``0 -> 1``, ``- -> 0.5``) beside
sshare's ``0.027321``, ``0.090909``, ``0.000000``; now each side is the cell ``fs sshare
-a -P`` prints for that row, before under the config, after under the config with
``fairshare = "classic"`` (``-`` where sshare prints none).

An account's FairShare: 26.05's sshare prints it on a user's row alone (``process.c``,
``PRINT_FSFACTOR``: ``NO_VAL64``, a blank, where the row has no user), 22.05's on every
row under classic. The comparison showed the account's classic factor (``root  - ->
0.500000``) that ``fs sshare`` leaves blank under 26.05, from the rows ``fs sshare --json``
carries; now it is blank on the side whose ``fs sshare`` prints it blank, and shown on the
side that prints it (``--set priority.output_compat="22.05"`` too).
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

Run = Callable[..., Any]
REPO = Path(__file__).resolve().parents[2]
NOW = "2026-11-21T12:00:00Z"
FIELDS = "Account,User,NormShares,EffectvUsage,FairShare"


def _sshare(run: Run, config: Path) -> dict[str, list[str]]:
    """``fs sshare -a -P``'s cells by row (``account/user``), ``-`` for a blank one."""
    args = ["-a", "-P", "-o", FIELDS, "--config", str(config), "--now", NOW]
    result = run("sshare", *args)
    assert result.exit_code == 0, result.stderr
    rows = {}
    for line in result.stdout.splitlines()[1:]:
        account, user, *cells = line.split("|")
        rows[f"{account.strip()}/{user}" if user else account.strip()] = [c or "-" for c in cells]
    return rows


@pytest.mark.parametrize(
    ("settings", "compat", "root"),
    [
        ([], "", "                   -"),
        (['priority.output_compat="22.05"'], '\noutput_compat = "22.05"', "       - -> 0.500000"),
    ],
)
def test_each_side_prints_what_sshare_prints(
    tmp_path: Path, run: Run, settings: list[str], compat: str, root: str
) -> None:
    shutil.copy(REPO / "sample_configs" / "sample-state.json", tmp_path / "sample-state.json")
    shutil.copy(
        REPO / "sample_configs" / "sample-state.history.sqlite",
        tmp_path / "sample-state.history.sqlite",
    )
    text = (REPO / "sample_configs" / "pool.toml").read_text()
    (tmp_path / "pool.toml").write_text(text)
    assert 'fairshare = "fair_tree"' in text and "output_compat" not in text
    classic = tmp_path / "classic.toml"
    classic.write_text(text.replace('fairshare = "fair_tree"', f'fairshare = "classic"{compat}', 1))
    sets = [word for setting in settings for word in ("--set", setting)]
    table = run(
        "whatif",
        "--set",
        'priority.fairshare="classic"',
        *sets,
        "sshare",
        "-a",
        "--config",
        str(tmp_path / "pool.toml"),
        "--now",
        NOW,
        env={"COLUMNS": "200"},
    )
    assert table.exit_code == 0, table.stderr
    lines = table.stdout.splitlines()
    assert [h.strip() for h in lines[1].split("┃")] == [
        *("sshare", "rank", "norm shares", "eff. usage", "fairshare"),
    ]
    assert (
        lines[3] == f"root            │    1 │ 0.000000 -> 1.000000 │             1.000000 │ {root}"
    )
    assert lines[4] == (
        "root/ops        │    2 │             0.090909 │             0.027321 │ 1.000000 -> 0.811954"
    )
    before, after = _sshare(run, tmp_path / "pool.toml"), _sshare(run, classic)
    assert before["root/ops"] == ["0.090909", "0.027321", "1.000000"]
    assert before["root"][2] == "-" and after["root"][2] == root.split()[-1]
    shown = {}
    for line in lines[3:-1]:
        name, _, *cells = (part.strip() for part in line.split("│"))
        shown[name] = [cell.split(" -> ") for cell in cells]
    assert shown.keys() == before.keys() == after.keys()
    for name, cells in shown.items():
        for i, sides in enumerate(cells):
            want = [before[name][i], after[name][i]]
            assert sides == (want[:1] if want[0] == want[1] else want), (name, i)
