"""fs sshare and fs sprio against real Slurm 22.05 and 26.05 output, byte for byte.

Everything comes from the fixture files: the tree from ``sacctmgr``, QOS from
``sacctmgr show qos``, knobs, nodes and partitions from ``slurm.conf``, usage from the
``sacct`` dump (through ``fs import sacct``; 26.05: ``sshare -a -l --json``), pending jobs
from ``scontrol show jobs``, the capture times from ``date.txt`` and the decay-pass times
from the fixture README (26.05: from sprio's AGE).
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from fairshare_cli.core.config import Config
from fairshare_cli.core.slurm.tree_usage import decay_params
from fairshare_cli.core.slurm.usage import restart, usage_from_json, usage_to_json
from fairshare_cli.core.state import State
from fairshare_cli.io.config import load_config
from fairshare_cli.io.state import load_state, save_state

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "slurm-22.05"
#: The Slurm 26.05.3 capture (Fair Tree, idle) and its folder.
TODAY = Path(__file__).resolve().parents[1] / "fixtures" / "slurm-26.05"
CAPTURES = ("ft1_running", "ft2_idle", "cl1_idle", "cl2_idle")


def _utc(text: str) -> float:
    return dt.datetime.fromisoformat(text).replace(tzinfo=dt.timezone.utc).timestamp()


def _body(path: Path) -> str:
    """A capture file without its first line (the command) and trailing blank lines."""
    return path.read_text().split("\n", 1)[1].rstrip("\n") + "\n"


def _readme_pass_times() -> dict[str, float]:
    """``folder -> decay pass time`` from the README's capture table."""
    text = (FIXTURES / "README.md").read_text()
    out = {}
    for folder, hms in re.findall(r"\| `(\w+)` \| [^|]+ \| (\d\d:\d\d:\d\d) \|", text):
        out[folder] = _utc(f"2026-11-21T{hms}")
    return out


def _site_factors() -> dict[str, int]:
    text = (FIXTURES / "README.md").read_text()
    return {job: int(v) for job, v in re.findall(r"site\s+factor\s+\(job (\d+): (\d+)\)", text)}


def _slurm_conf(classic: bool, folder: Path = FIXTURES) -> dict[str, str]:
    name = "slurm.conf.classic" if classic else "slurm.conf.fairtree"
    conf: dict[str, str] = {}
    nodes: list[str] = []
    parts: list[str] = []
    for line in (folder / "config" / name).read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        key, _, value = line.partition("=")
        if key == "NodeName":
            nodes.append(line)
        elif key == "PartitionName":
            parts.append(line)
        else:
            conf[key] = value
    conf["_nodes"] = "\n".join(nodes)
    conf["_parts"] = "\n".join(parts)
    return conf


def _config_toml(classic: bool, folder: Path = FIXTURES, capture: str = "ft1_running") -> str:
    """The pool of a release's captures: 22.05's output layouts for ``FIXTURES``, today's
    (the default) for ``TODAY``."""
    conf = _slurm_conf(classic, folder)
    lines = [
        '[pool]\nname = "oracle"\ndefaults = "current"\n',
        "[priority]",
        f'fairshare = "{"classic" if classic else "fair_tree"}"',
        f'decay_halflife = "{conf["PriorityDecayHalfLife"]}"',
        f'calc_period = "{conf["PriorityCalcPeriod"]}"',
        f'max_age = "{conf["PriorityMaxAge"]}"',
        f'usage_reset_period = "{conf["PriorityUsageResetPeriod"]}"',
        f"favor_small = {str(conf['PriorityFavorSmall'].upper() == 'YES').lower()}",
        *(['output_compat = "22.05"'] if folder == FIXTURES else []),
        "[priority.weights]",
    ]
    for key, name in (
        ("age", "Age"),
        ("fairshare", "Fairshare"),
        ("jobsize", "JobSize"),
        ("partition", "Partition"),
        ("qos", "QOS"),
    ):
        lines.append(f"{key} = {conf['PriorityWeight' + name]}")
    for node in conf["_nodes"].splitlines():
        kv = dict(re.findall(r"(\w+)=(\S+)", node))
        lines += [
            "[[machines]]",
            f'name = "{kv["NodeName"]}"',
            f"attributes = {{ Cpus = {kv['CPUs']}, Memory = {kv['RealMemory']} }}",
        ]
    for part in conf["_parts"].splitlines():
        kv = dict(re.findall(r"(\w+)=(\S+)", part))
        lines += [
            f"[partitions.{kv['PartitionName']}]",
            f"priority_job_factor = {kv['PriorityJobFactor']}",
            f"default = {str(kv['Default'] == 'YES').lower()}",
        ]
    qos_text = (folder / capture / "sacctmgr_qos.txt").read_text().split("\n\n")[0]
    for line in qos_text.splitlines()[3:]:
        if line.strip():
            name, prio, factor = line.split()[:3]
            lines += [f"[qos.{name}]", f"priority = {prio}", f"usage_factor = {factor}"]
    tree = (folder / capture / "sacctmgr_assoc_tree.txt").read_text()
    parsable = tree.split("$ sacctmgr -P", 1)[1].split("\n\n")[0].splitlines()[2:]
    accounts: dict[str, dict[str, Any]] = {}
    for line in parsable:
        _, account, user, share, parent, _ = line.split("|")
        if account == "root" and not user:
            continue
        entry = accounts.setdefault(account, {"users": {}})
        if user:
            entry["users"][user] = '"parent"' if share == "parent" else int(share)
        else:
            entry["parent"] = parent
            entry["shares"] = int(share)
    for account, entry in accounts.items():
        users = ", ".join(f"{u} = {s}" for u, s in entry["users"].items())
        lines += [
            f"[accounts.{account}]",
            f'parent = "{entry["parent"]}"',
            f"shares = {entry['shares']}",
            f"users = {{ {users} }}",
        ]
    return "\n".join(lines) + "\n"


