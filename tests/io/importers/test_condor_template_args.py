"""``expand_meta_args`` (io/importers/condor_template_args.py): a template's ``$(N)``
arguments put in as HTCondor 25.0's config.cpp puts them.

By hand from config.cpp: ``StringTokenIterator(args, ",")`` gives the pieces between
commas, blanks trimmed, empty ones skipped; ``$(0)`` is all of the arguments and
``$(0#)`` their count; ``$(N)`` the Nth piece, else the ``:default``; ``$(N?)`` 1 or 0;
``$(N+)`` the text after the (N-1)th piece, its leading comma dropped, else the
``:default``; each value trimmed. ``next_config_macro`` takes the first macro whose prefix
is a lone ``$`` (``$$(`` is passed over); after a ``:``, a ``(`` skips to the next ``)``,
so ``$(3+:1/$(X_$(1:1)))`` ends at the first ``)`` after ``$(1:1``.
"""

from __future__ import annotations

import pytest

from fairshare_cli.io.importers.condor_template_args import LINES, expand_meta_args


@pytest.mark.parametrize(
    ("text", "args", "expected"),
    [
        pytest.param("$(1)_$(2)", " STARTD_CRON , tag ", "STARTD_CRON_tag", id="pieces-trimmed"),
        pytest.param("[$(0)] $(0#) $(0+)", " a , ,b ,c  ", "[a , ,b ,c] 3 3", id="all-and-count"),
        pytest.param("$(2) $(3?) $(4?)", "a,,b,c", "b 1 0", id="empty-pieces-skipped"),
        pytest.param("$(2+)", " a , ,b ,c  ", ",b ,c", id="rest-keeps-inner-commas"),
        pytest.param("$(5+)", "G, W, 300, X, SUM:G, PEAK:M ", "SUM:G, PEAK:M", id="rest"),
        pytest.param("$(1:1) $(2+:100%)", "", "1 100%", id="defaults"),
        pytest.param("$(9:d(x)y)", "a", "d(x)y", id="default-with-parentheses"),
        pytest.param("$$(1) $$$(1) $X(1)", "a", "$$(1) $$a $X(1)", id="not-meta-arguments"),
        pytest.param("$(?:$(1))", "a", "$(?:$(1))", id="body-not-a-number-passed-over"),
        pytest.param("$(NAME) $(1", "a", "$(NAME) $(1", id="no-closing-parenthesis"),
    ],
)
def test_meta_arguments(text: str, args: str, expected: str) -> None:
    assert expand_meta_args(text, args) == expected


def test_static_slots_second_line_mends_the_first() -> None:
    """``SLOT_TYPE_$(1:1)=$(3+:1/$(NUM_SLOTS_TYPE_$(1:1)))``: with a third argument the
    macro ends at ``$(1:1`` and leaves a ``)`` behind, which the template's next line,
    ``SLOT_TYPE_$(1:1)=$(3+)``, sets over; without, the default is whole."""
    lines = LINES["FEATURE", "StaticSlots"]
    assert expand_meta_args(lines, "2, 4, cpus=1, mem=25%").split() == [
        "NUM_SLOTS_TYPE_2=4",
        "SLOT_TYPE_2_PARTITIONABLE=false",
        "SLOT_TYPE_2=cpus=1,",
        "mem=25%)",
        "SLOT_TYPE_2=cpus=1,",
        "mem=25%",
    ]
    assert expand_meta_args(lines, "").split() == [
        "NUM_SLOTS_TYPE_1=$(NUM_CPUS)",
        "SLOT_TYPE_1_PARTITIONABLE=false",
        "SLOT_TYPE_1=1/$(NUM_SLOTS_TYPE_1)",
        "SLOT_TYPE_1=",
    ]
