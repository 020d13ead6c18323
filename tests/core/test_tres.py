"""A job's TRES as text (core/tres.py): sacct's ``AllocTRES`` read, a usage record's kept.

What sacct prints is ``slurmdb_make_tres_string_from_simple``'s (``src/common/slurmdb_defs.c``,
22.05.9 and 26.05.3 alike): ``type/name=count`` items; memory, ``gres/gpumem`` and ``bb/...``
through ``convert_num_unit`` from MB (``8G``: 8 × 1024 = 8192 MB), ``NONE`` for an
``INFINITE64`` count, any other count a whole number.
"""

from __future__ import annotations

import pytest

from fairshare_cli.core.tres import alloc_tres_counts, tres_counts, tres_text
from fairshare_cli.errors import InputError


def test_tres_text_reads_back_exactly() -> None:
    """A record's TRES as text: billing left out, whole counts as integers, others by
    ``repr`` (read back to the same double); nothing left: None."""
    counts = {"billing": 7.0, "cpu": 2.0, "mem": 1536.5, "gres/gpu": 0.1, "node": 1.0}
    text = tres_text(counts)
    assert text == "cpu=2,mem=1536.5,gres/gpu=0.1,node=1"
    assert tres_counts(text) == {k: v for k, v in counts.items() if k != "billing"}
    assert tres_text({"billing": 3.0}) is None


def test_alloc_tres_counts_in_mb() -> None:
    """8G = 8192 MB, 1.5T = 1.5 × 1024² = 1,572,864 MB, 16G of gpumem = 16384 MB, a bare
    memory count is MB already (as a record keeps it); names in lower case; ``NONE``
    left out; an empty text has none."""
    text = "billing=6,CPU=2,mem=8G,node=1,gres/gpu=1,gres/gpumem=16G,bb/cray=1.5T,energy=NONE"
    assert alloc_tres_counts(text, "w") == {
        "billing": 6.0,
        "cpu": 2.0,
        "mem": 8192.0,
        "node": 1.0,
        "gres/gpu": 1.0,
        "gres/gpumem": 16384.0,
        "bb/cray": 1572864.0,
    }
    assert alloc_tres_counts("mem=512", "w") == {"mem": 512.0}
    assert alloc_tres_counts("", "w") == {}
    assert alloc_tres_counts("  ", "w") == {}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("cpu", "tres cpu: expected name=count, a number"),
        ("=2", "tres =2: expected name=count, a number"),
        ("cpu=two", "tres cpu=two: expected name=count, a number"),
        ("gres/gpu=1G", "tres gres/gpu=1G: expected name=count, a number"),
        ("cpu=2,,mem=1G", "tres : expected name=count, a number"),
        ("mem=-8G", "tres mem=-8G: expected a finite count of 0 or more"),
        ("mem=inf", "tres mem=inf: expected a finite count of 0 or more"),
        ("mem=1e308G", "tres mem=1e308G: expected a finite count of 0 or more"),
    ],
)
def test_alloc_tres_counts_refuses_what_sacct_never_prints(text: str, expected: str) -> None:
    with pytest.raises(InputError) as caught:
        alloc_tres_counts(text, "f line 2", "tres")
    assert str(caught.value).startswith(f"f line 2: {expected}")


def test_alloc_tres_counts_reads_what_slurmctld_prints_for_squeue() -> None:
    """slurmctld's TRES text (``assoc_mgr_make_tres_str_from_array``, as scontrol and
    squeue show it): a ``fs/...`` or ``ic/...`` count through ``convert_num_unit`` from a
    bare count (2048 ≥ 1024 and a multiple of 512: 2048 / 1024 = ``2K``; 1.5 × 1024² =
    1,572,864 is ``1.50M``), a ``gpumem`` count bare (40960 MB, where sacct prints ``40G``);
    ``printer`` names the command in a refusal."""
    text = "cpu=2,mem=1.50G,fs/disk=2K,ic/ofed=1.50M,gres/gpumem=40960"
    assert alloc_tres_counts(text, "w") == {
        "cpu": 2.0,
        "mem": 1536.0,
        "fs/disk": 2048.0,
        "ic/ofed": 1572864.0,
        "gres/gpumem": 40960.0,
    }
    with pytest.raises(InputError) as caught:
        alloc_tres_counts("cpu=2K", "f:9", "ReqTRES", "scontrol")
    assert str(caught.value) == (
        "f:9: ReqTRES cpu=2K: expected name=count, a number (memory with a unit: K, M, G, T "
        "or P), as scontrol prints it"
    )
