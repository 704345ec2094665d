"""The delegation domain, shared by the faces (the MCP server, the person's commands, verify).

What decides what happens to the user's agents and money, whatever asked: creation and follow-up rules,
the models check, limits and slots, the store of paid acts, scans, waiting, activity, images, cleaning
of untrusted text, failures and time. It imports neither `mcp` nor `server` nor `terminal`; a face hands
it what it needs of a call (`core.call.Call`).

This is the front the faces use: they import what `__all__` names from `cursor_cloud_agents.core`, and
besides it only `core.call` (the protocol a face implements) and `core.timing` (every time and budget);
`tests/test_layering.py` holds it. What is not named here is the core's own business.

Each name loads on first use (PEP 562), from its module: a face that needs the store does not load the
fleet, the activity or the API client behind them, so the server answers `tools/list` before it loads the core
(a client pays a server's start-up at every launch).

The core is in rooms by subject: `spend/` (a paid act sent once, within the limits, with consent), `attempts/`
(several attempts at one task), `runs/` (waiting on runs, their streams, activity and the fleet), `review/` (an
agent's change brought home with git), `request/` (what a new agent is sent), `pr/` (an agent's pull request watched
to merge); at the root, what they all share: time, the call, failures, the face's state, the store of paid acts and
its acts, the cache and the cleaning of untrusted text."""

import typing as _typing

from cursor_cloud_agents import Front as _Front

# The typed imports below are the front's exports, each name written once: pyright reads them, `Front` reads
# them at run time (`__all__` and where each name loads from), so they are used though nothing here uses them.
# ruff: noqa: F401
# pyright: reportUnusedImport=false
if _typing.TYPE_CHECKING:
    from cursor_cloud_agents.core import failures
    from cursor_cloud_agents.core.acts import Act
    from cursor_cloud_agents.core.advice import Advice, Step
    from cursor_cloud_agents.core.attempts.attempts import (
        MAX_ATTEMPTS,
        MIN_ATTEMPTS,
        AttemptModel,
        AttemptSet,
        SetResult,
        create_attempts,
        plan_set,
        price_hint,
    )
    from cursor_cloud_agents.core.attempts.compare import AttemptRow, Comparison, Kept, compare_attempts, keep
    from cursor_cloud_agents.core.attempts.groups import (
        GROUP_PATTERN,
        AttemptPlace,
        checked_group_id,
        find_group,
        placements,
    )
    from cursor_cloud_agents.core.cache import Cache
    from cursor_cloud_agents.core.failures import Code, ToolFailure, from_api_error
    from cursor_cloud_agents.core.pr.control import read_watch, start_watch, stop_watch
    from cursor_cloud_agents.core.pr.decide import verdict
    from cursor_cloud_agents.core.pr.keeper import keep_watches
    from cursor_cloud_agents.core.pr.record import (
        WatchRecord,
        describe_watch,
        fresh_watch,
        load_watch,
        save_watch,
        watches,
        watches_kept,
    )
    from cursor_cloud_agents.core.pr.resolve import agent_and_pr, names_a_pr, pr_of, resolve_agent
    from cursor_cloud_agents.core.pr.watching import PrWatch, WatchCannotGoOn, keep_watching
    from cursor_cloud_agents.core.request import creation, images, models, texts
    from cursor_cloud_agents.core.request.builder import (
        AgentAsked,
        agent_request,
        check_before_opening,
        follow_up_request,
        new_agent_request,
        prompt_of,
        run_request,
    )
    from cursor_cloud_agents.core.request.creation import RepoInput
    from cursor_cloud_agents.core.request.images import MAX_IMAGES, Recognised, images_of, prompt_image
    from cursor_cloud_agents.core.request.models import REASONING_PARAMS
    from cursor_cloud_agents.core.review import checkout, refs, reviewed
    from cursor_cloud_agents.core.review.applying import (
        Applied,
        Mode,
        Plan,
        apply_change,
        carry_out,
        clone_place,
        plan_apply,
        ready_to_change,
    )
    from cursor_cloud_agents.core.review.changes import (
        MAX_DIFF_BYTES,
        AgentBranch,
        AgentChange,
        ChangeSize,
        Diff,
        DiffPage,
        FileChange,
        GitPlaces,
        Place,
        cache_dir_for,
        default_branch,
        diff,
        diff_page,
        measure,
        no_git,
        read_agent_change,
        read_change,
        read_target,
        stream_diff,
    )
    from cursor_cloud_agents.core.review.checks import CheckResult, CheckRules, not_configured, run_check
    from cursor_cloud_agents.core.review.git import (
        Git,
        GitError,
        branch_problem,
        git_environment,
        remotes,
        repository_key,
        toplevel,
        without_cursor,
    )
    from cursor_cloud_agents.core.runs import scan, seen
    from cursor_cloud_agents.core.runs.activity import ActivityCache, ActivitySummary, Replays, ToolState, event_time
    from cursor_cloud_agents.core.runs.ceiling import cancel_past_ceiling, keep_ceilings, sweep_ceilings
    from cursor_cloud_agents.core.runs.elapsed import end_line
    from cursor_cloud_agents.core.runs.fleet import Fleet, Query, Row
    from cursor_cloud_agents.core.runs.fleet_events import Event, Followed, follow_events, stamped
    from cursor_cloud_agents.core.runs.follow import Follower
    from cursor_cloud_agents.core.runs.liveness import STALE_AFTER_MINUTES, count_stuck, fold_liveness, is_stale
    from cursor_cloud_agents.core.runs.reading import AgentRead
    from cursor_cloud_agents.core.runs.scan import ScanPage
    from cursor_cloud_agents.core.runs.seen import mark_seen
    from cursor_cloud_agents.core.runs.tidy import Tidy, TidyPlan, archive_saved, plan_tidy
    from cursor_cloud_agents.core.runs.waiting import Pacer, with_progress
    from cursor_cloud_agents.core.runs.watch import (
        IN_FLIGHT,
        MAX_RUNS,
        REPLAYS_AT_ONCE,
        Until,
        Watched,
        each_in_flight,
        watch,
    )
    from cursor_cloud_agents.core.spend import consent, journal, queue
    from cursor_cloud_agents.core.spend.consent import how_to_allow
    from cursor_cloud_agents.core.spend.followups import busy, follow_up_within_limits
    from cursor_cloud_agents.core.spend.ledger import use_of
    from cursor_cloud_agents.core.spend.origins import acts_directory
    from cursor_cloud_agents.core.spend.paid import create_within_limits, store_failures
    from cursor_cloud_agents.core.spend.settling import settled
    from cursor_cloud_agents.core.spend.slots import SLOT_PAGE, TooManyAgents, read_listing
    from cursor_cloud_agents.core.state import ACTIVITY_ENTRIES, CoreState
    from cursor_cloud_agents.core.store import Store, StoreUnusable
    from cursor_cloud_agents.core.untrusted import CLIP_CHARS, clean, clean_data, clip, strip_hidden

_front = _Front(__name__, __file__, globals())
"""The names above, each loaded from its module when first asked for; `__all__` is derived from them."""


def __getattr__(name: str) -> _typing.Any:
    """A name of the front, imported from its module when first asked for (PEP 562)."""
    return _front.load(name)
