"""``fs import condor-config``: the config language of a real file, as HTCondor 25.0's
``Parse_macros`` and ``getline_implementation`` (config.cpp) and ``lookup_macro`` read
it (io/importers/condor_config.py): what is taken as HTCondor takes it, and what fs does
not evaluate refused in one line naming the line."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.imports.conftest import HTCONDOR, Refuse

POOL = '[pool]\ndefaults = "current"\n'
HEADER = POOL + "\n"


def taken(tmp_path: Path, run: Callable[..., Any], text: str) -> str:
    """The TOML ``fs import condor-config`` prints for a file holding ``text``."""
    conf = tmp_path / "condor_config"
    conf.write_text(text, encoding="utf-8")
    result = run("import", "condor-config", str(conf))
    assert result.exit_code == 0, result.stderr
    return str(result.stdout)


@pytest.mark.parametrize(
    ("text", "toml"),
    [
        # NAME @=TAG ... @TAG: the lines between, comment and blank lines skipped, joined by
        # newlines (was refused: "'@=' multi-line values are not read"); condor_config_val
        # -dump writes every value of many lines so
        pytest.param(
            "START @=end\n  Memory > 100 &&\n  # two cores\n\n  Cpus > 1\n@end\n",
            POOL + 'start = "Memory > 100 &&\\nCpus > 1"\n',
            id="heredoc",
        ),
        # a commented-out line of a continuation: HTCondor keeps the comment's last
        # character, a \ that continues (was: the line ended there, 'C' refused)
        pytest.param(
            "START = A && \\\n#  B && \\\n  C\n",
            POOL + 'start = "A && C"\n',
            id="commented-continuation",
        ),
        # ... and so a comment that does not end in \ ends the line with its last letter
        pytest.param("START = A && \\\n# note\n", POOL + 'start = "A && e"\n', id="comment-ends"),
        # the negotiator's own setting wins, wherever it is (was: PRIORITY_HALFLIFE = 100,
        # the NEGOTIATOR. one counted as ignored); another daemon's is not its knob
        pytest.param(
            "NEGOTIATOR.PRIORITY_HALFLIFE = 3600\nPRIORITY_HALFLIFE = 100\n"
            "SCHEDD.DEFAULT_PRIO_FACTOR = 5\n",
            HEADER + "[accountant]\npriority_halflife = 3600\n",
            id="subsystem-prefix",
        ),
        # inside a value too: $(H) is the negotiator's 7, not 5; 7 * 60 = 420
        pytest.param(
            "H = 5\nNEGOTIATOR.H = 7\nNEGOTIATOR_INTERVAL = $(H) * 60\n",
            HEADER + "[negotiator]\ninterval = 420\n",
            id="subsystem-prefix-in-macro",
        ),
        pytest.param(
            "ACCOUNTANT_LOCAL_DOMAIN = $(SITE_DOMAIN:example.org)\n",
            POOL + 'local_domains = ["example.org"]\n',
            id="macro-default",
        ),
        # a knob no file sets takes HTCondor 25.0.13's built-in default (param_info.in:
        # HOUR = 3600, so 2 * 3600 = 7200; was refused: "set in no file read here"), and
        # so does a knob naming itself with no earlier value (START = True, so
        # "True && Memory > 100"; NEGOTIATOR_INTERVAL = 60, so 60 * 2 = 120: the
        # built-in default wins over the macro's :5)
        pytest.param(
            "PRIORITY_HALFLIFE = 2 * $(HOUR)\nSTART = $(START) && Memory > 100\n"
            "NEGOTIATOR_INTERVAL = $(NEGOTIATOR_INTERVAL:5) * 2\n",
            POOL + 'start = "True && Memory > 100"\n\n[accountant]\npriority_halflife = 7200\n'
            "\n[negotiator]\ninterval = 120\n",
            id="built-in-defaults",
        ),
        # ... expanded in turn: SPOOL's default is $(LOCAL_DIR)/spool
        pytest.param(
            "LOCAL_DIR = /var/lib/condor\nUID_DOMAIN = $(SPOOL:x).org\n",
            POOL + 'uid_domain = "/var/lib/condor/spool.org"\n',
            id="built-in-default-naming-a-knob-set",
        ),
        # a macro set to nothing takes the default too (evaluate_macro_func: an empty
        # value); was expanded to nothing, START = ""
        pytest.param(
            "D =\nSTART = $(D:true)\n", POOL + 'start = "true"\n', id="empty-macro-default"
        ),
        pytest.param(
            "[Negotiator]\nNEGOTIATOR_INTERVAL = 60\n",
            HEADER + "[negotiator]\ninterval = 60\n",
            id="ini-section-skipped",
        ),
        pytest.param(
            "include ifexists : /nonexistent/condor_config.local\nNEGOTIATOR_INTERVAL = 60\n",
            HEADER + "[negotiator]\ninterval = 60\n",
            id="include-ifexists",
        ),
    ],
)
def test_what_htcondor_reads_is_taken(
    tmp_path: Path, run: Callable[..., Any], text: str, toml: str
) -> None:
    assert taken(tmp_path, run, text) == toml


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # HTCondor has no +=: 'X += v' sets X to v, 'X+= v' stops the daemon (was: an
        # append, PRIORITY_HALFLIFE = "100 200", refused later as a number, or taken
        # silently for an expression knob)
        pytest.param(
            "START = Memory > 100\nSTART += && Cpus > 1\n",
            ":2: HTCondor has no +=: it reads 'START += v' as START = v (the earlier value "
            "dropped) and stops on 'START+= v'; write START = $(START) v to add to it",
            id="plus-equals",
        ),
        pytest.param("START+= Cpus > 1\n", ":1: HTCondor has no +=", id="plus-equals-joined"),
        # a macro set in no file read whose value HTCondor takes from the machine; was
        # taken as nothing, so uid_domain stayed "localdomain"
        pytest.param(
            "UID_DOMAIN = $(FULL_HOSTNAME)\n",
            ":1: UID_DOMAIN: $(FULL_HOSTNAME) is set in no file read here (HTCondor takes the "
            "machine's value); set it, or import condor_config_val -dump output",
            id="undefined-macro",
        ),
        # an include's name too: HTCondor would read $(LOCAL_DIR)'s default folder, whose
        # default is $(TILDE), the condor user's home; was /extra.config, missing, so
        # skipped in silence
        pytest.param(
            "include ifexist : $(LOCAL_DIR)/extra.config\nNEGOTIATOR_INTERVAL = 60\n",
            ":1: include: $(TILDE) (in HTCondor's default of LOCAL_DIR) is set in no file "
            "read here (HTCondor takes the machine's value)",
            id="undefined-macro-in-include",
        ),
        # $(UID_DOMAIN:example.org): lookup_macro finds UID_DOMAIN's built-in default,
        # $(FULL_HOSTNAME), which wins over the macro's own default (was: example.org)
        pytest.param(
            "ACCOUNTANT_LOCAL_DOMAIN = $(UID_DOMAIN:example.org)\n",
            ":1: ACCOUNTANT_LOCAL_DOMAIN: $(FULL_HOSTNAME) (in HTCondor's default of "
            "UID_DOMAIN) is set in no file read here (HTCondor takes the machine's value)",
            id="macro-default-under-a-built-in-default",
        ),
        # DETECTED_CORES: the table's default (1) is not what a daemon reads, as
        # fill_attributes puts in the machine's count before any file is read
        pytest.param(
            "NUM_CLAIMS = $(DETECTED_CORES)\n",
            ":1: NUM_CLAIMS: $(DETECTED_CORES) is set in no file read here (HTCondor takes "
            "the machine's value)",
            id="detected-macro",
        ),
        pytest.param(
            "NEGOTIATOR_INTERVAL = $INT(5 * 60)\n",
            ":1: NEGOTIATOR_INTERVAL: $INT(...) is one of HTCondor's function macros, which fs "
            "does not evaluate; write its value",
            id="function-macro",
        ),
        pytest.param(
            "START @=end\nMemory > 100\n",
            ":1: START @=end: no line '@end' ends it",
            id="heredoc-open",
        ),
        pytest.param(
            "START@=end\nx\n@end\n", ":1: expected NAME = value", id="heredoc-name-joined"
        ),
        pytest.param(
            "UID_DOMAIN = a\nuse POLICY : DESKTOP\n",
            ":2: use POLICY : DESKTOP sets START, which fs takes, to a value fs does not "
            "hold; set START after this line, or import condor_config_val -dump output, "
            "which holds what the template sets",
            id="use-setting-start",
        ),
        # if/else blocks were all refused ("if/else blocks are not evaluated"); now read
        # (test_if_blocks_are_read), and defined of a knob no file sets is decided by
        # HTCondor's built-in defaults (test_if_defined_reads_the_built_in_defaults), but
        # not for one HTCondor sets from the machine only when it finds it there
        pytest.param(
            "if defined TILDE\nNEGOTIATOR_INTERVAL = 60\nendif\n",
            ":1: 'defined TILDE': TILDE is set in no file read here, and HTCondor sets it "
            "from the machine it runs on (or after the main file); set it, or import "
            "condor_config_val -dump output",
            id="if-defined-from-the-machine",
        ),
        pytest.param(
            "A = 2\nif $(A) == 2\nNEGOTIATOR_INTERVAL = 60\nendif\n",
            ":2: '2 == 2' is not a valid if condition (HTCondor stops on it: a number, true, "
            "false, version OP X.Y or defined NAME)",
            id="if-complex",
        ),
        pytest.param(
            "if true\nNEGOTIATOR_INTERVAL = 60\n",
            ": endif(s) not found before end-of-file",
            id="if-unclosed",
        ),
        pytest.param("else\n", ":1: else without matching if", id="else-alone"),
        # $$(NAME) is not a config macro (was expanded to nothing: START = "$ > 100"), and
        # $(DOLLAR) is a $ put in after every macro is expanded (expand_macro's last pass;
        # was read again as the start of $(X): START = "5 > 1"): the texts stay as HTCondor
        # reads them, which the pool config refuses as ClassAd expressions (the startd
        # fills $$() in at match time), so the import refuses them at their lines
        pytest.param(
            "START = $$(Memory) > 100\n",
            ":1: START: [pool] start: cannot parse ClassAd expression '$$(Memory) > 100'",
            id="dollar-dollar",
        ),
        pytest.param(
            "X = 5\nSTART = $(DOLLAR)(X) > 1\n",
            ":2: START: [pool] start: cannot parse ClassAd expression '$(X) > 1'",
            id="dollar-macro",
        ),
        # an error line reached was said not evaluated, to be got past with the dump; the
        # daemons stop there (config.cpp: push_error, then the read fails with its code)
        pytest.param(
            "NEGOTIATOR_INTERVAL = 60\nif version < 9.0\nerror : too old\nendif\n"
            "error 3 : set NEGOTIATOR_HOST first\n",
            ":5: error : set NEGOTIATOR_HOST first: HTCondor stops reading the configuration "
            "at this line, so its daemons would not start",
            id="error-line",
        ),
        pytest.param(
            "#opt:oldcomment\nNEGOTIATOR_INTERVAL = 60\n",
            ":1: #opt:oldcomment (comments and continuations as before HTCondor 8.1.3) is not read",
            id="old-comment-rules",
        ),
    ],
)
def test_what_fs_does_not_evaluate_is_refused(
    refuse_dump: Refuse, text: str, expected: str
) -> None:
    refuse_dump("condor-config", text, expected, into=True)


def test_a_dump_takes_undefined_macros_as_nothing(tmp_path: Path, run: Callable[..., Any]) -> None:
    """A ``condor_config_val -dump`` holds every knob HTCondor has a default for, so a
    macro it does not set is set nowhere: nothing, as HTCondor expands it."""
    dump = tmp_path / "dump.txt"
    first = (HTCONDOR / "condor_config_val.dump.txt").read_text(encoding="utf-8").splitlines()[0]
    dump.write_text(f"{first}\nSTART = true $(NOWHERE)\n", encoding="utf-8")
    result = run("import", "condor-config", str(dump))
    assert result.exit_code == 0, result.stderr
    assert result.stdout == POOL + 'start = "true"\n'


def test_if_blocks_are_read(tmp_path: Path, run: Callable[..., Any]) -> None:
    """By hand, as ConfigIfStack and Test_config_if_expression (config.cpp) take them,
    HTCondor 25.0.13 reading: ``version >= 9.0`` holds, so NEGOTIATOR_INTERVAL is 60, not
    30; ``defined X`` with ``X =`` (set to nothing) does not hold, the ``elif true``
    branch does: NEGOTIATOR_CYCLE_DELAY 45; ``$(F)`` expands to ``false``, the ``else``
    branch's line (its ``:`` dropped, as in a block) gives NEGOTIATOR_MIN_INTERVAL 20; the
    nested ``if`` in a branch not taken is not evaluated (its condition would stop
    HTCondor)."""
    text = (
        "if version >= 9.0\nNEGOTIATOR_INTERVAL = 60\nelse\nNEGOTIATOR_INTERVAL = 30\nendif\n"
        "X =\nif defined X\nNEGOTIATOR_CYCLE_DELAY = 1\nelif true\n"
        "NEGOTIATOR_CYCLE_DELAY = 45\nelse\nNEGOTIATOR_CYCLE_DELAY = 2\nendif\n"
        "F = false\nif $(F)\nNEGOTIATOR_MIN_INTERVAL = 1\nif 2 == 2\nendif\nelse\n"
        ":NEGOTIATOR_MIN_INTERVAL = 20\nendif\n"
    )
    assert taken(tmp_path, run, text) == HEADER + (
        "[negotiator]\ninterval = 60\ncycle_delay = 45\nmin_interval = 20\n"
    )


def test_if_defined_reads_the_built_in_defaults(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``fs import condor-config`` of a file with ``if defined MASTER`` was refused
    ("MASTER is set in no file read here, and HTCondor would also look in its built-in
    defaults"). ``defined`` takes ``lookup_macro``'s value (config.cpp): the files, else
    param_info.in's default. By hand from HTCondor 25.0.13's param_info.in: MASTER's
    default is ``$(SBIN)/condor_master`` (defined: NEGOTIATOR_INTERVAL 60, not 30);
    LOCAL_CONFIG_DIR's is empty (not defined: NEGOTIATOR_CYCLE_DELAY 45); WANT_HOLD has
    no entry (not defined: NEGOTIATOR_MIN_INTERVAL 20); ``IsNegotiator`` is ``false``
    for every daemon but the negotiator, whose own ``NEGOTIATOR.IsNegotiator`` default
    is ``true`` (both defined: PRIORITY_HALFLIFE 7); ``ARCH`` is put in by
    ``fill_attributes`` before the files are read (defined: UID_DOMAIN a.org)."""
    text = (
        "if defined MASTER\nNEGOTIATOR_INTERVAL = 60\nelse\nNEGOTIATOR_INTERVAL = 30\nendif\n"
        "if defined LOCAL_CONFIG_DIR\nNEGOTIATOR_CYCLE_DELAY = 1\nelse\n"
        "NEGOTIATOR_CYCLE_DELAY = 45\nendif\n"
        "if ! defined WANT_HOLD\nNEGOTIATOR_MIN_INTERVAL = 20\nendif\n"
        "if defined IsNegotiator\nPRIORITY_HALFLIFE = 7\nendif\n"
        "if defined ARCH\nUID_DOMAIN = a.org\nendif\n"
    )
    assert taken(tmp_path, run, text) == (
        POOL + 'uid_domain = "a.org"\n\n[accountant]\npriority_halflife = 7\n\n'
        "[negotiator]\ninterval = 60\ncycle_delay = 45\nmin_interval = 20\n"
    )
