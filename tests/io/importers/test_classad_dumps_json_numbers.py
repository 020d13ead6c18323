"""The ``-json`` reader's numbers, looked up by their text (classad_dumps._Numbers): the
same values and refusals as reading each number afresh, however full the lookup is."""

from __future__ import annotations

import io

import pytest

from fairshare_cli.errors import InputError
from fairshare_cli.io.importers import classad_dumps
from fairshare_cli.io.importers.classad_dumps import iter_json_ads


def _ads(text: str) -> list[dict[str, object]]:
    return [ad for _, ad in iter_json_ads(io.StringIO(text), "q.json")]


@pytest.mark.parametrize("held", [1, 2, 1 << 16])
def test_values_are_read_afresh_whatever_the_lookup_holds(
    held: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the lookup cleared at every number, every other or never, the ads are the same."""
    monkeypatch.setattr(classad_dumps, "_NUMBERS_HELD", held)
    text = (
        '[{"A": 1, "B": 0.0, "C": 1, "D": 2.5, "E": -0.0},\n'
        ' {"A": 3, "B": 0.0, "C": 9223372036854775807, "D": 1e308, "E": 0}]\n'
    )
    ads = _ads(text)
    assert ads == [
        {"A": 1, "B": 0.0, "C": 1, "D": 2.5, "E": -0.0},
        {"A": 3, "B": 0.0, "C": 2**63 - 1, "D": 1e308, "E": 0},
    ]
    assert [type(ad["E"]) for ad in ads] == [float, int]  # ("0" and "-0.0" apart)


@pytest.mark.parametrize(
    ("number", "why"),
    [
        ("9223372036854775808", "beyond a 64-bit integer, which HTCondor reads as 0"),
        ("1e400", "beyond a double, which HTCondor reads as infinite"),
    ],
)
def test_a_number_beyond_htcondor_s_is_refused_among_looked_up_ones(number: str, why: str) -> None:
    """Its neighbours read from the lookup, the number is still refused at its line."""
    text = f'[{{"A": 1, "B": 2.5}},\n {{"A": 1, "B": 2.5, "ImageSize": {number}}}]\n'
    with pytest.raises(InputError) as exc:
        _ads(text)
    assert str(exc.value) == f"q.json:2: {number}: {why}; expected a number HTCondor prints"
