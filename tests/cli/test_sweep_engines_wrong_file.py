"""A file of another kind given as ``fs sweep SPEC`` (cli/sweep_engines.py): the refusal
says what the file looks like, as an import's does."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

Run = Callable[..., Any]


def test_a_pool_config_as_the_spec_is_told_the_spec_names_it(tmp_path: Path, run: Run) -> None:
    """``fs sweep pool.toml --out runs`` said only "pool.toml: unknown key 'pool'"; it now
    says the file is a pool config, which a spec names in its config key (fs sweep takes no
    --config). Exit 2, no folder made, the file unchanged."""
    config = tmp_path / "pool.toml"
    text = '[pool]\ndefaults = "current"\n\n[accountant]\npriority_halflife = 86400\n'
    config.write_text(text, encoding="utf-8")
    result = run("sweep", str(config), "--out", str(tmp_path / "runs"))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"fs: error: {config}: unknown key 'pool'; it looks like fs's own pool config: a sweep"
        ' spec names it as config = "..." (docs/sweep.md)\n'
    )
    assert not (tmp_path / "runs").exists()
    assert config.read_text(encoding="utf-8") == text


def test_a_jobs_file_as_the_spec_is_named(tmp_path: Path, run: Run) -> None:
    """``fs sweep run jobs.json --out runs`` named the TOML fault alone; it now adds that
    the file is a jobs file and where one goes."""
    jobs = tmp_path / "jobs.json"
    jobs.write_text('[\n  {"id": "1.0", "owner": "alice"}\n]\n', encoding="utf-8")
    result = run("sweep", "run", str(jobs), "--out", str(tmp_path / "runs"))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"fs: error: sweep spec {jobs} is not valid TOML: Invalid initial character for a key"
        " part (at line 1, column 2); it looks like a jobs file: give it to fs submit --file,"
        " or as --jobs-file or --workload\n"
    )
    assert not (tmp_path / "runs").exists()
