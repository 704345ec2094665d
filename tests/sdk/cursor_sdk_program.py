# ruff: noqa: T201 -- a program's printed lines are what the test reads
# pyright: basic, reportMissingImports=false
"""A program written for Cursor's Python SDK (`cursor-sdk` 1.1.0), in its call shapes and nothing else.

It is the acceptance of docs/sdk.md's promise that such code runs here with only its import line changed:
`tests/sdk/test_cursor_sdk_program.py` rewrites the one `from cursor_sdk import ...` line and runs the result in a
process of its own against a hand-made API on loopback. Everything below the import is as a Cursor SDK user writes
it: the options as one mapping (positional), `model` as a mapping and as a `ModelSelection`, a message as
`{"text": ...}`, lowercase statuses, `run.text()`, the stream's content blocks and `run.iter_text()`, the static
`Cursor` namespace and the error classes.

It reads `CURSOR_API_KEY` from the environment, as Cursor's SDK's programs do, and prints what it did, one line a
step; it exits 0 when every step went as Cursor's SDK documents it.
"""

import os
import sys

from cursor_sdk import (
    Agent,
    AgentBusyError,
    AgentNotFoundError,
    AuthenticationError,
    Cursor,
    CursorAgentError,
    ModelSelection,
)

REPOSITORY = "https://github.com/acme/widgets"


def main() -> int:
    api_key = os.environ["CURSOR_API_KEY"]

    models = Cursor.models.list()
    print("models:", ", ".join(model.id for model in models))

    options = {
        "model": {"id": "composer-2"},
        "name": "Tidy the README",
        "api_key": api_key,
        "cloud": {"repos": [{"url": REPOSITORY, "startingRef": "main"}]},
    }
    agent = Agent.create(options)
    run = agent.send({"text": "Fix the typos in README.md"})

    try:
        agent.send("And add a table of contents")
    except AgentBusyError as busy:
        print("busy:", busy.message)

    result = run.wait()
    if result.status != "finished":
        print("unexpected status:", result.status)
        return 1
    print("finished:", result.result)
    print("text:", run.text())
    streamed = []
    for message in run.stream():
        if message.type == "assistant":
            streamed.extend(block.text for block in message.message.content if block.type == "text")
    print("streamed:", "".join(streamed), "|", "".join(run.iter_text()))

    follow_up = agent.send("Now add a table of contents", {"model": ModelSelection(id="composer-2")})
    print("follow-up:", follow_up.wait().status)

    one_shot = Agent.prompt("Summarise what this repository does", {"model": "composer-2", "api_key": api_key})
    print("prompt:", one_shot.status, one_shot.result)

    try:
        Agent.get("bc-00000000-0000-4000-8000-000000000000")
    except AgentNotFoundError as missing:
        print("not found:", type(missing).__name__)

    try:
        Cursor.me(api_key="key_wrong_0123456789abcdef")
    except AuthenticationError as refused:
        print("refused:", type(refused).__name__, isinstance(refused, CursorAgentError))
    return 0


if __name__ == "__main__":
    sys.exit(main())
