"""``fs import slurm-conf`` takes only a slurm.conf with a line the config models
(io/importers/slurm_conf.py)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.imports.conftest import GARBAGE, OTHER_DUMPS, Refuse
from tests.conftest import FIXTURES


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        pytest.param("", "no Key=Value lines; expected a slurm.conf", id="empty"),
        pytest.param("# comment\n", "no Key=Value lines", id="comments"),
        pytest.param(
            "SlurmctldHost=x\nAuthType=auth/munge\n",
            "none of its 2 keys is a Priority* knob, ClusterName, NodeName or PartitionName; "
            "expected a slurm.conf",
            id="no-known-key",
        ),
        pytest.param(
            GARBAGE, ':1: expected Key=Value (a slurm.conf line), got "hello"', id="garbage"
        ),
        pytest.param(OTHER_DUMPS["condor_config"], ":22: expected Key=Value", id="condor_config"),
        pytest.param(OTHER_DUMPS["dirac.cfg"], ":1: expected Key=Value", id="dirac.cfg"),
        pytest.param(
            "NodeName=n\x1bred CPUs=1\n", ":1: NodeName: expected a name without", id="node"
        ),
        pytest.param(
            "PartitionName=p\x1b Nodes=ALL\n", ":1: PartitionName: expected a name", id="part"
        ),
    ],
)
def test_what_is_not_a_slurm_conf_is_refused(
    refuse_dump: Refuse, content: str | Path, expected: str
) -> None:
    refuse_dump("slurm-conf", content, expected, into=True)


@pytest.mark.parametrize(
    ("capture", "conf"),
    [
        pytest.param(
            "slurm-26.05/ft4_t2_idle", "slurm-26.05/config/slurm.conf.fairtree", id="26.05"
        ),
        pytest.param("slurm-22.05/ft2_idle", "slurm-22.05/config/slurm.conf.fairtree", id="22.05"),
        pytest.param("slurm-22.05/cl1_idle", "slurm-22.05/config/slurm.conf.classic", id="classic"),
    ],
)
def test_scontrol_show_config_gives_what_slurm_conf_gives(
    tmp_path: Path, run: Callable[..., Any], capture: str, conf: str
) -> None:
    """``scontrol show config | grep -i prior`` (26.05 prints ``PriorityFavorSmall = no`` and
    orders the keys otherwise than 22.05) sets the [priority] keys the cluster's slurm.conf
    sets; ``(null)`` is unset, an empty ``PriorityFlags`` is none."""
    from fairshare_cli.core.timestr import time_str2secs
    from fairshare_cli.io.toml import loads

    shown, written = tmp_path / "shown.toml", tmp_path / "conf.toml"
    res = run(
        "import",
        "slurm-conf",
        str(FIXTURES / capture / "scontrol_show_config_prior.txt"),
        "--into",
        str(shown),
    )
    assert res.exit_code == 0, res.stderr
    assert run("import", "slurm-conf", str(FIXTURES / conf), "--into", str(written)).exit_code == 0
    theirs = loads(written.read_text())["priority"]
    ours = loads(shown.read_text())["priority"]
    for key in ("decay_halflife", "calc_period", "max_age"):  # 00:01:00 = 1 (minutes)
        ours[key], theirs[key] = time_str2secs(ours[key]), time_str2secs(theirs[key])
    del theirs["enforce_limits"]  # AccountingStorageEnforce: not a Priority* line
    assert ours.pop("flags") == (["NO_FAIR_TREE"] if "classic" in conf else [])
    assert ours.pop("weights") == {**theirs.pop("weights"), "assoc": 0}
    assert ours == {k: v for k, v in theirs.items() if k != "flags"}


@pytest.mark.parametrize(
    ("capture", "conf"),
    [
        pytest.param(
            "slurm-26.05/ft4_t2_idle", "slurm-26.05/config/slurm.conf.fairtree", id="26.05"
        ),
        pytest.param("slurm-22.05/ft2_idle", "slurm-22.05/config/slurm.conf.fairtree", id="22.05"),
    ],
)
def test_show_config_merges_over_slurm_conf_without_a_clash(
    tmp_path: Path, run: Callable[..., Any], capture: str, conf: str
) -> None:
    """slurm.conf's ``PriorityCalcPeriod=1`` and ``PriorityMaxAge=1:00:00`` are what
    ``scontrol show config`` prints as ``00:01:00`` and ``01:00:00`` (one minute, one hour):
    merged into the config slurm.conf made, they are unchanged, kept as the file spells
    them. fs refused the second import: 'priority.calc_period is "1" in the file, the
    import says "00:01:00"; pass --replace to overwrite it'."""
    config = tmp_path / "pool.toml"
    assert run("import", "slurm-conf", str(FIXTURES / conf), "--into", str(config)).exit_code == 0
    before = config.read_text()
    shown = FIXTURES / capture / "scontrol_show_config_prior.txt"
    res = run("import", "slurm-conf", str(shown), "--into", str(config))
    assert res.exit_code == 0, res.stderr
    assert "(2 added, 0 replaced, 12 unchanged)" in res.stderr + res.stdout
    after = config.read_text()
    assert 'calc_period = "1"\n' in before and 'calc_period = "1"\n' in after
    assert 'max_age = "1:00:00"\n' in after
    res = run("import", "slurm-conf", str(shown), "--into", str(config))
    assert "(0 added, 0 replaced, 14 unchanged)" in res.stderr + res.stdout
    config.write_text(after.replace('calc_period = "1"', 'calc_period = "2"'))
    res = run("import", "slurm-conf", str(shown), "--into", str(config))
    assert (res.exit_code, res.stdout) == (2, "")
    assert res.stderr == (
        f'fs: error: {config}: priority.calc_period is "2" in the file, the import says '
        '"00:01:00"; pass --replace to overwrite it\n'
    )


