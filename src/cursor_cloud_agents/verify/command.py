"""Running `verify`: settings, the client with its observers, the facts in order, the summary and exit status.

Exit status: 0 when every fact is OK, SKIPPED or NEW; 1 when any DIFFERS; 2 when the check could not
run (no key, the API unreachable, the key refused).
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Mapping
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, replace
from pathlib import Path
from urllib.parse import urlsplit

import anyio

from cursor_cloud_agents.api import APIConnectionError, AuthenticationError, CursorClient, CursorError, ReadFailedError
from cursor_cloud_agents.api.record import Observer, Observers, Recorder
from cursor_cloud_agents.config import Secret, Settings
from cursor_cloud_agents.core import CoreState
from cursor_cloud_agents.core.timing import Clock
from cursor_cloud_agents.guards.net import is_loopback_host
from cursor_cloud_agents.redact import Redactor
from cursor_cloud_agents.verify import spend as paid
from cursor_cloud_agents.verify.facts import READ_ONLY_FACTS, WRONG_KEY, Context, Fact
from cursor_cloud_agents.verify.observed import Observed
from cursor_cloud_agents.verify.report import EXIT_COULD_NOT_RUN, Line, Report, differs, skipped

OpenClient = Callable[[Settings, Observer | None], AbstractAsyncContextManager[CursorClient]]


@dataclass(frozen=True)
class Options:
    """The command line of `verify`."""

    spend: bool = False
    yes: bool = False
    """Skip the question before spending (scripts, CI against the simulator)."""
    record: Path | None = None
    keep_text: bool = False
    show_identities: bool = False


@dataclass(frozen=True)
class Io:
    """How verify talks to the user and to time (injected in tests)."""

    write: Callable[[str], object]
    ask: Callable[[str], str]
    now: Callable[[], float] = time.monotonic
    sleep: Callable[[float], Awaitable[None]] = anyio.sleep
    wall: Callable[[], float] = time.time
    """The date of a paid act in the store (`now` times the steps)."""


async def run_verify(env: Mapping[str, str], options: Options, open_client: OpenClient, io: Io) -> int:
    """Check the contract with the key of `env`; print the report through `io.write`; return the exit status."""
    settings = Settings.from_env(env)
    secrets = Redactor([*settings.secrets(), WRONG_KEY])
    report = Report(io.write, secrets, None if options.show_identities else Redactor())
    if settings.api_key is None and not settings.simulated:
        report.say(f"verify could not run: {settings.key_problem}")
        return EXIT_COULD_NOT_RUN
    observed = Observed()
    observer: Observer = observed
    if options.record is not None:
        observer = Observers([observed, Recorder(options.record, mask=secrets.mask, keep_text=options.keep_text)])
    started = io.now()
    async with open_client(settings, observer) as api:
        ctx = Context(
            api,
            observed,
            lambda: open_client(replace(settings, api_key=Secret(WRONG_KEY)), observer),
            report.identities or Redactor(),
            io.now,
            io.sleep,
        )
        problem = await _reachable(api)
        if problem is not None:
            report.say(f"verify could not run: {problem}")
            return EXIT_COULD_NOT_RUN
        # In simulated mode base_url still reads https://api.cursor.com, which is not what is checked.
        where = (
            "the embedded simulator (CURSOR_MCP_FIXTURE=1: nothing real)" if settings.simulated else settings.base_url
        )
        report.say(f"Checking the Cursor API contract at {where} (read-only facts first)")
        for fact in READ_ONLY_FACTS:
            report.add(*await _guarded(fact, ctx))
        if options.spend:
            state = CoreState(settings, secrets, Clock(now=io.wall, sleep=io.sleep), client=api)
            report.add(*await _spend(ctx, state, options, io, report))
    _summary(report, io.now() - started)
    return report.exit_code


async def _reachable(api: CursorClient) -> str | None:
    """Why the check cannot run (no network, key refused), or None."""
    try:
        await api.me()
    except (APIConnectionError, ReadFailedError) as exc:
        return f"the API could not be reached ({exc.message}); check the network and CURSOR_API_BASE_URL"
    except AuthenticationError:
        return "Cursor refused the key (401): check CURSOR_API_KEY"
    except CursorError:
        return None  # the account fact reports it
    return None


async def _guarded(fact: Fact, ctx: Context) -> list[Line]:
    """A fact's lines; an unexpected API error is that fact's DIFFERS, and the next facts still run."""
    try:
        return await fact(ctx)
    except CursorError as exc:
        return [differs(fact.__name__.replace("_", " "), "an answer as in the contract", exc.message)]


async def _spend(ctx: Context, state: CoreState, options: Options, io: Io, report: Report) -> list[Line]:
    """The paid part: the cheapest variant, the limits checked and said, the person's yes, then the lifecycle."""
    try:
        selection = paid.cheapest(await ctx.api.list_models())
    except CursorError as exc:
        return [differs("--spend", "the models to choose the cheapest from", exc.message)]
    if selection is None:
        return [skipped("--spend", "no model lists its variants, so the cheapest is unknown; nothing was created")]
    request = paid.creation(selection, on_simulator=_loopback(state.settings))
    return await paid.spend(ctx, state, request, paid.Confirmation(report.say, io.ask, confirmed=options.yes))


def _loopback(settings: Settings) -> bool:
    return settings.simulated or is_loopback_host(urlsplit(settings.base_url).hostname or "")


def _summary(report: Report, seconds: float) -> None:
    counts = ", ".join(f"{report.count(v)} {v}" for v in ("OK", "DIFFERS", "SKIPPED", "NEW"))
    report.say(f"{counts} in {seconds:.1f} s")
