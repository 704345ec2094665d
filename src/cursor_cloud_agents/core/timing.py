"""Time inside a tool call: its deadline, the clock it reads and pauses on, and every cadence and reserve.

The deadline is the API client's own value (`api.Deadline`, on anyio's clock), so a tool and the
requests it makes count down together. The clock is the wall clock a tool reads for elapsed time and
pauses on between re-reads; tests hand in the simulator's manual clock, so waits cost no real time.
Each cadence and reserve is named once here, with what it is for.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TypeVar

import anyio

from cursor_cloud_agents.api import Deadline
from cursor_cloud_agents.api.deadline import CREATE_CAP_SECONDS, REPOSITORIES_CAP_SECONDS

T = TypeVar("T")

PROGRESS_SECONDS = 5.0
"""A wait reports MCP progress at least this often (docs/architecture.md, the tool contract)."""
WAIT_POLL_SECONDS = 2.5
"""A run being waited for is re-read this often: its end is noticed within 3 s, and 20 runs read at this
pace stay under the client's 10 requests per second."""
STREAM_RESUMES = 3
"""A run's stream listened to for its end that breaks is resumed this many times, then the run is only read."""
HEARD_REREAD_SECONDS = 0.25
"""A run whose stream told its end but which does not read as ended yet is read again this soon."""
HEARD_REREADS = 8
"""How many times such a run is read again so soon (2 s in all) before it goes back to the cadence."""
REPLAY_QUIET_SECONDS = 0.3
"""A running run's replay arrives as one burst: this long a silence after it is taken as its end (marked
inferred), instead of waiting 30-36 s for the first heartbeat. Never taken as the end of the run."""
REPLAY_LISTEN_SECONDS = 1.5
"""A replay that went quiet on an event older than the stale threshold is listened to until the silence
lasts this long before the run is called stale: a burst can pause inside (the longest pause measured in a
real replay was 1.3 s), and the proof, the first heartbeat, comes only 30-36 s after connecting (both in
docs/api-contract.md §3.11). 0.2 s past that pause, for a loaded machine's jitter."""
SLOTS_SECONDS = 30.0
"""The agents of the key are read once per 30 s for the slot check (a burst of creations reads once)."""
USAGE_SECONDS = 60.0
"""An agent's usage is read at most once a minute for the spend limit."""
STUCK_READ_SECONDS = 10.0
"""How long a status refresh may spend judging its running runs stuck or not: the replays, 8 read at once, and
the listen past a pause (REPLAY_LISTEN_SECONDS) for those quiet on an old event; about 7 s for 100 runs quiet
for hours (bench/stale.py), 2 s for a few. A run not judged in that time is not counted stuck
(`core.liveness.count_stuck`)."""
STUCK_READ_GRACE_SECONDS = 2.0
"""How long past that deadline `count_stuck` waits for the walks to say they were cut before giving up on all."""
CANCEL_POLL_SECONDS = 2.0
"""After a cancel, the run is re-read this often until it ends (cancelling is asynchronous: quirk 12)."""
CANCEL_REREADS = 4
"""How many re-reads a cancel answer waits for before it says what it saw."""
ANSWER_RESERVE = 0.5
"""Kept at the end of every call to build and send the answer."""
READ_RESERVE = 8.0
"""Kept after a wait for the last read of the run and the answer."""
ACTIVITY_RESERVE = 20.0
"""Kept after a wait when the activity summary follows (its replay walk needs time)."""
SEND_RESERVE = 8.0
"""Kept before a follow-up POST: the client sends no mutation with under 5 s left, plus one re-read."""