def test_show_config_without_a_knob_is_refused(refuse_dump: Refuse) -> None:
    refuse_dump(
        "slurm-conf",
        "$ scontrol show config\nSlurmctldHost = x\nAuthType = auth/munge\n",
        "no Priority* knob nor ClusterName; expected the output of 'scontrol show config'",
        into=True,
    )


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(
            "ClusterName=c1\nSchedulerParameters=defer,bf_window=2880,BF_MAX_JOB_TEST=1000,"
            "bf_resolution=300,bf_continue,bf_interval=60\n",
            id="slurm.conf",
        ),
        pytest.param(
            "$ scontrol show config\nClusterName             = c1\n"
            "SchedulerParameters     = defer,bf_window=2880,BF_MAX_JOB_TEST=1000,"
            "bf_resolution=300,bf_continue,bf_interval=60\n",
            id="scontrol-show-config",
        ),
    ],
)
def test_scheduler_parameters_give_the_backfill_keys(
    tmp_path: Path, run: Callable[..., Any], text: str
) -> None:
    """``_load_config`` (src/plugins/sched/backfill/backfill.c) finds each ``bf_*=`` option
    in ``SchedulerParameters`` without regard to case; the options it does not model
    (``defer``, ``bf_continue``) are left out; the config then reads them."""
    conf = tmp_path / "slurm.conf"
    conf.write_text(text)
    into = tmp_path / "pool.toml"
    into.write_text("[accounts.a]\nusers = { u = 1 }\n")
    r = run("import", "slurm-conf", str(conf), "--into", str(into))
    assert r.exit_code == 0, r.stderr
    from fairshare_cli.io.config import load_config

    prio = load_config(into).priority
    assert (prio.bf_max_job_test, prio.bf_window, prio.bf_resolution, prio.bf_interval) == (
        1000,
        2880,
        300,
        60,
    )


def test_a_bad_scheduler_parameter_is_refused(tmp_path: Path, run: Callable[..., Any]) -> None:
    conf = tmp_path / "slurm.conf"
    conf.write_text("ClusterName=c1\nSchedulerParameters=bf_window=two_days\n")
    r = run("import", "slurm-conf", str(conf))
    assert r.exit_code == 2
    assert r.stderr.strip().endswith(
        'slurm.conf:2: SchedulerParameters: bf_window: expected a whole number, got "two_days"'
    )
    assert "Traceback" not in r.stderr


def test_an_include_of_a_device_says_so(refuse_dump: Refuse) -> None:
    """``Include /dev/zero`` was refused as 'does not exist'; it is there, and no file."""
    refuse_dump(
        "slurm-conf", "ClusterName=c\nInclude /dev/zero\n", "included file /dev/zero is not a file"
    )


