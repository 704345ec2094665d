"""How each model of the simulator's catalogue works: its own pace, price, change and result (issue 46).

Best of N is a choice only when the attempts differ. Given the same task, a run on a named model follows the
world's default script reshaped by the model's persona: how long it runs (a factor of the default), what it
costs, which named change it pushes (`changes.CHANGES`) and how its result begins. One persona's change breaks
the project's tests (`failing`), so a check command tells the attempts apart as well as their sizes do.
A script queued by a test, or a change named by a prompt marker, is left as it was given: the persona only
reshapes the default.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from .script import RunScript


@dataclass(frozen=True)
class Persona:
    """How runs on one model differ from the default script."""

    pace: float
    """The default running time times this."""
    cost_cents: tuple[float, float]
    """(rawCostCents, chargedCents) of each run."""
    change: str
    """The named change its finished run pushes."""
    result: str


PERSONAS: dict[str, Persona] = {
    "composer-2": Persona(0.5, (5.8, 6.3), "lean", "Done: added farewell() with its test; nothing else touched."),
    "gpt-5.2": Persona(1.5, (31.2, 33.9), "small", "Done: farewell() with a test, and the README's setup section."),
    "claude-4.6-sonnet-thinking": Persona(
        1.0, (17.5, 19.0), "failing", "Done: the greeting is shorter now (Hi, not Hello); tests not run."
    ),
    "claude-4.6-opus": Persona(
        2.0, (48.0, 52.1), "many-files", "Done: a plugin system of 40 modules, farewell(), and the setup guide."
    ),
}
"""The catalogue's models (`catalog.py`) by id; `default` (Cursor picks) and unknown ids keep the default."""


def shaped_by_model(script: RunScript, model: dict[str, Any] | None) -> RunScript:
    """`script` as the run's model would play it (unchanged without a model, or for one without a persona)."""
    persona = PERSONAS.get(str((model or {}).get("id")))
    if persona is None:
        return script
    return replace(
        script,
        running_seconds=script.running_seconds * persona.pace,
        cost_cents=persona.cost_cents if script.cost_cents is not None else None,
        change=persona.change if script.change is not None else None,
        result=persona.result,
    )
