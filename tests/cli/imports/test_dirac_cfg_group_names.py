"""``fs import dirac-cfg`` of groups whose names hold a blank, a ``'`` or a ``\\``.

diraccfg's ``loadFromBuffer`` names a section by its line up to the ``{``, stripped, and
``createNewSection`` refuses only an empty name: ``lhcb user`` (and ``lhcb  prod``, two
blanks) are groups DIRAC reads (``/Registry/Groups/lhcb user/JobShare``). fs refused them
("a group name in Registry/Groups: expected a name without blanks or control characters").
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

GROUPS = """Registry
{
  Groups
  {
    lhcb user
    {
      JobShare = 1000
    }
    lhcb  prod
    {
      JobShare = 3000
      Properties = JobSharing
    }
    o'brien
    {
      JobShare = 200
    }
    back\\slash
    {
      JobShare = 100
    }
  }
}
"""


def test_group_names_with_blanks_quotes_and_backslashes_are_imported(
    run: Callable[..., Any], write_config: Callable[..., Path], tmp_path: Path
) -> None:
    cfg = write_config(GROUPS, "g.cfg")
    result = run("import", "dirac-cfg", str(cfg))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.split("\n\n", 1)[1] == (
        '[dirac.groups."lhcb user"]\n'
        "job_share = 1000\n"
        "job_sharing = false\n"
        "allow_background_tqs = false\n"
        "\n"
        '[dirac.groups."lhcb  prod"]\n'
        "job_share = 3000\n"
        "job_sharing = true\n"
        "allow_background_tqs = false\n"
        "\n"
        '[dirac.groups."o\'brien"]\n'
        "job_share = 200\n"
        "job_sharing = false\n"
        "allow_background_tqs = false\n"
        "\n"
        '[dirac.groups."back\\\\slash"]\n'
        "job_share = 100\n"
        "job_sharing = false\n"
        "allow_background_tqs = false\n"
        "\n"
        "[dirac.correction]\n"
        "enabled = false\n"
        "instances = []\n"
    )
    assert result.stderr == (
        "dirac-cfg: 4 groups, share correction off with 0 instances (0 slices), "
        "default CPU segments\n"
    )
    target = tmp_path / "pool.toml"
    merged = run("import", "dirac-cfg", str(cfg), "--into", str(target))
    assert merged.exit_code == 0, merged.stderr
    check = run("config", "check", "--config", str(target))
    assert check.exit_code == 0, check.stderr
    shares = [line for line in check.stdout.splitlines() if line.endswith("job_share = 100")]
    assert shares == ["dirac.groups.back\\slash.job_share = 100"]
    assert 'dirac.groups."lhcb  prod".job_share = 3000\n' in check.stdout