@pytest.mark.parametrize("kind", ["slurm-conf", "condor-config"])
def test_an_include_of_a_long_name_is_echoed_shortened(refuse_dump: Refuse, kind: str) -> None:
    """An include of a 6,000-character name echoed it whole in the one line."""
    name = "a/" * 3000
    text = f"ClusterName=c\nInclude {name}\n" if kind == "slurm-conf" else f"include : {name}\n"
    result = refuse_dump(kind, text, "/a/a/a/")  # (joined to the dump's folder, then cut)
    assert "..." in result.stderr
    assert len(result.stderr) < 300


def test_partition_tiers_and_the_old_priority_key(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``PriorityTier`` becomes ``priority_tier`` (left out at 1, its default); the old
    ``Priority=N`` sets both the job factor and the tier, over ``PriorityJobFactor`` and
    ``PriorityTier`` given with it (read_config.c reads it last and overwrites both)."""
    conf = tmp_path / "slurm.conf"
    conf.write_text(
        "NodeName=n1 CPUs=4\nPartitionName=DEFAULT Nodes=ALL\n"
        "PartitionName=batch Default=YES PriorityJobFactor=2\n"
        "PartitionName=express PriorityJobFactor=4 PriorityTier=3\n"
        "PartitionName=old PriorityJobFactor=5 PriorityTier=7 Priority=2\n"
    )
    result = run("import", "slurm-conf", str(conf))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.split("\n\n")[1:] == [
        "[partitions.batch]\npriority_job_factor = 2\ndefault = true",
        "[partitions.express]\npriority_job_factor = 4\npriority_tier = 3\ndefault = false",
        "[partitions.old]\npriority_job_factor = 2\npriority_tier = 2\ndefault = false\n",
    ]


def test_partition_max_and_min_nodes(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``MaxNodes`` and ``MinNodes`` become ``max_nodes`` and ``min_nodes`` (``UNLIMITED``
    or ``INFINITE`` and ``MinNodes=0``, the defaults, left out; a ``DEFAULT`` line's too)."""
    conf = tmp_path / "slurm.conf"
    conf.write_text(
        "NodeName=n1 CPUs=4\nPartitionName=DEFAULT Nodes=ALL MaxNodes=6\n"
        "PartitionName=batch Default=YES MinNodes=2\n"
        "PartitionName=wide MaxNodes=UNLIMITED MinNodes=0\n"
        "PartitionName=odd MaxNodes=INFINITE\n"
    )
    result = run("import", "slurm-conf", str(conf))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.split("\n\n")[1:] == [
        "[partitions.batch]\npriority_job_factor = 1\ndefault = true\nmax_nodes = 6\nmin_nodes = 2",
        "[partitions.wide]\npriority_job_factor = 1\ndefault = false",
        "[partitions.odd]\npriority_job_factor = 1\ndefault = false\n",
    ]
    conf.write_text("NodeName=n1 CPUs=4\nPartitionName=batch Nodes=ALL MaxNodes=many\n")
    result = run("import", "slurm-conf", str(conf))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f'fs: error: {conf}:2: MaxNodes: expected a whole number, got "many"\n'
    )


@pytest.mark.parametrize(
    ("capture", "conf"),
    [
        pytest.param(
            "slurm-26.05/ft4_t2_idle", "slurm-26.05/config/slurm.conf.fairtree", id="26.05"
        ),
        pytest.param("slurm-22.05/ft2_idle", "slurm-22.05/config/slurm.conf.fairtree", id="22.05"),
    ],
)
@pytest.mark.parametrize("prompt", [True, False], ids=["transcript", "saved-output"])
def test_scontrol_show_partition_gives_what_slurm_conf_gives(
    tmp_path: Path, run: Callable[..., Any], capture: str, conf: str, prompt: bool
) -> None:
    """``scontrol show partition`` (a ``PartitionName=`` line, then the partition's fields
    on indented lines) into a new config gives the partitions slurm.conf gives: batch the
    default, express ``PriorityJobFactor=4`` (both captures print so), ``MaxTime=UNLIMITED``.
    fs read each indented line as a line of its own, of no partition: express got factor
    1 and batch was not the default, with no word said; with the command line kept
    (``$ scontrol show partition``) it refused the file (``got "$"``)."""
    from fairshare_cli.io.toml import loads

    dump = FIXTURES / capture / "scontrol_show_partition.txt"
    if not prompt:
        dump = tmp_path / "partitions.txt"
        dump.write_text(
            (FIXTURES / capture / "scontrol_show_partition.txt").read_text().split("\n", 1)[1]
        )
    shown, written = tmp_path / "new.toml", tmp_path / "conf.toml"
    res = run("import", "slurm-conf", str(dump), "--into", str(shown))
    assert res.exit_code == 0, res.stderr
    assert "0 knobs, 0 nodes, 2 partitions (6 added, 0 replaced, 0 unchanged)" in res.stderr
    assert run("import", "slurm-conf", str(FIXTURES / conf), "--into", str(written)).exit_code == 0
    ours = loads(shown.read_text())["partitions"]
    assert ours == loads(written.read_text())["partitions"]
    assert ours["express"]["priority_job_factor"] == 4 and ours["batch"]["default"] is True
    res = run("import", "slurm-conf", str(dump), "--into", str(written))
    assert "(0 added, 0 replaced, 6 unchanged)" in res.stderr


