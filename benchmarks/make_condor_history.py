"""A synthetic ``condor_history -json`` file of a given size, as HTCondor 25 prints it.

    python benchmarks/make_condor_history.py --bytes 1000000000 --out /tmp/history.json

Each ad is a completed job with the ~90 attributes a real history ad carries (the
fixture's job ads are the model), newest first as condor_history lists them; one ad in a
hundred is still running (no CompletionDate). Deterministic (seeded).
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

END = 1795262400  # 2026-11-21T12:00:00Z
USERS = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "ops"]
GROUPS = [None, "group_physics.hep", "group_chemistry", "group_physics.astro"]

#: Attributes every ad carries with fixed values (the bulk of a real ad's text).
FILLER = {
    "Args": "3600",
    "BufferBlockSize": 32768,
    "BufferSize": 524288,
    "Cmd": "/usr/bin/analysis",
    "CommittedSlotTime": 0,
    "CommittedSuspensionTime": 0,
    "CondorPlatform": "$CondorPlatform: X86_64-AlmaLinux_9.4 $",
    "CondorVersion": "$CondorVersion: 25.0.14 2026-09-24 BuildID: 812345 $",
    "CoreSize": 0,
    "CumulativeRemoteSysCpu": 12.0,
    "CumulativeRemoteUserCpu": 3481.0,
    "CumulativeSuspensionTime": 0,
    "CurrentHosts": 0,
    "DiskUsage": 45,
    "DiskUsage_RAW": 43,
    "Environment": "",
    "Err": "_condor_stderr",
    "ExecutableSize": 45,
    "ExecutableSize_RAW": 43,
    "ExitBySignal": False,
    "ExitCode": 0,
    "ExitStatus": 0,
    "FileSystemDomain": "example.org",
    "ImageSize": 24000,
    "ImageSize_RAW": 23412,
    "In": "/dev/null",
    "Iwd": "/home/user/analysis/run-0042",
    "JobLeaseDuration": 2400,
    "JobNotification": 0,
    "JobPrio": 0,
    "JobRunCount": 1,
    "JobUniverse": 5,
    "LastJobLeaseRenewal": 1795262000,
    "LastSuspensionTime": 0,
    "LeaveJobInQueue": False,
    "MaxHosts": 1,
    "MemoryUsage": "/Expr(((ResidentSetSize + 1023) / 1024))/",
    "MinHosts": 1,
    "MyType": "Job",
    "NumCkpts": 0,
    "NumJobCompletions": 1,
    "NumJobMatches": 1,
    "NumJobStarts": 1,
    "NumRestarts": 0,
    "NumShadowStarts": 1,
    "NumSystemHolds": 0,
    "OnExitHold": False,
    "OnExitRemove": True,
    "Out": "_condor_stdout",
    "PeriodicHold": False,
    "PeriodicRelease": False,
    "PeriodicRemove": False,
    "RemoteSysCpu": 12.0,
    "RemoteUserCpu": 3481.0,
    "RequestDisk": "/Expr(DiskUsage)/",
    "RequestMemory": 2048,
    "Requirements": '/Expr((TARGET.Arch == "X86_64") && (TARGET.OpSys == "LINUX") && '
    "(TARGET.Disk >= RequestDisk) && (TARGET.Memory >= RequestMemory))/",
    "ResidentSetSize": 1800000,
    "ResidentSetSize_RAW": 1783412,
    "Rank": 0.0,
    "RootDir": "/",
    "ShouldTransferFiles": "YES",
    "StreamErr": False,
    "StreamOut": False,
    "TargetType": "Machine",
    "TerminationPending": True,
    "TotalSuspensions": 0,
    "TransferIn": False,
    "TransferInputSizeMB": 0,
    "WantCheckpoint": False,
    "WantRemoteIO": True,
    "WantRemoteSyscalls": False,
    "WhenToTransferOutput": "ON_EXIT",
}


def ad_text(i: int, rng: random.Random) -> str:
    """One ad, newest first: the i-th ad ended ``i`` minutes before the end (one in 100
    removed then, the others completed)."""
    user = USERS[i % len(USERS)]
    group = GROUPS[i % len(GROUPS)]
    end = END - 60 * i
    run = rng.randint(600, 14400)
    ad = dict(FILLER)
    ad.update(
        {
            "ClusterId": 1000000 - i,
            "ProcId": i % 10,
            "GlobalJobId": f"submit.example.org#{1000000 - i}.{i % 10}#{end - run - 60}",
            "Owner": user,
            "User": f"{user}@example.org",
            "QDate": end - run - 60,
            "JobStartDate": end - run,
            "JobCurrentStartDate": end - run,
            "RequestCpus": rng.choice((1, 1, 1, 2, 4, 8)),
            "RemoteWallClockTime": float(run),
            "LastRemoteHost": f"slot1@exec{i % 500:03d}.example.org",
        }
    )
    if group:
        ad["AccountingGroup"] = f"{group}.{user}"
    if i % 100 == 7:  # (removed: a history holds no job still in the queue)
        ad["JobStatus"] = 3
        ad["EnteredCurrentStatus"] = end
    else:
        ad["JobStatus"] = 4
        ad["CompletionDate"] = end
        ad["EnteredCurrentStatus"] = end
    return json.dumps(ad, indent=2, sort_keys=True)


def write(path: Path, size: int, seed: int = 11) -> int:
    """Write ads until the file reaches ``size`` bytes; return how many ads."""
    rng = random.Random(seed)
    count = 0
    written = 0
    with path.open("w", encoding="utf-8") as out:
        out.write("[\n")
        while written < size:
            text = ad_text(count, rng)
            out.write(("\n,\n" if count else "") + text)
            written += len(text) + 3
            count += 1
        out.write("\n]\n")
    return count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bytes", type=int, default=1_000_000_000)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    n = write(args.out, args.bytes, args.seed)
    print(f"{n} ads, {args.out.stat().st_size} bytes in {args.out}")


if __name__ == "__main__":
    main()
