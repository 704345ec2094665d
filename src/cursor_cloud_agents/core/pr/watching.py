"""A PR watch at work: look at GitHub and at the agent, decide (`decide.py`), then send the one fix through
the one door for a paid follow-up (`core.followups.follow_up_within_limits`: the spend limit, never paid twice)
or through the follow-up queue behind the watch's own running run (`core.queue`).

The record is written before a fix is sent (pending, counted) and after (its run), so a process killed
between the two sends the same prompt again through the door, which reads the agent first and answers the
run the lost POST made. Starting a watch is the person's consent to its fixes, up to `max_fixes`.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace

from cursor_cloud_agents.api import (
    APIConnectionError,
    APIStatusError,
    AuthenticationError,
    CursorError,
    MutationOutcomeUnknownError,
    NotFoundError,
    PermissionDeniedError,
    UsageLimitExceededError,
)
from cursor_cloud_agents.core.failures import Code, ToolFailure
from cursor_cloud_agents.core.pr.decide import Event, JudgedComment, PrSeen, decide, event
from cursor_cloud_agents.core.pr.record import Pending, WatchRecord, load_watch, save_watch, with_told
from cursor_cloud_agents.core.request.builder import follow_up_request
from cursor_cloud_agents.core.spend import queue
from cursor_cloud_agents.core.spend.continuation import refuse_continuation
from cursor_cloud_agents.core.spend.followups import follow_up_within_limits
from cursor_cloud_agents.core.state import CoreState
from cursor_cloud_agents.github import (
    Comment,
    GitHubAccessRefused,
    GitHubError,
    GitHubNotFound,
    GitHubRateLimited,
    GitHubReader,
    PullRef,
    PullRequest,
)

logger = logging.getLogger("cursor_cloud_agents.pr")

HOLD_SECONDS = 120.0
"""A process's hold on a watch lasts this long past its interval: one that died lets go within it."""
RETRY_LATER = frozenset({Code.AGENT_BUSY, "FOLLOWUP_IN_FLIGHT"})
"""Refusals after which the same fix is tried again at the next look (nothing was sent)."""
FAILED_LOOK_PAUSES = (1.0, 2.0, 4.0, 8.0, 16.0, 30.0, 60.0)
"""Pauses (besides the interval) after looks that failed in a row, the last one repeated."""

Emit = Callable[[Event], Awaitable[None]]


class WatchCannotGoOn(Exception):
    """The PR or the agent can no longer be read (access withdrawn, deleted): the watch ends unfinished."""