def test_scontrol_show_partition_with_a_stray_line_is_refused(refuse_dump: Refuse) -> None:
    refuse_dump(
        "slurm-conf",
        "PartitionName=x\n   Default=YES\nFoo=1\n",
        ":3: expected PartitionName= or its indented fields",
        into=True,
    )


@pytest.mark.parametrize(
    "ptype",
    [
        pytest.param("PriorityType=priority/multifactor\n", id="type"),
        pytest.param("", id="no-type"),
    ],
)
def test_what_a_slurm_conf_leaves_unset_is_what_slurmctld_reads(
    tmp_path: Path, run: Callable[..., Any], ptype: str
) -> None:
    """A slurm.conf that sets PriorityWeightFairshare alone: slurmctld reads every other
    weight as 0 (``read_config.c``: ``conf->priority_weight_age = 0`` when unset) and runs
    Fair Tree (no ``PriorityFlags``), and ``sprio -w`` prints a column only for a weight
    above 0 (``sprio.c`` builds its format with ``if (weight_age) ...``): SITE, always 1,
    and FAIRSHARE. ``fs import slurm-conf slurm.conf > mini.toml`` wrote the fairshare
    weight alone, and the config, naming no ``[pool] defaults``, read the legacy profile's
    Slurm 2.0 defaults: ``fs sprio -w --config mini.toml`` printed AGE, JOBSIZE, PARTITION
    and QOS weights of 1 (and without PriorityType, ``fs sshare`` Slurm 2.0's linear)."""
    conf = tmp_path / "slurm.conf"
    conf.write_text(
        f"ClusterName=mini\n{ptype}PriorityWeightFairshare=10000\n"
        "NodeName=n[1-4] CPUs=8\nPartitionName=batch Nodes=ALL Default=YES\n"
    )
    res = run("import", "slurm-conf", str(conf))
    assert res.exit_code == 0, res.stderr
    assert '\nfairshare = "fair_tree"\n' in res.stdout
    config = tmp_path / "mini.toml"
    config.write_text(res.stdout)
    res = run("sprio", "-w", "--config", str(config), "--state", str(tmp_path / "s.json"))
    assert (res.exit_code, res.stderr) == (0, "")
    assert res.stdout == (
        "          JOBID PARTITION   PRIORITY       SITE  FAIRSHARE\n"
        "        Weights                               1      10000\n"
    )


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(
            "NodeName=n[1-2] CPUs=4\nPartitionName=DEFAULT TRESBillingWeights=CPU=1.0,Mem=0.25G\n"
            "PartitionName=batch Nodes=ALL Default=YES\n",
            id="slurm.conf",
        ),
        pytest.param(
            "$ scontrol show partition\nPartitionName=batch\n   Default=YES Nodes=n[1-2]\n"
            "   TRESBillingWeights=CPU=1.0,Mem=0.25G\n",
            id="scontrol-show-partition",
        ),
    ],
)
def test_a_partitions_billing_weights_are_imported(
    tmp_path: Path, run: Callable[..., Any], text: str
) -> None:
    """``TRESBillingWeights`` (a ``DEFAULT`` line's too, and as ``scontrol show partition``
    prints it) becomes ``billing_weights``, as written."""
    conf = tmp_path / "slurm.conf"
    conf.write_text(text)
    into = tmp_path / "pool.toml"
    into.write_text("[accounts.a]\nusers = { u = 1 }\n")
    r = run("import", "slurm-conf", str(conf), "--into", str(into))
    assert r.exit_code == 0, r.stderr
    from fairshare_cli.io.config import load_config

    assert load_config(into).partitions["batch"].billing_weights == "CPU=1.0,Mem=0.25G"


