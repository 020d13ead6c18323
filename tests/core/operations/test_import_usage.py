"""``import_usage`` reads its source once when the reader refuses a line, and again record
by record only when a model refuses a record (to name the first one)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from fairshare_cli.core.operations.import_usage import import_usage
from fairshare_cli.core.state import State
from fairshare_cli.core.usage import UsageRecord
from fairshare_cli.errors import InputError
from fairshare_cli.io.config import load_config

NOW = 1_795_262_400.0
CONFIG = load_config(Path(__file__).parents[3] / "sample_configs" / "pool.toml")


def _source(last: UsageRecord | None, readings: list[int]) -> Iterator[UsageRecord]:
    """Three good records in start order, then ``last`` (None: a line the reader refuses)."""
    readings.append(1)
    for k in range(3):
        yield UsageRecord("alice", NOW - 3600 + k, NOW - 60)
    if last is None:
        raise InputError("h.jsonl:4: missing required field 'owner'")
    yield last


def test_a_line_the_reader_refuses_is_read_once() -> None:
    readings: list[int] = []
    with pytest.raises(InputError) as caught:
        import_usage(CONFIG, State(), NOW, lambda: _source(None, readings), label="h.jsonl")
    assert str(caught.value) == "h.jsonl:4: missing required field 'owner'"
    assert readings == [1]


def test_a_record_a_model_refuses_is_named_after_a_second_reading() -> None:
    readings: list[int] = []
    late = UsageRecord("alice", NOW + 60)  # (starts after now)
    with pytest.raises(InputError) as caught:
        import_usage(CONFIG, State(), NOW, lambda: _source(late, readings), label="h.jsonl")
    assert str(caught.value).startswith("h.jsonl: record 4")
    assert readings == [1, 1]
