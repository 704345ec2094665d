"""A living simulator of the Cursor Cloud Agents API v1, for tests, the demo and `simulate`.

It speaks the wire format of docs/api-contract.md on its own (it imports nothing from `api` or `server`).
Typical test use::

    clock = ManualClock()
    world = World(clock)
    async with serve(world) as sim:          # sim.base_url -> "http://127.0.0.1:<port>"
        ...                                  # point a client at sim.base_url with SIMULATED_API_KEY
        clock.advance(30)                    # runs and live streams move on

Scripts: `world.default_script = RunScript(...)` or `world.queue_script(RunScript(outcome="ERROR"))`.
Faults: `faults.inject("GET", "/v1/agents/{id}", Fault.server_error(503), times=2)`.
"""

from .app import build_app
from .clock import ManualClock, RealClock, WorldClock
from .errors import ApiError
from .faults import Fault, FaultRule, Faults, RequestRecord
from .quirks import Quirks
from .records import AgentRecord, ApiKey, ArtifactRecord, RunRecord
from .replay import Trace, TraceError, build_replay_app, load_trace
from .scenarios import NAMES as SCENARIOS
from .scenarios import build as build_scenario
from .scenarios import seed_replay_run
from .script import ArtifactSpec, BackgroundTaskScript, RunScript, ScriptedToolCall, ScriptedUsage, script_from_prompt
from .serving import RunningSimulator, run_simulator, serve, serve_replay
from .world import REPOSITORY_SCOPED_KEY, SERVICE_ACCOUNT_KEY, SIMULATED_API_KEY, UNSUPPORTED_KEY, World

__all__ = [
    "REPOSITORY_SCOPED_KEY",
    "SCENARIOS",
    "SERVICE_ACCOUNT_KEY",
    "SIMULATED_API_KEY",
    "UNSUPPORTED_KEY",
    "AgentRecord",
    "ApiError",
    "ApiKey",
    "ArtifactRecord",
    "ArtifactSpec",
    "BackgroundTaskScript",
    "WorldClock",
    "Fault",
    "FaultRule",
    "Faults",
    "ManualClock",
    "Quirks",
    "RealClock",
    "RequestRecord",
    "RunRecord",
    "RunScript",
    "RunningSimulator",
    "ScriptedToolCall",
    "Trace",
    "TraceError",
    "ScriptedUsage",
    "World",
    "build_app",
    "build_replay_app",
    "build_scenario",
    "load_trace",
    "run_simulator",
    "script_from_prompt",
    "seed_replay_run",
    "serve",
    "serve_replay",
]
