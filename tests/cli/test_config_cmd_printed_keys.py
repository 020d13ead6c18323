"""``fs config check`` prints every effective value (docs/config.md): a key the config
accepts but the check left out (``priority.accounting_storage_tres``, read only to check
TRES weights) could not be seen, nor compared by an admin reading the check."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import common
from tests.test_docs import NAMED, accepted_keys


def test_accounting_storage_tres_is_printed(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``fs config check --config c.toml`` of ``[priority] accounting_storage_tres =
    "gres/gpu"`` printed no line of it (nor a JSON key); now it does, and (unset) without."""
    config = tmp_path / "c.toml"
    config.write_text(
        '[pool]\ndefaults = "current"\n[priority]\naccounting_storage_tres = "gres/gpu"\n',
        encoding="utf-8",
    )
    result = run("config", "check", "--config", str(config))
    assert result.exit_code == 0, result.stderr
    assert 'priority.accounting_storage_tres = "gres/gpu"\n' in result.stdout
    shown = run("config", "check", "--config", str(config), "--json")
    assert '"accounting_storage_tres": "gres/gpu"' in shown.stdout
    config.write_text('[pool]\ndefaults = "current"\n', encoding="utf-8")
    result = run("config", "check", "--config", str(config))
    assert "priority.accounting_storage_tres = (unset)\n" in result.stdout


def test_every_key_of_a_plain_table_is_printed(
    tmp_path: Path, run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every key the reader accepts in a table of fixed keys ([pool], [accountant],
    [priority], [dirac] ...) has its line in ``fs config check``'s output."""
    keys = accepted_keys(monkeypatch)
    monkeypatch.undo()
    config = tmp_path / "c.toml"
    config.write_text('[pool]\ndefaults = "current"\n', encoding="utf-8")
    out = run("config", "check", "--config", str(config)).stdout
    printed = {line.split(" = ")[0] for line in out.splitlines() if " = " in line}
    tables = {k.rsplit(".", 1)[0] for k in keys if "." in k} | NAMED
    plain = {
        k
        for k in keys
        if "<name>" not in k and k not in tables
        and not k.startswith(("machines", "dirac.correction.instances"))
    }  # fmt: skip
    assert sorted(plain - printed) == []


@pytest.mark.parametrize(
    ("group", "printed"),
    [
        ("o'brien", 'dirac.groups."o\'brien".job_share'),
        ('say"hi', "dirac.groups.'say\"hi'.job_share"),
        ("a b", 'dirac.groups."a b".job_share'),
        ("plain", "dirac.groups.plain.job_share"),
    ],
)
def test_a_printed_key_is_one_set_reads_back(
    env: dict[str, Path], run: Callable[..., Any], group: str, printed: str
) -> None:
    """``fs config check --config c.toml`` printed a DIRAC group ``o'brien``'s keys bare,
    ``dirac.groups.o'brien.job_share``, which ``fs whatif --set`` refused ('a single quote is
    not closed'); each name is now quoted where a quote, blank or dot in it would end or
    split it, and ``fs whatif --set KEY=2000 taskqueues`` of the printed key takes it."""
    quoted = group.replace("\\", "\\\\").replace('"', '\\"')
    env["config"].write_text(
        env["config"].read_text(encoding="utf-8")
        + f'\n[dirac.groups."{quoted}"]\njob_share = 1000\nvo = "v"\n',
        encoding="utf-8",
    )
    result = run("config", "check", "--config", str(env["config"]))
    assert result.exit_code == 0, result.stderr
    assert f"{printed} = 1000\n" in result.stdout
    changed = run("whatif", "--set", f"{printed}=2000", "taskqueues", *common(env))
    assert changed.exit_code == 0, changed.stderr
    assert changed.stdout.startswith(f"fs taskqueues with {printed}=2000: before -> after: ")