@dataclass
class PrWatch:
    """One agent's PR, watched by this process."""

    state: CoreState
    github: GitHubReader
    ref: PullRef
    record: WatchRecord
    trusted_logins: frozenset[str] = frozenset()
    writers: dict[str, bool] = field(default_factory=dict[str, bool])
    """Logins whose write access was read (once per watch)."""
    holder: str | None = None
    """This process's name on the watch while it looks (`core/pr/keeper.py`): a keeper elsewhere lets it be."""

    async def look(self) -> PrSeen:
        pull = await self.github.pull(self.ref)
        ended = pull.merged or pull.state == "closed"
        checks = [] if ended or not pull.head_sha else await self.github.checks(self.ref, pull.head_sha)
        comments = [] if ended else await self.github.comments(self.ref)
        judged = [await self._judge(comment, pull) for comment in comments]
        agent = await self.state.api.get_agent(self.record.agent_id)
        run_id = agent.latest_run_id
        active = False
        if run_id is not None and not ended:
            active = not (await self.state.api.get_run(agent.id, run_id)).is_terminal
        return PrSeen(pull, checks, judged, run_id, active)

    async def _judge(self, comment: Comment, pull: PullRequest) -> JudgedComment:
        """Whether `comment`'s author is trusted; only new comments' authors are looked up."""
        author = comment.author
        if comment.key in self.record.seen or not self.record.started:
            return JudgedComment(comment, False, "seen")
        if author.bot:
            return JudgedComment(comment, False, "bot")
        if author.login.lower() == pull.author.login.lower():
            return JudgedComment(comment, False, "pr_author")  # the agent pushes and writes as the PR's author
        if author.login.lower() in self.trusted_logins:
            return JudgedComment(comment, True)
        if author.login not in self.writers:
            self.writers[author.login] = await self.github.can_write(self.ref, author.login)
        return (
            JudgedComment(comment, True)
            if self.writers[author.login]
            else JudgedComment(comment, False, "no_write_access")
        )

    async def tick(self) -> list[Event]:
        """One look, its decision, and the fix it calls for, sent; the events to tell.

        Raises:
            GitHubError, CursorError: the look failed (nothing was decided or sent).
        """
        await self._reload()
        events = await self._queue_news()
        seen = await self.look()
        decision = decide(self.record, seen)
        await self._keep(decision.record)
        events += decision.events
        if decision.send is not None:
            events.append(await self._send(decision.send, seen))
        if events:  # kept in the record: `events` in another process tells them too
            await self._keep(with_told(self.record, events))
        return events

    async def _reload(self) -> None:
        """The record as the store holds it now (another process may have looked meanwhile), held by this one."""
        now = self.state.clock.now()
        kept = await load_watch(self.state.store, self.record.agent_id, now)
        if kept is not None and kept.pr == self.record.pr:
            self.record = kept
        if self.holder is not None:
            until = now + self.record.interval + HOLD_SECONDS
            self.record = replace(self.record, holder=self.holder, held_until=until, looked_at=now)

    async def _keep(self, record: WatchRecord) -> None:
        self.record = record
        await save_watch(self.state.store, record, self.state.clock.now())

    async def _queue_news(self) -> list[Event]:
        """Send the queued follow-ups whose run ended; a fix the watch queued that went out is its run now."""
        events: list[Event] = []
        for news in await queue.send_due(self.state):
            if news.act.id not in self.record.queued:
                continue
            if news.run is not None:
                await self._keep(replace(self.record, runs=(*self.record.runs, news.run.id)))
            name = "fix_sent" if news.outcome == "sent" else "fix_skipped"
            fields = {"run_id": news.run.id} if news.run else {"reason": f"queued_{news.outcome}", "note": news.note}
            events.append(event(self.record, name, "", queue_id=news.act.id, **fields))
        return events

    async def _send(self, fix: Pending, seen: PrSeen) -> Event:
        trigger = fix.key.split(":")[0]
        request = follow_up_request(fix.prompt)  # the one builder: the rules for text sent upstream
        try:
            agent = await self.state.api.get_agent(self.record.agent_id)
            refuse_continuation(agent)  # as every follow-up: archived, or a record that does not prove it safe
            if fix.via == "queue" and seen.run_id is not None:
                act = await queue.enqueue(self.state, agent, request, seen.run_id)
                await self._keep(replace(self.record, pending=None, queued=(*self.record.queued, act.id)))
                return event(self.record, "fix_sent", fix.commit, trigger=trigger, queued=True, queue_id=act.id)
            made = await follow_up_within_limits(self.state, agent, request)
        except MutationOutcomeUnknownError:
            # Stays pending: the next look sends the same prompt through the door, which reads the agent first.
            return event(self.record, "fix_skipped", fix.commit, reason="outcome_unknown", trigger=trigger)
        except (ToolFailure, CursorError) as refused:
            failure = refused if isinstance(refused, ToolFailure) else None
            code = failure.code if failure is not None else type(refused).__name__
            if (
                _passing(refused)
                or code in RETRY_LATER
                or (failure is not None and "already queued" in failure.message)
            ):
                return event(self.record, "fix_skipped", fix.commit, reason="retry_later", trigger=trigger, code=code)
            # Refused, nothing sent (the spend limit, the agent archived): the fix is given back, not tried again.
            await self._keep(replace(self.record, pending=None, fixes=self.record.fixes - 1))
            message = failure.message if failure is not None else str(refused)
            return event(self.record, "fix_skipped", fix.commit, reason="refused", code=code, note=message[:300])
        await self._keep(replace(self.record, pending=None, runs=(*self.record.runs, made.run.id)))
        return event(
            self.record,
            "fix_sent",
            fix.commit,
            trigger=trigger,
            run_id=made.run.id,
            fixes=self.record.fixes,
            resumed=made.resumed,
        )


async def keep_watching(
    watch: PrWatch,
    emit: Emit,
    interval: float,
    *,
    say: Callable[[str], None] = lambda _line: None,
) -> str:
    """Look every `interval` seconds (on the state's clock) and tell each event, until the PR is merged or
    closed; how it ended. A look that fails for a while (GitHub or Cursor down, a rate limit) is said and
    tried again later; what cannot go on (access withdrawn, the PR gone) raises.

    Raises:
        WatchCannotGoOn: the PR or the agent can no longer be read.
    """
    clock = watch.state.clock
    failed = 0
    while True:
        pause = interval
        try:
            for item in await watch.tick():
                await emit(item)
            failed = 0
        except GitHubRateLimited as limited:
            say(str(limited))
            pause = max(interval, limited.wait_seconds)
        except (GitHubError, CursorError) as exc:
            if lasting(exc):
                raise WatchCannotGoOn(str(exc)) from None
            pause = interval + FAILED_LOOK_PAUSES[min(failed, len(FAILED_LOOK_PAUSES) - 1)]
            failed += 1
            say(f"could not look at the PR ({exc}); looking again in {pause:g} s")
        if watch.record.ended is not None:
            return watch.record.ended
        await clock.sleep(pause)


def _passing(exc: ToolFailure | CursorError) -> bool:
    """A failure that says nothing about this fix (no answer, a 5xx, a rate limit that passes): tried again."""
    if isinstance(exc, UsageLimitExceededError):
        return False  # waiting will not help: the account's included usage is spent
    if isinstance(exc, APIStatusError):
        return exc.status_code >= 500 or exc.status_code == 429
    return isinstance(exc, APIConnectionError)


def lasting(exc: GitHubError | CursorError) -> bool:
    """A failure that looking again will not mend: access refused, or the PR or the agent gone."""
    lasting = (GitHubAccessRefused, GitHubNotFound, NotFoundError, AuthenticationError, PermissionDeniedError)
    return isinstance(exc, lasting)