# Windows of the store of paid acts (core/store.py) and the rules on top of it.
CREATION_WINDOW_SECONDS = 24 * 3600.0
"""`CURSOR_MCP_MAX_NEW_AGENTS` counts the creations of a rolling 24 hours."""
UNSETTLED_SECONDS = 600.0
"""How long a paid act whose answer never came is remembered as unresolved: a retry comes within minutes."""
UNRESOLVED_FOLLOWUP_SECONDS = 24 * 3600.0
"""How long a follow-up whose answer never came is remembered: its run may work for hours, and the model
asks again once it thinks the run has ended; the agent's latest run then tells whether that POST made one."""
API_CREATION_SECONDS = 2 * CREATE_CAP_SECONDS
"""How long Cursor may still be creating an agent (or a follow-up's run) after its POST left: two of the
POST's own caps, its wait and as long again for Cursor to finish what it accepted (a real create took over
40 s: docs/api-contract.md quirk 16). Inside it, an act not seen yet may still land; after it, not seen
means not made."""
NAME_MATCH_SLACK_SECONDS = 120.0
"""An agent found by name counts as a lost creation only if it was created this close to the attempt."""
FUTURE_SLACK_SECONDS = 300.0
"""A stored act dated further ahead of the clock than this is impossibly dated: counted as made now."""
QUEUED_FOLLOWUP_SECONDS = 12 * 3600.0
"""A follow-up queued for a busy agent that was not sent within this time expires with a note: a prompt
written half a day ago for work that was going on then is no longer what the person would send."""
QUEUE_STORE_SECONDS = 5.0
"""A process keeping the queue reads the store this often for follow-ups queued by other processes."""
KEPT_SECONDS = {
    "queued": CREATION_WINDOW_SECONDS,
    "create": CREATION_WINDOW_SECONDS + 3600.0,
    "followup": CREATION_WINDOW_SECONDS,
    "task": CREATION_WINDOW_SECONDS,
    "seen": 7 * 24 * 3600.0,
    "watch": 30 * 24 * 3600.0,
}
"""How long a rewrite of the store keeps each kind of act: as long as a rule reads it (the creation count
reads a day, with an hour of margin for clocks; an ended run the user was shown stays shown for a week)."""
GROUP_KEPT_SECONDS = 7 * 24 * 3600.0
"""How long the creations of a set of attempts are kept: they are the group that `compare` and `keep` read back,
and a person may come back to compare a set days later."""


@dataclass(frozen=True)
class Clock:
    """Wall-clock seconds and pauses as tools see them (tests: the simulator's manual clock)."""

    now: Callable[[], float] = time.time
    sleep: Callable[[float], Awaitable[None]] = anyio.sleep


@dataclass(frozen=True)
class CallTime:
    """The time of one call: its deadline and its clock."""

    deadline: Deadline
    clock: Clock = field(default_factory=Clock)

    def now(self) -> float:
        """The clock's time, in epoch seconds."""
        return self.clock.now()

    def fits(self, seconds: float, reserve: float = 0.0) -> bool:
        """Whether `seconds` more still leave `reserve` before the deadline."""
        return self.deadline.fits(seconds, reserve)

    def left(self, wanted: float, reserve: float = ANSWER_RESERVE) -> float:
        """`wanted`, shortened to what the deadline leaves once `reserve` is kept for the answer."""
        return self.deadline.cap(wanted, reserve)

    async def pause(self, seconds: float) -> None:
        """Wait `seconds` on the call's clock (between two re-reads)."""
        await self.clock.sleep(seconds)

    async def poll(
        self,
        seen: T,
        read: Callable[[], Awaitable[T]],
        ended: Callable[[T], bool],
        report: Callable[[T, float], Awaitable[None]],
        *,
        every: float,
        within: float,
        reserve: float,
    ) -> tuple[T, bool]:
        """Re-read `every` seconds until `ended`, for at most `within` seconds and while the deadline keeps
        `reserve`; the last value read, and whether it ended. `report` hears each value and the time waited."""
        started = self.now()
        await report(seen, 0.0)
        while not ended(seen):
            pause = min(every, within - (self.now() - started))
            if pause <= 0 or not self.fits(pause, reserve):
                return seen, False
            await self.pause(pause)
            seen = await read()
            await report(seen, self.now() - started)
        return seen, True


# Budgets of the calls that wait longest: each derived from the client's cap of its one slow request.
ANSWER_MARGIN_SECONDS = 5.0
"""What a slow call keeps past its slow request's cap: one read back (a created agent, a run) and the answer."""
CREATE_BUDGET_SECONDS = CREATE_CAP_SECONDS + ANSWER_MARGIN_SECONDS
"""A creation's whole call: the POST's cap and the margin (the toolkit caps it at CURSOR_MCP_MAX_CALL_SECONDS)."""
FOLLOWUP_BUDGET_SECONDS = CREATE_BUDGET_SECONDS
"""A follow-up's whole call: a run's POST is answered as slowly as a creation's, after a cancel's re-reads."""
REPOSITORIES_BUDGET_SECONDS = REPOSITORIES_CAP_SECONDS + ANSWER_MARGIN_SECONDS
"""`cursor_list_repositories`' whole call: the slow listing's cap and the margin."""
EXCERPT_SECONDS = 20
"""A stream read for an excerpt listens at most this long before answering with what arrived."""
TAIL_SECONDS = 45
"""A walk to the tail of a long stream may take this long (a replay is read at about 150 MB/s)."""
MAX_WAIT_SECONDS = 50
"""The longest wait of one call: inside every client's limit with the reads around it (55 s by default)."""
WAIT_MARGIN_SECONDS = 15.0
"""A waiting call's budget past its wait (`cursor_wait`, `cursor_get_run`): the reads before and after it."""
ACTIVITY_WALK_SECONDS = 30.0
"""What `cursor_get_run` adds to its budget when it walks the run's replay for its activity."""
CANCEL_BUDGET_SECONDS = 30.0
"""`cursor_cancel_run`'s whole call: the cancel, the question if asked, and the re-reads of the run."""
SUPERVISE_SECONDS = 45.0
"""`cursor_supervise`'s whole call reading statuses only."""
SUPERVISE_ACTIVITY_SECONDS = 90.0
"""`cursor_supervise`'s whole call when it also walks each run's replay for its activity."""
STREAM_READ_MARGIN_SECONDS = 2.0
"""What `cursor_read_run_events` keeps past its read: to close the stream and answer."""