def test_billing_weights_slurmctld_refuses_are_refused(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """slurmctld stops on a weight of a TRES it does not track (``_tres_weight_item``)."""
    conf = tmp_path / "slurm.conf"
    conf.write_text("NodeName=n1 CPUs=4\nPartitionName=batch Nodes=ALL TRESBillingWeights=Cup=1\n")
    r = run("import", "slurm-conf", str(conf))
    assert r.exit_code == 2
    assert r.stderr.endswith(
        ":2: TRESBillingWeights: TRES weight 'cup' is not a configured TRES type\n"
    )


@pytest.mark.parametrize(
    ("compat", "ptype", "exit_code", "stderr"),
    [
        pytest.param(
            "22.05",
            "",
            1,
            "You are not running a supported priority plugin\n(priority/basic).\n"
            "Only 'priority/multifactor' is supported.\n",
            id="22.05-unset-is-basic",
        ),
        pytest.param("22.05", "PriorityType=priority/multifactor\n", 0, "", id="22.05-set"),
        pytest.param("current", "", 0, "", id="current-unset-is-multifactor"),
    ],
)
def test_an_unset_priority_type_is_what_the_modelled_slurm_reads(
    tmp_path: Path, run: Callable[..., Any], compat: str, ptype: str, exit_code: int, stderr: str
) -> None:
    """Slurm 22.05's ``read_config.c`` reads an unset PriorityType as ``DEFAULT_PRIORITY_TYPE``,
    ``priority/basic`` (``read_config.h``); from 23.02.5 on it is ``priority/multifactor``.
    So a slurm.conf setting weights but no PriorityType, merged into a config of
    ``output_compat = "22.05"``, is FIFO, and ``sprio`` refuses it, exit 1, as 22.05's
    ``sprio.c`` does for ``priority/basic``."""
    conf = tmp_path / "slurm.conf"
    conf.write_text(
        f"ClusterName=mini\n{ptype}PriorityWeightQOS=10000\n"
        "NodeName=n[1-4] CPUs=8\nPartitionName=batch Nodes=ALL Default=YES\n"
    )
    config = tmp_path / "pool.toml"
    config.write_text(f'[priority]\noutput_compat = "{compat}"\n')
    res = run("import", "slurm-conf", str(conf), "--into", str(config))
    assert res.exit_code == 0, res.stderr
    basic = compat == "22.05" and not ptype
    assert ('\ntype = "basic"\n' in config.read_text()) is basic
    assert res.stderr.endswith(
        "; PriorityType unset: priority/basic, as Slurm 22.05 reads it (11 added, 0 replaced, "
        "0 unchanged)\n"
        if basic
        else f"PriorityWeightQOS) ({10 + bool(ptype)} added, 0 replaced, 0 unchanged)\n"
    )
    res = run("sprio", "-w", "--config", str(config), "--state", str(tmp_path / "s.json"))
    assert (res.exit_code, res.stderr) == (exit_code, stderr)
    if not exit_code:
        assert res.stdout.splitlines()[1].split() == ["Weights", "1", "10000"]


def test_without_into_an_unset_priority_type_is_left_to_the_default(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """Printed, the fragment names no Slurm version: PriorityType unset stays unset (fs's
    default, multifactor, as Slurm reads it since 23.02.5)."""
    conf = tmp_path / "slurm.conf"
    conf.write_text("PriorityWeightFairshare=10000\nNodeName=n1 CPUs=8\n")
    res = run("import", "slurm-conf", str(conf))
    assert res.exit_code == 0, res.stderr
    assert "type" not in res.stdout.replace("[priority.weights]", "")


def test_a_file_of_nodes_alone_leaves_the_22_05_priority_type_as_the_config_has_it(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """Only a file setting a ``Priority*`` knob says how the cluster prioritises: one of
    nodes and partitions alone, merged into a config of ``output_compat = "22.05"``, writes
    no ``type = "basic"`` (docs/config.md), so the config's multifactor stays and sprio runs."""
    conf = tmp_path / "slurm.conf"
    conf.write_text(
        "ClusterName=c1\nNodeName=n[1-2] CPUs=4 RealMemory=8000\n"
        'PartitionName=p1 Nodes=n[1-2] TRESBillingWeights="CPU=1.0,Mem=0.25G"\n'
    )
    config = tmp_path / "s22.toml"
    config.write_text('[pool]\nname = "c1"\n\n[priority]\noutput_compat = "22.05"\n')
    res = run("import", "slurm-conf", str(conf), "--into", str(config))
    assert res.exit_code == 0, res.stderr
    assert res.stderr == (
        f"merged into {config}: {conf}: 1 knob, 2 nodes, 1 partition (ClusterName) "
        "(4 added, 0 replaced, 1 unchanged)\n"
    )
    assert "type" not in config.read_text()
    res = run("sprio", "-w", "--config", str(config), "--state", str(tmp_path / "s.json"))
    assert (res.exit_code, res.stderr) == (0, "")


def test_partition_default_time_and_the_last_default(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """``DefaultTime`` becomes ``default_time`` (``UNLIMITED`` as ``INFINITE``); one above
    its ``MaxTime`` is left out, as slurmctld ignores it ("DefaultTime exceeds MaxTime":
    ``_build_single_partitionline_info``), which also moves the default to each
    ``Default=YES`` line it reads: long, the last, is the default. fs left ``DefaultTime``
    out and wrote ``default = true`` for both."""
    conf = tmp_path / "slurm.conf"
    conf.write_text(
        "NodeName=n1 CPUs=4\nPartitionName=DEFAULT Nodes=ALL\n"
        "PartitionName=batch Default=YES MaxTime=2:00:00 DefaultTime=30\n"
        "PartitionName=long Default=YES MaxTime=1:00:00 DefaultTime=2:00:00\n"
        "PartitionName=inf DefaultTime=UNLIMITED\n"
    )
    result = run("import", "slurm-conf", str(conf))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.split("\n\n")[1:] == [
        '[partitions.batch]\npriority_job_factor = 1\ndefault = false\nmax_time = "2:00:00"\n'
        'default_time = "30"',
        '[partitions.long]\npriority_job_factor = 1\ndefault = true\nmax_time = "1:00:00"',
        '[partitions.inf]\npriority_job_factor = 1\ndefault = false\ndefault_time = "INFINITE"\n',
    ]
    conf.write_text("NodeName=n1 CPUs=4\nPartitionName=batch Nodes=ALL DefaultTime=soon\n")
    result = run("import", "slurm-conf", str(conf))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.startswith(f"fs: error: {conf}:2: DefaultTime: ")


def test_scontrol_show_partition_default_time(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``scontrol show partition`` prints an unset ``DefaultTime`` as ``NONE`` (left out)
    and a set one as a time (``partition_info.c``): the 22.05 capture with express's
    changed to an hour."""
    text = (FIXTURES / "slurm-22.05" / "cl1_idle" / "scontrol_show_partition.txt").read_text()
    express = text.index("PartitionName=express")
    dump = tmp_path / "partitions.txt"
    dump.write_text(
        text[:express] + text[express:].replace("DefaultTime=NONE", "DefaultTime=1:00:00")
    )
    result = run("import", "slurm-conf", str(dump))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.split("\n\n") == [
        '[partitions.batch]\npriority_job_factor = 1\ndefault = true\nmax_time = "INFINITE"',
        '[partitions.express]\npriority_job_factor = 4\ndefault = false\nmax_time = "INFINITE"\n'
        'default_time = "1:00:00"\n',
    ]


def test_a_max_age_slurmctld_refuses_is_refused_at_its_line(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """read_config.c reads PriorityMaxAge with time_str2mins, in an int: "50000000" minutes
    (3,000,000,000 s) wraps to -1,294,967,296 s, (-1,294,967,296 + 59) / 60 = -21,582,787
    minutes, and slurmctld stops ("Bad value"). fs took the line and wrote it out."""
    conf = tmp_path / "slurm.conf"
    conf.write_text("ClusterName=c1\nPriorityMaxAge=50000000\n")
    r = run("import", "slurm-conf", str(conf))
    assert (r.exit_code, r.stdout) == (2, "")
    assert r.stderr.strip().endswith(
        'slurm.conf:2: PriorityMaxAge: "50000000" overflows the int slurmctld reads it in '
        '(about 68 years or more): -21582787 minutes, refused ("Bad value" for PriorityMaxAge)'
    )


def test_show_config_prints_an_infinite_max_age_as_its_seconds(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """PriorityMaxAge=INFINITE (and PriorityDecayHalfLife=INFINITE, alike) is stored as
    (uint32_t)(-1 x 60) = 4,294,967,236 s, which
    ``scontrol show config`` prints with secs2time_str: 49710-06:27:16. That is INFINITE:
    merged over the slurm.conf that said so it is no clash, and read back it is no 0 (the
    string itself, read as slurm.conf is, wraps to -60 s: (-60 + 59) / 60 = 0 minutes).
    fs wrote the string, then read it as 0: every job's AGE the whole weight, 1000."""
    conf = tmp_path / "slurm.conf"
    conf.write_text("ClusterName=c1\nPriorityMaxAge=INFINITE\nPriorityDecayHalfLife=INFINITE\n")
    config = tmp_path / "pool.toml"
    assert run("import", "slurm-conf", str(conf), "--into", str(config)).exit_code == 0
    shown = tmp_path / "show_config.txt"
    shown.write_text(
        "Configuration data as of 2026-11-21T12:00:00\nClusterName             = c1\n"
        "PriorityMaxAge          = 49710-06:27:16\n"
        "PriorityDecayHalfLife   = 49710-06:27:16\n"
    )
    res = run("import", "slurm-conf", str(shown), "--into", str(config))
    assert res.exit_code == 0, res.stderr
    assert "0 replaced" in res.stderr + res.stdout
    assert 'max_age = "INFINITE"\n' in config.read_text()
    alone = tmp_path / "alone.toml"
    assert run("import", "slurm-conf", str(shown), "--into", str(alone)).exit_code == 0
    assert 'max_age = "INFINITE"\n' in alone.read_text()
    assert 'decay_halflife = "INFINITE"\n' in alone.read_text()


@pytest.mark.parametrize(
    ("word", "jobsize"),
    [
        # PriorityFavorSmall true: a 1-node 1-CPU job of 2 nodes, 4 CPUs:
        # ((2 - 1) / 2 + (4 - 1) / 4) / 2 = 0.625, x 1000 = 625.
        pytest.param("true", "625", id="true"),
        pytest.param("1", "625", id="one"),
        pytest.param("Up", "625", id="up"),
        # false: (1 / 2 + 1 / 4) / 2 = 0.375, x 1000 = 375.
        pytest.param("FALSE", "375", id="false"),
        pytest.param("0", "375", id="zero"),
        pytest.param("down", "375", id="down"),
    ],
)
def test_booleans_are_read_as_slurmctld_reads_them(
    tmp_path: Path, run: Callable[..., Any], word: str, jobsize: str
) -> None:
    """slurm.conf's booleans (``PriorityFavorSmall``, a partition's ``Default``) are read
    by s_p_handle_boolean: yes, up, true or 1, no, down, false or 0, in any case. fs took
    YES and NO alone: 'PriorityFavorSmall: expected YES or NO, got "true"', exit 2."""
    conf = tmp_path / "slurm.conf"
    conf.write_text(
        f"NodeName=n[1-2] CPUs=2\nPartitionName=batch Nodes=ALL Default={word}\n"
        f"PartitionName=other Nodes=ALL\nPriorityFavorSmall={word}\nPriorityWeightJobSize=1000\n"
    )
    into = tmp_path / "pool.toml"
    into.write_text("[accounts.a]\nusers = { u = 1 }\n")
    r = run("import", "slurm-conf", str(conf), "--into", str(into))
    assert r.exit_code == 0, r.stderr
    jobs = tmp_path / "jobs.json"
    jobs.write_text('[{"id": "1", "owner": "u", "account": "a", "partition": "batch"}]')
    args = ["--config", str(into), "--jobs-file", str(jobs), "--now", "2026-11-21T12:00:00Z"]
    r = run("sprio", "-o", "%.5i %.10J", *args)
    assert r.exit_code == 0, r.stderr
    assert r.stdout.splitlines() == ["JOBID    JOBSIZE", f"    1 {jobsize:>10}"]
    from fairshare_cli.io.config import load_config

    assert load_config(into).partitions["batch"].default == (jobsize == "625")


def test_a_word_slurmctld_takes_for_no_boolean_is_refused(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    conf = tmp_path / "slurm.conf"
    conf.write_text("ClusterName=c1\nPriorityFavorSmall=maybe\n")
    r = run("import", "slurm-conf", str(conf))
    assert (r.exit_code, r.stdout) == (2, "")
    assert r.stderr.strip().endswith(
        'slurm.conf:2: PriorityFavorSmall: "maybe" is not a valid option (expected YES, UP, '
        "TRUE or 1, or NO, DOWN, FALSE or 0)"
    )
