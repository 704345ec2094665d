"""The simulated API's refusals (`simulator/errors.py`): the documented envelope, its status and extra fields."""

from __future__ import annotations

from cursor_cloud_agents.simulator.errors import bad_request, conflict, integration_not_connected, not_found


def test_each_refusal_carries_its_status_and_the_documented_envelope() -> None:
    assert [
        error.status for error in (bad_request("x"), not_found("agent_not_found", "x"), conflict("agent_busy", "x"))
    ] == [
        400,
        404,
        409,
    ]
    assert bad_request("prompt.text is required").envelope() == {
        "error": {"code": "validation_error", "message": "prompt.text is required"}
    }


def test_an_unconnected_integration_names_its_provider_and_where_to_connect_it() -> None:
    envelope = integration_not_connected("github").envelope()["error"]
    assert envelope["code"] == "integration_not_connected" and envelope["provider"] == "github"
    assert envelope["helpUrl"].startswith("https://cursor.com/")
