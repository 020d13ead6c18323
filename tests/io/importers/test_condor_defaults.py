"""HTCondor 25.0.13's built-in defaults as ``if defined NAME`` reads them
(io/importers/condor_defaults.py), checked by hand against that release's param_info.in
and condor_config.cpp's ``fill_attributes``."""

from __future__ import annotations

import pytest

from fairshare_cli.io.importers.condor_defaults import MACHINE, built_in, default, from_machine


@pytest.mark.parametrize(
    ("name", "value"),
    [
        pytest.param("MASTER", True, id="path-default"),  # default=$(SBIN)/condor_master
        pytest.param("priority_halflife", True, id="any-case"),  # default=86400
        pytest.param("WANT_SUSPEND", True, id="policy-default"),  # default=False (not empty)
        pytest.param("NEGOTIATOR.IsNegotiator", True, id="subsys-default"),  # default=true
        pytest.param("LOCAL_CONFIG_DIR", False, id="empty-default"),  # default=
        pytest.param("COLLECTOR_ENVIRONMENT", False, id="empty-default-2"),  # default=
        pytest.param("WANT_HOLD", False, id="no-entry"),
        pytest.param("ARCH", True, id="detected"),  # [ARCH] default= , fill_attributes sets it
        pytest.param("DETECTED_CORES", True, id="detected-count"),
        pytest.param("STARTD.IsNegotiator", False, id="other-subsys"),
    ],
)
def test_built_in(name: str, value: bool) -> None:
    assert built_in(name) is value


def test_machine_names_are_not_decided_here() -> None:
    """TILDE (the condor user's home, if there is one) and PYTHON3 are set only when found
    on the machine; HOSTNAME and FULL_HOSTNAME only after the main file (their table
    defaults are empty)."""
    assert {"TILDE", "PYTHON3", "HOSTNAME", "FULL_HOSTNAME"} == MACHINE
    assert not any(built_in(name) for name in MACHINE)


def test_defaults_are_param_info_values_as_written() -> None:
    """param_info.in, 25.0.13: [HOUR] default=3600, [SPOOL] default=$(LOCAL_DIR)/spool,
    [NEGOTIATOR.IsNegotiator] default=true, [LOCAL_CONFIG_DIR] default= (empty: none)."""
    assert default("hour") == "3600"
    assert default("SPOOL") == "$(LOCAL_DIR)/spool"
    assert default("NEGOTIATOR.IsNegotiator") == "true"
    assert default("LOCAL_CONFIG_DIR") is None
    assert default("DETECTED_CORES") == "1"  # (the table's; fill_attributes sets the real one)
    assert from_machine("DETECTED_CORES")
    assert from_machine("tilde")
    assert not from_machine("HOUR")
    # [CONDOR_VERSION] macro=CONDOR_VERSION default=8.*: the build's value, not the table's
    assert built_in("CONDOR_VERSION")
    assert from_machine("condor_version")