def _pending_jobs(capture: str, folder: Path = FIXTURES) -> list[dict[str, Any]]:
    text = (folder / capture / "scontrol_show_jobs.txt").read_text()
    sites = _site_factors() if folder == FIXTURES else {}
    jobs = []
    for block in text.split("\n\n"):
        if "JobId=" not in block:
            continue
        kv = dict(re.findall(r"([\w/:]+)=(\S*)", block))
        if kv["JobState"] != "PENDING":
            continue
        jobs.append(
            {
                "id": kv["JobId"],
                "owner": kv["UserId"].split("(")[0],
                "account": kv["Account"],
                "qos": kv["QOS"],
                "partition": kv["Partition"],
                "nice": int(kv["Nice"]),
                "request_cpus": int(kv["NumCPUs"]),
                "num_nodes": int(kv["NumNodes"]),
                "submit_time": kv["AccrueTime"] + "Z",
                "site_factor": sites.get(kv["JobId"], 0),
            }
        )
    return jobs


def _now(capture: str, folder: Path = FIXTURES) -> str:
    return (folder / capture / "date.txt").read_text().splitlines()[1]


@pytest.fixture
def capture_env(
    tmp_path: Path, run: Callable[..., Any]
) -> Callable[[str], tuple[Path, Path, Path, str]]:
    """Config, state and jobs file reproducing one capture."""

    def build(capture: str) -> tuple[Path, Path, Path, str]:
        classic = capture.startswith("cl")
        cfg = tmp_path / f"{capture}.toml"
        cfg.write_text(_config_toml(classic))
        config: Config = load_config(cfg)
        passes = _readme_pass_times()
        first_pass = passes["ft1_running"]
        # The decay grid the cluster ran on: passes every calc period through the first one.
        period = config.priority.calc_period
        anchor = first_pass - 10 * period
        state_path = tmp_path / f"{capture}-state.json"
        save_state(state_path, State(sections={"slurm": {"last_decay_ran": anchor}}))
        import_now = _now(capture) if not classic else _now("ft2_idle")
        res = run(
            "import",
            "sacct",
            str(FIXTURES / "sacct_jobs_1_13.txt"),
            "--config",
            str(cfg),
            "--state",
            str(state_path),
            "--now",
            import_now,
        )
        assert res.exit_code == 0, res.output
        if classic:
            # slurmctld was restarted with NO_FAIR_TREE: its passes moved to a new grid.
            st = load_state(state_path)
            usage = restart(
                usage_from_json(st.section("slurm")), passes[capture] - 60 * 4, decay_params(config)
            )
            save_state(state_path, st.with_section("slurm", usage_to_json(usage)))
        jobs = tmp_path / f"{capture}-jobs.json"
        jobs.write_text(json.dumps(_pending_jobs(capture)))
        return cfg, state_path, jobs, _now(capture)

    return build


