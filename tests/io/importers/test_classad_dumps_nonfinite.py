"""Which ClassAd values are HTCondor's spelling of a real that is not finite.

``ClassAdUnParser::UnparseReal`` (src/classad/sink.cpp) and the JSON sink
(src/classad/jsonSink.cpp) write NaN and the infinities as ``real("NaN")``, ``real("INF")``
and ``real("-INF")``; ``real()`` of a string is ``strtod`` of it (value.cpp), which also
reads ``inf``, ``infinity`` and ``nan`` in any case, with a sign.
"""

from __future__ import annotations

import pytest

from fairshare_cli.io.importers.classad_dumps import Expr, nonfinite, parse_long_value


@pytest.mark.parametrize(
    "value",
    [
        Expr('real("INF")'),
        Expr('real("-INF")'),
        Expr('real("NaN")'),
        Expr('REAL( "Infinity" )'),
        '/Expr(real("INF"))/',  # (-json, read without converting expressions)
        parse_long_value('real("NaN")'),
    ],
)
def test_nonfinite_reals_are_found(value: object) -> None:
    assert nonfinite(value) is not None


@pytest.mark.parametrize(
    "value",
    [Expr('real("2")'), Expr("Cpus * 2"), 'real("INF")', "/Expr(Cpus)/", 1, 2.5, None, True],
)
def test_other_values_are_not(value: object) -> None:
    """A finite ``real()``, another expression, a plain string that only reads like one, and
    literals are not."""
    assert nonfinite(value) is None
