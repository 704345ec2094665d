"""`Status` (`sdk/_status.py`): Cursor's SDK's lowercase words, still equal to the API's uppercase ones."""

from __future__ import annotations

import json
import pickle

from cursor_cloud_agents.sdk import Agent, Cursor, Status


def test_a_status_is_lowercase_and_equal_to_both_spellings_k_44() -> None:
    """K-44: `result.status == "finished"` holds as in Cursor's SDK, and `== "FINISHED"` still holds for programs
    written for this SDK; it prints, serialises and hashes as the lowercase word."""
    finished = Status("FINISHED")
    assert finished == "finished" and finished == "FINISHED" and "FINISHED" == finished  # both sides
    assert not (finished != "finished") and finished != "error"
    assert finished in ("error", "finished") and finished in {"finished"}
    assert (str(finished), repr(finished), json.dumps(finished)) == ("finished", "'finished'", '"finished"')
    assert pickle.loads(pickle.dumps(finished)) == "FINISHED"
    match finished:
        case "finished":
            matched = True
        case _:
            matched = False
    assert matched


def test_a_creating_run_reads_running_as_in_cursors_sdk_and_creating_as_the_api_says_k_44() -> None:
    creating = Status("CREATING")
    assert (creating == "running", creating == "CREATING", creating == "RUNNING", str(creating)) == (
        True,
        True,
        True,
        "running",
    )
    assert Status("SOMETHING_NEW") == "something_new"  # a status newer than this SDK, lowercased


def test_results_runs_and_stream_messages_carry_the_lowercase_status_k_44() -> None:
    with Cursor(simulated=True) as cursor:
        run = Agent.create(client=cursor).send("Work")
        assert run.status in ("running",)
        statuses = [message.status for message in run.stream() if message.type == "status"]
        result = run.wait()
    assert result.status == "finished" and result.finished and str(result.status) == "finished"
    assert [str(status) for status in statuses] == ["running", "finished"]
