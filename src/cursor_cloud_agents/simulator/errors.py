"""The simulator's one error type: an HTTP status plus the v1 error envelope it is rendered into."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class ApiError(Exception):
    """A refusal the simulated API answers with `{"error": {"code", "message"}}` and a status."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        *,
        headers: Mapping[str, str] | None = None,
        extra: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.headers: dict[str, str] = dict(headers or {})
        self.extra: dict[str, str] = dict(extra or {})
        """Fields some codes add inside the envelope (`helpUrl`, `provider`)."""

    def envelope(self) -> dict[str, Any]:
        """The documented error body (docs/api-contract.md §1 "Error envelope")."""
        return {"error": {"code": self.code, "message": self.message, **self.extra}}


def bad_request(message: str, code: str = "validation_error") -> ApiError:
    """A 400; `validation_error` unless a more precise documented code applies."""
    return ApiError(400, code, message)


def not_found(code: str, message: str) -> ApiError:
    """A 404 with one of the documented codes (`agent_not_found`, `run_not_found`, ...)."""
    return ApiError(404, code, message)


def conflict(code: str, message: str) -> ApiError:
    """A 409 (`agent_busy`, `agent_archived`, `agent_id_conflict`, `run_not_cancellable`)."""
    return ApiError(409, code, message)


def forbidden(code: str, message: str) -> ApiError:
    """A 403 (`feature_unavailable`, `role_forbidden`, ...)."""
    return ApiError(403, code, message)


def integration_not_connected(provider: str) -> ApiError:
    """400 `integration_not_connected` with `helpUrl` and `provider` (docs/api-contract.md §1, §3.3, §3.6; status L)."""
    return ApiError(
        400,
        "integration_not_connected",
        f"The {provider} integration is not connected for this account",
        extra={"helpUrl": "https://cursor.com/dashboard?tab=integrations", "provider": provider},
    )