# What the server keeps, and for how long.
MODELS_SECONDS = 600.0
"""The model list is read again after ten minutes (it changes with Cursor's releases, not per call)."""
ARTIFACT_TEXT_SECONDS = 300.0
"""The last few artifact texts read are kept five minutes (a presigned link lasts 15), so a text read
page by page is downloaded once, and its pages are cut from one copy."""
DIFF_TEXT_SECONDS = 600.0
"""An agent's diff, prepared for answers, is kept ten minutes: read page by page, it is made once (a commit's diff
never changes, so the time only bounds the memory held for a model that stopped reading)."""
SEALED_QUESTION_SECONDS = 600.0
"""How long a sealed question stays answerable: the person may take a while, not forever."""
FINISHED_TASK_SECONDS = 3600.0
"""How long a finished task stays readable after it ended (also bounded by the number kept)."""

# The call's own clock: its hard stop, its questions, its silences.
WARM_UP_AFTER_LIST_SECONDS = 0.2
"""After the first `tools/list` is answered, the server makes its toolkit and reads the store this much later,
in the background: start-up stays at the SDK's floor (nothing but the listing loads before the answer leaves),
the client's first call finds everything made, and what the state directory could not give is said on stderr
right after start-up rather than at the first call."""
HARD_STOP_GRACE = 1.5
"""Past the deadline the API client sees, the hard stop waits this much longer, so that the client's
own timeout (which knows whether a mutation was sent) fires first."""
ASK_RESERVE = 2.0
"""Kept back from a question's wait, to answer `DECLINED` before the call's own deadline."""
HEARTBEAT_SECONDS = 15.0
"""Real seconds without progress after which a call reports that it is still working (under OpenCode's 60 s
clock, which progress resets, with room for a slow pipe)."""

# The commands' clocks.
DOCTOR_CALL_SECONDS = 20.0
"""`doctor`'s one read of the API: long enough for a slow network, short enough to say it is down."""
LONG_IDLE_SECONDS = 600.0
"""An active run whose decided replay showed nothing for this long is stuck (`liveness.is_stale`)."""
ERROR_WINDOW_SECONDS = 24 * 3600.0
"""Runs that ended in error this recently stay on the dashboard."""
EVENTS_LOOK_SECONDS = 10.0
"""`events` reads the agents it follows this often (new runs, PRs, an end whose stream was given up): one
listing and one read per changed agent, well under the client's rate; an end is told sooner, from its stream."""
STUCK_LOOK_SECONDS = 300.0
"""`events` judges its running runs stuck or not this often (each judgement walks their replays)."""
WATCH_RECONNECT_SECONDS = (1.0, 2.0, 4.0, 8.0, 16.0, 30.0)
"""The pause before each reconnection of `watch` in a row; after the last, following gives up."""
GIT_SECONDS = 300.0
"""The longest one git command may take (a fetch of a large branch over a slow link), then it is stopped."""
VERIFY_STREAM_SECONDS = 30.0
"""`verify` reads a stream this long at most: a heartbeat comes within 30–36 s."""
VERIFY_CLOSE_SECONDS = 5.0
"""`verify` gives a stream this long to close after it asked for the end."""

# The SDK face's clocks.
SETTLE_SECONDS = 5.0
"""A paid act whose answer was lost is asked again this often (re-sending its id, or reading the agent) until it
is settled, within API_CREATION_SECONDS of the first ask."""
RUN_POLL_SECONDS = WAIT_POLL_SECONDS
"""`run.wait()` re-reads the run this often until it ends."""
