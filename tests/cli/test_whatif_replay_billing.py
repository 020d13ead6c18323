"""``fs whatif --set partitions.<name>.billing_weights=...``: a partition's
``TRESBillingWeights`` revalue its recorded usage, so the after side replays the kept
history under them (as ``priority.decay_halflife`` or a QOS's ``usage_factor`` does).

Every record of the sample history runs in ``batch``; a history record names CPUs alone,
so ``"CPU=2.0"`` bills each twice its CPUs: every association's RawUsage doubles (to the
last bits: the stored usage summed the same charges in another order), and every
normalised figure stays: the changes are the RawUsage of each association that has used
anything, doubled.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]


def test_billing_weights_replay_the_history(run: Callable[..., Any]) -> None:
    from fairshare_cli.cli.whatif_replay import replayed_sections

    assert replayed_sections({"partitions.batch.billing_weights": "CPU=2"}) == {"slurm"}
    result = run(
        *("whatif", "--set", 'partitions.batch.billing_weights="CPU=2.0"', "sshare", "-a"),
        *("--config", str(REPO / "sample_configs" / "pool.toml"), "--json"),
        *("--now", "2026-11-21T12:00:00Z"),
    )
    assert result.exit_code == 0, result.stderr
    shown = json.loads(result.stdout)
    before = {(r["account"], r["user"]): r["raw_usage"] for r in shown["before"]}
    after = {(r["account"], r["user"]): r["raw_usage"] for r in shown["after"]}
    assert before.keys() == after.keys()
    assert after == pytest.approx({key: 2 * value for key, value in before.items()}, rel=1e-12)
    used = {key for key, value in before.items() if value}
    assert {change["field"] for change in shown["changes"]} == {"raw_usage"}
    assert len(shown["changes"]) == len(used) > 0
    for change in shown["changes"]:
        assert change["after"] == pytest.approx(2 * change["before"], rel=1e-12)