@pytest.mark.parametrize("capture", CAPTURES)
@pytest.mark.parametrize(
    ("fixture", "args"),
    [
        pytest.param("sshare_a_l.txt", ["-a", "-l"], id="sshare-a-l"),
        pytest.param("sshare_a_l_P.txt", ["-a", "-l", "-P"], id="sshare-a-l-P"),
        pytest.param(
            "sshare_a_P_fields.txt",
            [
                "-a",
                "-P",
                "-o",
                "Account,User,RawShares,NormShares,RawUsage,NormUsage,"
                "EffectvUsage,FairShare,LevelFS,TRESRunMins",
            ],
            id="sshare-fields",
        ),
    ],
)
def test_sshare_matches_slurm(
    capture: str, fixture: str, args: list[str], capture_env: Any, run: Callable[..., Any]
) -> None:
    cfg, state, _, now = capture_env(capture)
    res = run("sshare", *args, "--config", str(cfg), "--state", str(state), "--now", now)
    assert res.exit_code == 0, res.stderr
    assert res.stdout == _body(FIXTURES / capture / fixture)


@pytest.mark.parametrize("capture", CAPTURES)
@pytest.mark.parametrize(
    ("fixture", "args"),
    [
        pytest.param("sprio_l.txt", ["-l"], id="sprio-l"),
        pytest.param("sprio_n_l.txt", ["-n", "-l"], id="sprio-n-l"),
        pytest.param("sprio_w.txt", ["-w"], id="sprio-w"),
        pytest.param(
            "sprio_long_format.txt",
            [
                "-o",
                "%.8i %.9r %.6u %.10Y %.12y %.6S %.10a %.7A %.10b %.6B %.10f %.7F %.10j "
                "%.7J %.10p %.7P %.10q %.7Q %.6N %.10t %.10T",
            ],
            id="sprio-o",
        ),
    ],
)
def test_sprio_matches_slurm(
    capture: str, fixture: str, args: list[str], capture_env: Any, run: Callable[..., Any]
) -> None:
    cfg, state, jobs, now = capture_env(capture)
    res = run(
        "sprio",
        *args,
        "--config",
        str(cfg),
        "--state",
        str(state),
        "--jobs-file",
        str(jobs),
        "--now",
        now,
    )
    assert res.exit_code == 0, res.stderr
    assert res.stdout == _body(FIXTURES / capture / fixture)


def test_raw_usage_matches_assoc_mgr(capture_env: Any, run: Callable[..., Any]) -> None:
    """The untruncated usage agrees with scontrol's two-decimal UsageRaw."""
    cfg, state, _, now = capture_env("ft2_idle")
    res = run("sshare", "-a", "--json", "--config", str(cfg), "--state", str(state), "--now", now)
    ours = {(r["account"], r["user"]): r["raw_usage"] for r in json.loads(res.stdout)}
    text = (FIXTURES / "ft2_idle" / "scontrol_assoc_mgr.txt").read_text()
    found = re.findall(
        r"Account=(\w+) UserName=(\w*)[^\n]*\n[^\n]*\n\s+UsageRaw/Norm/Efctv="
        r"([\d.]+)/",
        text,
    )
    assert found
    for account, user, raw in found:
        assert round(ours[(account, user or None)], 2) == pytest.approx(float(raw), abs=0.006)


def _today_pass() -> float:
    """The decay pass the 26.05 capture shows: sprio's AGE is the seconds from a job's
    AccrueTime to it over PriorityMaxAge (``-n -l`` prints 0.1327778 for jobs accruing
    since 18:20:32, with PriorityMaxAge 1:00:00: 478 s, the pass at 18:28:30)."""
    row = _body(TODAY / "ft4_t2_idle" / "sprio_n_l.txt").splitlines()[1].split()
    accrue = re.search(
        r"JobId=19 .*?AccrueTime=(\S+)",
        (TODAY / "ft4_t2_idle" / "scontrol_show_jobs.txt").read_text(),
        re.S,
    )
    assert accrue is not None
    return _utc(accrue.group(1)) + round(float(row[5]) * 3600)


def _today_usage() -> dict[str, dict[str, float]]:
    """Each user's usage, in proportion to the cluster's: ``sshare -a -l --json``'s
    full-precision ``usage_normalized`` times root's UsageRaw from ``scontrol show
    assoc_mgr`` (two decimals: enough for sshare's whole-number RawUsage; every ratio,
    which is all the other columns use, stays exact)."""
    text = (TODAY / "ft4_t2_idle" / "sshare_a_l_json.txt").read_text().split("\n", 1)[1]
    rows = json.loads(text)["shares"]["shares"]
    assoc_mgr = (TODAY / "ft4_t2_idle" / "scontrol_assoc_mgr.txt").read_text()
    found = re.search(r"Account=root UserName= .*?UsageRaw/Norm/Efctv=([\d.]+)/", assoc_mgr, re.S)
    assert found is not None
    root = float(found.group(1))
    usage: dict[str, dict[str, float]] = {}
    for r in rows:
        if "USER" in r["type"]:
            usage.setdefault(r["parent"], {})[r["name"]] = r["usage_normalized"]["number"] * root
    return usage


