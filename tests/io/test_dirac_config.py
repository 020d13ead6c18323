"""The ``[dirac]`` config section: DIRAC's defaults, the code-versus-docs keys, bad values."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from fairshare_cli.core.config import DIRAC_CPU_SEGMENTS, DiracCorrectionInstance, DiracSlice
from fairshare_cli.errors import ConfigError
from fairshare_cli.io.config import load_config


def test_defaults_are_diracs_code(write_config: Callable[[str], Path]) -> None:
    config = load_config(
        write_config(
            "[dirac.groups.g]\n[dirac.correction]\n[[dirac.correction.instances]]\n"
            'name = "i"\nslices = [{}, { time_span = "1:00:00", weight = 2 }]\n'
        )
    )
    dirac = config.dirac
    assert dirac.groups["g"].job_share == 1000
    assert dirac.job_priority_weighting == "average"
    assert dirac.cpu_segments == DIRAC_CPU_SEGMENTS
    assert dirac.correction.enabled is False
    assert dirac.correction.absent_entities == "max_correction"
    assert dirac.correction.in_group_history == "dn"
    assert dirac.correction.instances == (
        DiracCorrectionInstance("i", "", 5, (DiracSlice(604800, 1, 3), DiracSlice(3600, 2, 3))),
    )


def test_documented_variants(write_config: Callable[[str], Path]) -> None:
    config = load_config(
        write_config(
            '[dirac]\njob_priority_weighting = "sum"\ncpu_segments = [60, 600]\n'
            '[dirac.correction]\nabsent_entities = "weighted"\nin_group_history = "user"\n'
        )
    )
    assert config.dirac.job_priority_weighting == "sum"
    assert config.dirac.cpu_segments == (60, 600)
    assert config.dirac.correction.absent_entities == "weighted"
    assert config.dirac.correction.in_group_history == "user"


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        pytest.param(
            "[dirac.groups.g]\njob_share = 250.5\n",
            "dirac.groups.g.job_share: expected a whole number, got number 250.5",
            id="fractional-share",
        ),
        pytest.param(
            '[dirac]\njob_priority_weighting = "mean"\n',
            'dirac.job_priority_weighting: expected one of "average", "sum", got "mean"',
            id="weighting",
        ),
        pytest.param(
            "[dirac]\ncpu_segments = [600, 60]\n",
            "dirac.cpu_segments: expected strictly increasing",
            id="segments-order",
        ),
        pytest.param(
            '[dirac.correction]\nabsent_entities = "zero"\n',
            "dirac.correction.absent_entities: expected one of",
            id="absent",
        ),
        pytest.param(
            "[[dirac.correction.instances]]\nmax_global_correction = 2.5\nslices = [{}]\n",
            "max_global_correction: expected a whole number",
            id="global-fraction",
        ),
        pytest.param(
            "[[dirac.correction.instances]]\nslices = [{ max_correction = 0 }]\n",
            "slices[0].max_correction: expected a whole number of at least 1, got 0",
            id="zero-max",
        ),
        pytest.param(
            "[[dirac.correction.instances]]\nslices = [{ time_span = 0.5 }]\n",
            "slices[0].time_span: expected a whole number of seconds above 0",
            id="fractional-span",
        ),
        pytest.param(
            "[[dirac.correction.instances]]\nname = 'x'\n",
            "dirac.correction.instances[0].slices: the slice weights sum to zero",
            id="no-slices",
        ),
        pytest.param(
            "[[dirac.correction.instances]]\nname = 'a'\nslices = [{}]\n"
            "[[dirac.correction.instances]]\nname = 'b'\nslices = [{}]\n",
            "instances[1]: instance 'b' corrects the same groups as 'a'",
            id="two-global",
        ),
        pytest.param(
            "[[dirac.correction.instances]]\ngroup = 'lhcb'\nslices = [{}]\n",
            "instances[0].group: 'lhcb' is not in [dirac.groups]",
            id="unknown-group",
        ),
    ],
)
def test_bad_dirac_config(write_config: Callable[[str], Path], text: str, needle: str) -> None:
    with pytest.raises(ConfigError) as info:
        load_config(write_config(text))
    assert needle in str(info.value)
    assert "\n" not in str(info.value)
