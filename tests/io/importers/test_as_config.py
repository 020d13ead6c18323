"""``check_fragment``: the pool config's own checks on an importer's fragment, a refusal
named at the line of the value it refuses."""

from __future__ import annotations

from typing import Any

import pytest

from fairshare_cli.errors import InputError
from fairshare_cli.io.importers.as_config import Origins, check_fragment


def _origins(*pairs: tuple[tuple[str | int, ...], str]) -> Origins:
    origins = Origins("in.txt")
    for path, where in pairs:
        origins.add(path, where)
    return origins


def _refusal(fragment: dict[str, Any], origins: Origins) -> str:
    with pytest.raises(InputError) as caught:
        check_fragment(fragment, origins)
    return str(caught.value)


def test_a_fragment_the_config_takes_passes() -> None:
    fragment = {"priority": {"weights": {"age": 4294967295}}}
    check_fragment(fragment, _origins((("priority", "weights", "age"), "in.txt:1: Age")))


def test_the_value_refused_is_named_though_a_later_one_is_fine() -> None:
    """Values before the refused one stay, those after it are left out: a machine naming a
    partition keeps it (tables stay), and its refused value is found at its own line."""
    fragment = {
        "machines": [{"name": "n", "attributes": {"Cpus": 4}, "partitions": ["batch"]}],
        "partitions": {"batch": {"priority_tier": 70000, "max_nodes": 4}},
    }
    origins = _origins(
        (("machines", 0, "attributes", "Cpus"), "in.txt:1: CPUs"),
        (("partitions", "batch", "priority_tier"), "in.txt:2: PriorityTier"),
        (("partitions", "batch", "max_nodes"), "in.txt:2: MaxNodes"),
    )
    message = _refusal(fragment, origins)
    assert message.startswith("in.txt:2: PriorityTier: partitions.batch.priority_tier:")


def test_an_array_item_is_left_out_whole() -> None:
    fragment = {"machines": [{"name": "a"}, {"name": "b", "attributes": {"Cpus": -1}}]}
    origins = _origins((("machines", 0), "in.txt:1: a"), (("machines", 1), "in.txt:2: b"))
    assert _refusal(fragment, origins).startswith("in.txt:2: b: machines[1].attributes.Cpus")


def test_a_value_set_again_is_named_at_its_last_setting() -> None:
    origins = _origins(
        (("qos", "normal", "priority"), "in.txt:1: Priority"),
        (("qos", "normal", "usage_factor"), "in.txt:2: UsageFactor"),
        (("qos", "normal", "priority"), "in.txt:3: Priority"),
    )
    fragment = {"qos": {"normal": {"priority": -1, "usage_factor": 1}}}
    assert _refusal(fragment, origins).startswith("in.txt:3: Priority: qos.normal.priority")


def test_a_refusal_no_value_explains_names_the_input() -> None:
    """What no recorded value gives (here a table's name) is refused naming the input."""
    fragment = {"qos": {"bad name": {"priority": 1}}}
    origins = _origins((("qos", "bad name", "priority"), "in.txt:1: Priority"))
    assert _refusal(fragment, origins).startswith("in.txt: ")
