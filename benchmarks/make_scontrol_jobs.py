"""Write a seeded ``scontrol show jobs`` dump (Slurm 26.05's record) for ``fs import squeue``.

    python benchmarks/make_scontrol_jobs.py DIR [--jobs 100000]

The pool is ``slurm_bench.make_pool``'s (its accounts and users); the jobs are 70 % pending,
25 % running and 5 % completed, each a full 26.05 record (``ReqTRES``/``AllocTRES``,
``SubmitLine``; a job that ran has a ``BatchHost=`` line, which a pending one has not), as
``src/scontrol/info_job.c`` prints them. A pending job's ``Priority`` is the
one fs computes for it from the pool and its usage (``fs sprio`` after an import of the
dump into a scratch copy of the state), as in a real dump, where the printed priorities
are those of the pass the usage is from; a running or finished job keeps a random one.
Deterministic (seeded).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import slurm_bench

NOW = slurm_bench.NOW
#: ``--now`` of the import and of ``fs sprio`` that price the pending jobs.
NOW_TEXT = "2026-11-21T12:00:00Z"


def _iso(epoch: float) -> str:
    return dt.datetime.fromtimestamp(int(epoch), dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S")


def _users(config: Path) -> list[tuple[str, str]]:
    """``(account, user)`` of every user association in the pool config."""
    out: list[tuple[str, str]] = []
    account = ""
    for line in config.read_text(encoding="utf-8").splitlines():
        if line.startswith("[accounts."):
            account = line[len("[accounts.") : -1]
        elif line.startswith("users = {"):
            out += [(account, part.split("=")[0].strip()) for part in line[9:-1].split(",")]
    return out


def record(rng: random.Random, job_id: int, account: str, user: str) -> str:
    """One job's record as ``scontrol show jobs`` prints it."""
    roll = rng.random()
    state = "PENDING" if roll < 0.7 else "RUNNING" if roll < 0.95 else "COMPLETED"
    cpus = rng.choice((1, 1, 2, 4, 8, 16))
    submit = NOW - rng.uniform(600, 3 * 86400)
    start = submit + rng.uniform(0, 300)
    partition = "batch" if rng.random() < 0.8 else "batch,express"
    qos = "high" if rng.random() < 0.1 else "normal"
    times = {
        "PENDING": ("Unknown", "Unknown", "00:00:00"),
        "RUNNING": (_iso(start), "Unknown", "00:05:00"),
        "COMPLETED": (_iso(start), _iso(start + 300), "00:05:00"),
    }[state]
    alloc = "(null)" if state == "PENDING" else f"cpu={cpus},node=1,billing={cpus}"
    batch_host = "" if state == "PENDING" else "   BatchHost=node1\n"  # (line 14)
    return (
        f"JobId={job_id} JobName=job{job_id}\n"
        f"   UserId={user}(1000) GroupId=users(100) MCS_label=N/A\n"
        f"   Priority={rng.randint(1000, 90000)} Nice={rng.choice((0, 0, 0, 10))} "
        f"Account={account} QOS={qos}\n"
        f"   JobState={state} Reason=None Dependency=(null)\n"
        "   Requeue=1 Restarts=0 BatchFlag=1 Reboot=0 ExitCode=0:0\n"
        f"   RunTime={times[2]} TimeLimit=1-00:00:00 TimeMin=N/A\n"
        f"   SubmitTime={_iso(submit)} EligibleTime={_iso(submit)}\n"
        f"   AccrueTime={_iso(submit)}\n"
        f"   StartTime={times[0]} EndTime={times[1]} Deadline=N/A\n"
        f"   SuspendTime=None SecsPreSuspend=0 LastSchedEval={_iso(submit)} Scheduler=Main\n"
        f"   Partition={partition} AllocNode:Sid=login1:4242\n"
        "   ReqNodeList=(null) ExcNodeList=(null)\n"
        f"   NodeList={'(null)' if state == 'PENDING' else 'node1'}\n"
        f"{batch_host}"
        f"   NumNodes=1 NumCPUs={cpus} NumTasks={cpus} CPUs/Task=1 ReqB:S:C:T=0:0:*:*\n"
        f"   ReqTRES=cpu={cpus},mem=1000M,node=1,billing={cpus}\n"
        f"   AllocTRES={alloc}\n"
        "   Socks/Node=* NtasksPerN:B:S:C=0:0:*:* CoreSpec=*\n"
        "   MinCPUsNode=1 MinMemoryNode=1000M MinTmpDiskNode=0\n"
        "   Features=(null) DelayBoot=00:00:00\n"
        "   OverSubscribe=OK Exclusive=NO Contiguous=0 Licenses=(null) Network=(null)\n"
        "   Command=(null)\n"
        f"   SubmitLine=sbatch -A {account} -p {partition} -n {cpus} --wrap=sleep 600\n"
        "   WorkDir=/home/work\n"
        "   StdErr=/home/work/slurm.out\n"
        "   StdIn=/dev/null\n"
        "   StdOut=/home/work/slurm.out\n"
    )


def write_jobs(directory: Path, jobs: int, seed: int = 1) -> Path:
    """The pool (1,000 associations) and ``jobs.txt`` with ``jobs`` records in ``directory``."""
    config, _, _ = slurm_bench.make_pool(directory, 1000, 1, seed=seed)
    users = _users(config)
    rng = random.Random(seed)
    path = directory / "jobs.txt"
    with path.open("w", encoding="utf-8") as fh:
        for i in range(jobs):
            account, user = users[rng.randrange(len(users))]
            fh.write(record(rng, i + 1, account, user) + "\n")
    _print_priorities(path, config, directory / "state.json")
    return path


def _fs(*args: str) -> str:
    cmd = [sys.executable, "-m", "fairshare_cli", *args, "--now", NOW_TEXT]
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


#: A record from its ``JobId=`` to its first partition, its ``Priority=`` in between.
_RECORD = re.compile(
    r"^JobId=(\d+) .*\n(?:.*\n)*?   Priority=(\d+)(?:.*\n)*?   Partition=([^,\s]+)",
    re.MULTILINE,
)


def _print_priorities(dump: Path, config: Path, state: Path) -> None:
    """Each pending job's ``Priority=`` made the one fs computes for it in its first
    partition (as ``scontrol show jobs`` prints it): the dump imported into a scratch copy
    of ``state``, then ``fs sprio -l --json`` read."""
    with tempfile.TemporaryDirectory() as scratch:
        copy = Path(scratch) / "state.json"
        shutil.copyfile(state, copy)
        common = ("--config", str(config), "--state", str(copy))
        _fs("import", "squeue", str(dump), *common)
        rows = json.loads(_fs("sprio", "-l", "--json", *common))
    priority = {(row["job_id"], row["partition"]): row["priority"] for row in rows}
    text = dump.read_text(encoding="utf-8")

    def priced(m: re.Match[str]) -> str:
        value = priority.get((m.group(1), m.group(3)))
        if value is None:  # running or finished: not sprio's
            return m.group(0)
        cut = m.start(2) - m.start()
        return f"{m.group(0)[:cut]}{value}{m.group(0)[m.end(2) - m.start() :]}"

    dump.write_text(_RECORD.sub(priced, text), encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("directory", type=Path)
    parser.add_argument("--jobs", type=int, default=100_000)
    opts = parser.parse_args()
    print(write_jobs(opts.directory, opts.jobs))


if __name__ == "__main__":
    main()
