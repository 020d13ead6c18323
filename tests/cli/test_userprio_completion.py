"""``fs userprio``'s condor_userprio options under shell completion: the words typed so far
are not a whole command yet, and completing them never prints a traceback."""

from __future__ import annotations

from pathlib import Path

from tests.cli.test_complete import complete

REPO = Path(__file__).resolve().parents[2]
CONFIG = {"FAIRSHARE_CONFIG": str(REPO / "sample_configs" / "pool.toml")}


def test_setfactor_waiting_for_its_operands_completes_a_record_name() -> None:
    """fs userprio -setfactor gr<TAB>: a traceback ('-setfactor' needs 2 argument(s))
    was printed into the shell; it completes the records as fs setfactor does: the
    submitters (an edit refuses a group, group_chemistry or group_chemistry.lab)."""
    submitters = [
        "group_chemistry.carol@example.org",
        "group_chemistry.lab.grace@example.org",
        "group_chemistry.lab.heidi@example.org",
    ]
    assert complete("fs userprio -setfactor group_c", CONFIG) == submitters
    assert complete("fs userprio -setf group_c", CONFIG) == submitters
    view = ["group_chemistry", submitters[0], "group_chemistry.lab", *submitters[1:]]
    assert complete("fs userprio -allusers group_c", CONFIG) == view  # (a view: groups too)


def test_an_unknown_condor_option_completes_without_a_traceback() -> None:
    assert complete("fs userprio -bogus ivan", CONFIG) == ["ivan@example.org"]
    assert complete("fs userprio -allusers -l ivan", CONFIG) == ["ivan@example.org"]
