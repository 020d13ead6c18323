"""``gc_paused`` pauses the cyclic collector and leaves it as it found it; what was made
meanwhile is still collected (it joins the oldest generation, nothing stays frozen)."""

from __future__ import annotations

import gc
import weakref

from fairshare_cli.gc_pause import gc_paused


class Node:
    """A container that can sit in a reference cycle."""

    other: object = None


def test_the_collector_resumes_and_still_collects_cycles_made_while_paused() -> None:
    assert gc.isenabled()
    with gc_paused():
        assert not gc.isenabled()
        a, b = Node(), Node()
        a.other, b.other = b, a
        probe = weakref.ref(a)
        with gc_paused():  # nested: the outer one resumes
            pass
        assert not gc.isenabled()
    assert gc.isenabled() and gc.get_freeze_count() == 0
    del a, b
    gc.collect()
    assert probe() is None


def test_a_paused_collector_stays_paused() -> None:
    gc.disable()
    try:
        with gc_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
