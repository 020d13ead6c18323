"""What the HTCondor dump imports share: a dump of a time after ``--now`` refused (and
``fs submit``'s running jobs started after it, in the same words)."""

from __future__ import annotations

from typing import Any

from fairshare_cli.cli.resolve import now_source


def refuse_later_dump(
    what: str, when: float, now: float, later: str = "the dump is of a later time"
) -> None:
    """Refuse a dump whose ``what`` (``q.txt:8: job 8.0's QDate``) is ``when``, after
    ``now``: the state would then hold times after ``--now`` (a job submitted or a claim
    started later), which every command at that time reads as a wait or a use of less
    than nothing. ``later`` says what the time shows (a job started later).

    Raises:
        InputError: naming ``what``, its time and ``--now`` (or where the time came from).
    """
    if when <= now:
        return
    from fairshare_cli.core.epoch import utc_text
    from fairshare_cli.errors import InputError

    source = now_source()
    flag = "--now " if source != "--now" else ""
    raise InputError(
        f"{what} {utc_text(when)} is after {source} {utc_text(now)}: {later}; give "
        f"{flag}{utc_text(when)} or a later time"
    )


def latest(times: list[tuple[float, str]]) -> tuple[float, str] | None:
    """The latest of ``(time, what)`` pairs (the first of equals), or None."""
    return max(times, key=lambda pair: pair[0], default=None)


def later_job(verb: str) -> str:
    """Why a jobs file's job ``verb`` (queued, started) after ``--now`` is refused where a
    view reads it."""
    return (
        f"the job was {verb} at a later time (fs simulate --workload queues a workload's jobs"
        " as their time comes)"
    )


def refuse_queued_later(jobs: list[Any], now: float) -> None:
    """Refuse the first of ``jobs`` queued after ``now`` (a view's ``--jobs-file``: the
    queue at ``--now`` holds no such job), as :func:`refuse_later_dump` words it.

    Raises:
        InputError: naming the job, its ``submit_time`` and ``--now``.
    """
    for job in jobs:
        if job.submit_time is not None and job.submit_time > now:
            refuse_later_dump(
                f"job {job.id}'s submit_time", job.submit_time, now, later_job("queued")
            )
