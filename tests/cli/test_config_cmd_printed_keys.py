"""``fs config check`` prints every effective value (docs/config.md): a key the config
accepts but the check left out (``priority.accounting_storage_tres``, read only to check
TRES weights) could not be seen, nor compared by an admin reading the check."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

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
