"""``GresTypes`` as slurmctld reads it (``gres_init``, 22.05 and 26.05 alike), and GRES
names compared in case (``xstrcmp``)."""

from __future__ import annotations

import pytest

from fairshare_cli.core.slurm.gres_types import (
    gres_build_id,
    gres_name,
    parse_gres_types,
    unlisted,
    unlisted_tres,
)


def test_a_plugin_id_sums_the_bytes_shifted_by_their_place() -> None:
    """``gres_build_id``: g (103) + p (112) << 8 + u (117) << 16 = 103 + 28672 + 7667712
    = 7696487; upper case is other bytes (G 71, P 80, U 85: 71 + 20480 + 5570560)."""
    assert gres_build_id("gpu") == 7696487
    assert gres_build_id("GPU") == 5591111
    # the fifth byte is shifted by 0 again: a and e swapped sum alike
    assert gres_build_id("abcde") == gres_build_id("ebcda") == 1684234950


def test_names_in_order_empty_and_repeated_ones_skipped() -> None:
    """strtok_r skips empty tokens; a name given again is "Duplicate plugin ignored"; case
    makes another name (GPU is not gpu)."""
    assert parse_gres_types("gpu,,nic,gpu") == ("gpu", "nic")
    assert parse_gres_types("GPU,gpu") == ("GPU", "gpu")
    assert parse_gres_types("mps,gpu") == ("mps", "gpu")  # (moved after gpu: no stop)
    assert parse_gres_types("MPS") == ("MPS",)  # (no shared GRES: not "mps")


@pytest.mark.parametrize("text", ["mps", "shard,nic", "GPU,mps"])
def test_a_shared_gres_without_gpu_stops_slurmctld(text: str) -> None:
    with pytest.raises(ValueError, match="requires that gres/gpu also be configured"):
        parse_gres_types(text)


def test_two_names_of_one_plugin_id_stop_slurmctld() -> None:
    with pytest.raises(ValueError, match="gres/abcde and gres/ebcda have the same plugin id"):
        parse_gres_types("abcde,ebcda")


def test_a_name_is_what_comes_before_the_first_colon_compared_in_case() -> None:
    assert gres_name("gres/gpu:a100") == gres_name("GRES/gpu") == gres_name("gpu:2(S:0)") == "gpu"
    keys = ["gres/gpu:a100", "gres/GPU", "gres/mps", "GRES/gpu"]
    assert unlisted(keys, ("gpu",)) == ["gres/GPU", "gres/mps"]


def test_a_jobs_gres_tres_is_matched_in_any_case_other_tres_are_no_gres() -> None:
    """A job's ``gres/`` attributes are its TRES, found in any case
    (``assoc_mgr_find_tres_pos``): ``gres/GPU:a100`` is listed by ``gpu``; ``license/``,
    ``bb/`` and a plain attribute name no GRES."""
    keys = ["gres/GPU:a100", "GRES/gpu", "gres/tpu:v4", "license/tpu", "bb/x", "Memory"]
    assert unlisted_tres(keys, ("gpu",)) == ["gres/tpu:v4"]
    assert unlisted_tres(["gres/gpu"], ("GPU",)) == []
    assert unlisted_tres(["gres/gpu"], ()) == ["gres/gpu"]