@pytest.fixture
def today_env(tmp_path: Path) -> tuple[Path, Path, Path, str]:
    """Config, state and jobs file of the Slurm 26.05 capture (today's output layouts)."""
    cfg = tmp_path / "today.toml"
    cfg.write_text(_config_toml(False, TODAY, "ft4_t2_idle"))
    state = tmp_path / "today-state.json"
    section = {"last_decay_ran": _today_pass(), "usage": _today_usage()}
    save_state(state, State(sections={"slurm": section}))
    jobs = tmp_path / "today-jobs.json"
    jobs.write_text(json.dumps(_pending_jobs("ft4_t2_idle", TODAY)))
    return cfg, state, jobs, _now("ft4_t2_idle", TODAY)


@pytest.mark.parametrize(
    ("fixture", "args"),
    [
        pytest.param("sshare_a_l.txt", ["sshare", "-a", "-l"], id="sshare-a-l"),
        pytest.param("sshare_a_l_P.txt", ["sshare", "-a", "-l", "-P"], id="sshare-a-l-P"),
        pytest.param(
            "sshare_a_P_fields.txt",
            [
                "sshare",
                "-a",
                "-P",
                "-o",
                "Account,User,RawShares,NormShares,RawUsage,NormUsage,"
                "EffectvUsage,FairShare,LevelFS,TRESRunMins",
            ],
            id="sshare-fields",
        ),
        pytest.param("sprio.txt", ["sprio"], id="sprio"),
        pytest.param("sprio_l.txt", ["sprio", "-l"], id="sprio-l"),
        pytest.param("sprio_n_l.txt", ["sprio", "-n", "-l"], id="sprio-n-l"),
        pytest.param("sprio_w.txt", ["sprio", "-w"], id="sprio-w"),
        pytest.param(
            "sprio_long_format.txt",
            [
                "sprio",
                "-o",
                "%.8i %.9r %.6u %.10Y %.12y %.6S %.10a %.7A %.10b %.6B %.10f %.7F %.10j "
                "%.7J %.10p %.7P %.10q %.7Q %.6N %.10t %.10T",
            ],
            id="sprio-o",
        ),
    ],
)
def test_today_matches_slurm_26_05(
    fixture: str, args: list[str], today_env: Any, run: Callable[..., Any]
) -> None:
    """The current profile prints what Slurm 26.05.3 printed (ACCOUNT and QOSNAME in
    ``sprio -l`` and ``-n -l``; Fair Tree's sshare as before)."""
    cfg, state, jobs, now = today_env
    extra = ["--jobs-file", str(jobs)] if args[0] == "sprio" else []
    res = run(*args, "--config", str(cfg), "--state", str(state), *extra, "--now", now)
    assert res.exit_code == 0, res.stderr
    assert res.stdout == _body(TODAY / "ft4_t2_idle" / fixture)


@pytest.mark.parametrize("capture", ["cl1_idle", "cl2_idle"])
@pytest.mark.parametrize("fixture", ["sshare_a_l.txt", "sshare_a_l_P.txt"])
def test_classic_today_leaves_account_fairshare_blank(
    capture: str, fixture: str, capture_env: Any, run: Callable[..., Any]
) -> None:
    """The current profile prints classic sshare as Slurm 26.05 does (``sshare/process.c``:
    FairShare from ``fs_factor`` on user rows, ``NO_VAL64`` (blank) on the others): the
    22.05 capture with the FairShare cell of root and the accounts emptied, nothing else."""
    cfg, state, _, now = capture_env(capture)
    cfg.write_text(cfg.read_text().replace('output_compat = "22.05"\n', ""))
    args = ["-a", "-l", "-P"] if fixture.endswith("_P.txt") else ["-a", "-l"]
    res = run("sshare", *args, "--config", str(cfg), "--state", str(state), "--now", now)
    assert res.exit_code == 0, res.stderr
    theirs = _body(FIXTURES / capture / fixture).splitlines()
    header = theirs[0]
    if args[-1] == "-P":
        at = header.split("|").index("FairShare")
        wanted = [header]
        for line in theirs[1:]:
            cells = line.split("|")
            if not cells[1]:
                cells[at] = ""
            wanted.append("|".join(cells))
    else:
        start = header.index("FairShare") - 1  # the 10-wide right-aligned cell
        user = slice(header.index("User") - 6, header.index("User") + 4)
        wanted = theirs[:2] + [
            line if line[user].strip() else line[:start] + " " * 10 + line[start + 10 :]
            for line in theirs[2:]
        ]
    assert wanted != theirs  # root and six accounts lose their FairShare
    assert res.stdout.splitlines() == wanted
