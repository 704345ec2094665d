"""The account answer: who the API key belongs to, and what this server is allowed to do."""

from __future__ import annotations

from cursor_cloud_agents.api import Me
from cursor_cloud_agents.config import Settings
from cursor_cloud_agents.server.views.view import View


class KeyView(View):
    """The API key: its name, when it was made, and its user (service-account keys have none)."""

    name: str | None
    created_at: str | None
    user_email: str | None
    user_name: str | None

    @classmethod
    def of(cls, me: Me) -> KeyView:
        user_name = " ".join(part for part in (me.user_first_name, me.user_last_name) if part) or None
        return cls(name=me.api_key_name, created_at=me.created_at, user_email=me.user_email, user_name=user_name)


class ServerView(View):
    """What this server's settings allow (the names of forwardable variables, never their values)."""

    writes: bool
    delete: bool
    forward_env: list[str]
    simulated: bool | None

    @classmethod
    def of(cls, settings: Settings) -> ServerView:
        return cls(
            writes=settings.allow_writes,
            delete=settings.allow_delete,
            forward_env=sorted(settings.forward_env),
            simulated=settings.simulated or None,
        )


class LimitView(View):
    """A limit the user set (None: not set), how much of it is used in its window, and when the oldest use
    leaves it; `unknown` counts agents whose cost Cursor has not reported yet."""

    variable: str
    limit: float | None
    used: float | None
    window_hours: int | None
    frees_at: str | None
    unknown: int | None
    note: str | None

    @classmethod
    def current(cls, variable: str, limit: float, *, used: float) -> LimitView:
        """A limit on what is happening now: no window, nothing to free."""
        return cls(variable=variable, limit=limit, used=used, window_hours=None, frees_at=None, unknown=None, note=None)

    @classmethod
    def unchecked(cls, variable: str, limit: float | None, note: str) -> LimitView:
        """A limit not set, or one whose use cannot be read: the note says which."""
        return cls(variable=variable, limit=limit, used=None, window_hours=None, frees_at=None, unknown=None, note=note)


class AccountView(View):
    """The answer of `cursor_get_account`."""

    key: KeyView
    server: ServerView
    limits: list[LimitView]

    @classmethod
    def of(cls, me: Me, settings: Settings, limits: list[LimitView]) -> AccountView:
        return cls(key=KeyView.of(me), server=ServerView.of(settings), limits=limits)
