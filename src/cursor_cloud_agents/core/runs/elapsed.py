"""How long a run took, said one way everywhere: `FINISHED after 3h 2m` in tools, commands and events alike."""

from __future__ import annotations

from cursor_cloud_agents.api import Run
from cursor_cloud_agents.api.times import epoch


def duration(seconds: float) -> str:
    """A short human duration: `42s`, `5m 3s`, `3h 2m`, `4d 1h` (the two largest units, the second left out
    when zero)."""
    whole = max(0, int(seconds))
    if whole < 60:
        return f"{whole}s"
    for size, unit, small, small_unit in ((86_400, "d", 3600, "h"), (3600, "h", 60, "m"), (60, "m", 1, "s")):
        if whole >= size:
            big, rest = divmod(whole, size)
            rest //= small
            return f"{big}{unit} {rest}{small_unit}" if rest else f"{big}{unit}"
    raise AssertionError("unreachable: a duration of a minute or more has a unit")  # pragma: no cover


def run_seconds(run: Run, now: float | None) -> float | None:
    """The run's duration once it ended (its own, else from its creation to its last update), else the time
    since its creation (`now`); None when the API gave neither."""
    if run.duration_ms is not None:
        return run.duration_ms / 1000
    started = epoch(run.created_at)
    if started is None:
        return None
    if run.is_terminal:
        updated = epoch(run.updated_at)
        return None if updated is None else max(0.0, updated - started)
    return None if now is None else max(0.0, now - started)


def end_line(run: Run, now: float | None = None) -> str:
    """`FINISHED after 3h 2m` (or the status alone when the duration is unknown)."""
    seconds = run_seconds(run, now)
    return run.status if seconds is None else f"{run.status} after {duration(seconds)}"
