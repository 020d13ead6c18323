"""A JSON object that gives a key twice: found and placed by ``RepeatedKeys`` (json.loads'
hook), ruled out by the quote count of ``surely_distinct`` (never a repeat let through)."""

from __future__ import annotations

import json
from typing import Any

import msgspec
import pytest

from fairshare_cli.io.json_keys import DuplicateKey, RepeatedKeys, surely_distinct


def strict_loads(text: str) -> Any:
    """``json.loads(text)``, refusing a key given twice, as the exact readers read."""
    repeats = RepeatedKeys()
    doc = json.loads(text, object_pairs_hook=repeats)
    repeats.refuse(doc)
    return doc


@pytest.mark.parametrize(
    ("text", "key", "where"),
    [
        pytest.param('{"a": 1, "a": 2}', "a", "", id="top"),
        pytest.param('{"x": {"y": [0, {"k": 1, "j": 2, "k": 3}]}}', "k", "x.y.1", id="nested"),
        pytest.param('[{"a": 1}, {"b": 1, "b": 1}]', "b", "1", id="in-a-list"),
        pytest.param('{"\\u00e9": 1, "\u00e9": 2}', "\u00e9", "", id="escaped-the-same"),
    ],
)
def test_strict_loads_names_the_key_and_its_object(text: str, key: str, where: str) -> None:
    with pytest.raises(DuplicateKey) as caught:
        strict_loads(text)
    assert (caught.value.key, caught.value.where) == (key, where)
    assert str(caught.value) == f"the key {json.dumps(key, ensure_ascii=False)} is given twice"


def test_strict_loads_reads_what_json_loads_reads() -> None:
    text = '{"a": [1, {"b": null}], "c": "d\\"e", "f": {}}'
    assert strict_loads(text) == json.loads(text)


@pytest.mark.parametrize(
    "text",
    [
        '{"a": 1, "a": 1}',
        '{"a": "x", "b": {"c": 1, "c": "y"}}',
        '{"a": "\\u0022", "a": 2}',  # (a quote written as \u0022: never counted as ruled out)
        '{"s": "\\"", "s": 2}',
    ],
)
def test_a_repeat_is_never_ruled_out(text: str) -> None:
    assert not surely_distinct(text.encode(), msgspec.json.decode(text))
    with pytest.raises(DuplicateKey):
        strict_loads(text)


@pytest.mark.parametrize(
    ("text", "distinct"),
    [
        ('{"a": 1, "b": "x", "c": [null, true, "y"], "d": {"e": 1.5}}', True),
        ('{ "a" :\n "x" , "b": "caf\u00e9" }', True),
        ('{"a": "say \\"hi\\""}', True),  # (a quote inside: written back as it came)
        ('{"a": "\\u0022"}', False),  # (written back as \\": the exact reader tells)
    ],
)
def test_distinct_keys_are_ruled_in_by_the_count(text: str, distinct: bool) -> None:
    assert surely_distinct(text, msgspec.json.decode(text)) is distinct
    assert strict_loads(text) == json.loads(text)
