"""A scripted fake of three model APIs, on loopback, that logs every request body it receives.

    fake_model.py --script SCRIPT.json --log REQUESTS.jsonl [--port 0]

It prints `listening on http://127.0.0.1:PORT` on its first line, then serves:
- `POST /v1/messages` (Anthropic Messages, SSE when `"stream": true`; Claude Code, OpenCode's anthropic
  provider) and `POST /v1/messages/count_tokens`;
- `POST /v1/responses` (OpenAI Responses, SSE; Codex with a custom `wire_api = "responses"` provider);
- `POST /v1/chat/completions` (OpenAI Chat Completions, SSE; any openai-compatible provider);
- `POST /v1beta/models/MODEL:streamGenerateContent` and `:generateContent` (Gemini, SSE with `alt=sse`; Gemini
  CLI with `GOOGLE_GEMINI_BASE_URL`), and `:countTokens`.

The script is `{"steps": [STEP, ...]}`, a STEP being `{"tool": NAME, "args": {...}}` (call tool NAME:
the first tool offered whose name ends with NAME, else the step's `"prefix"` + NAME) or `{"say": TEXT}` (end the turn
with TEXT). Which step answers a request is the number of assistant turns already in its conversation
(each of them was an answer of ours), so a client's retries and side requests do not shift the script.
A request that offers no tools (titles, summaries, quota checks) is a side request: it gets `side_text`
and consumes nothing. Past the last step the answer is `{"say": "done"}`.

Every request is logged as one JSON line: time, path, the step chosen, and the body as received.
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

Json = dict[str, Any]
Events = Iterator[tuple[str | None, Json | str]]


class Script:
    """The script file, read again at every request so that a driver may extend it while a client runs."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def _data(self) -> Json:
        return json.loads(self.path.read_text())

    @property
    def side_text(self) -> str:
        return self._data().get("side_text", "Scripted title")

    def step(self, index: int) -> Json:
        steps: list[Json] = self._data()["steps"]
        return steps[index] if index < len(steps) else {"say": "done"}


def tool_name(step: Json, offered: list[str]) -> str:
    """The offered tool whose name ends with the step's, else the step's `prefix` (a client's deferred tools
    are not offered until loaded) and its name."""
    wanted = step["tool"]
    for name in offered:
        if name == wanted or name.endswith(("__" + wanted, "_" + wanted)):
            return name
    return step.get("prefix", "") + wanted


# --- Anthropic Messages -----------------------------------------------------------------------------------


def anthropic_turns(body: Json) -> int:
    return sum(1 for message in body.get("messages", []) if message.get("role") == "assistant")


def anthropic_offered(body: Json) -> list[str]:
    return [tool.get("name", "") for tool in body.get("tools") or []]


def anthropic_content(step: Json, offered: list[str], serial: int) -> list[Json]:
    if "tool" in step:
        return [
            {"type": "tool_use", "id": f"toolu_{serial:08d}", "name": tool_name(step, offered), "input": step["args"]}
        ]
    return [{"type": "text", "text": step["say"]}]


def anthropic_message(content: list[Json], model: str, serial: int) -> Json:
    stop = "tool_use" if content[0]["type"] == "tool_use" else "end_turn"
    return {
        "id": f"msg_{serial:08d}",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": content,
        "stop_reason": stop,
        "stop_sequence": None,
        "usage": {
            "input_tokens": 100,
            "output_tokens": 10,
            "cache_read_input_tokens": 0,
            "cache_creation_input_tokens": 0,
        },
    }


def anthropic_events(message: Json) -> Events:
    start = {**message, "content": [], "stop_reason": None}
    yield "message_start", {"type": "message_start", "message": start}
    for index, block in enumerate(message["content"]):
        if block["type"] == "tool_use":
            opening = {**block, "input": {}}
            delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
        else:
            opening = {"type": "text", "text": ""}
            delta = {"type": "text_delta", "text": block["text"]}
        yield "content_block_start", {"type": "content_block_start", "index": index, "content_block": opening}
        yield "content_block_delta", {"type": "content_block_delta", "index": index, "delta": delta}
        yield "content_block_stop", {"type": "content_block_stop", "index": index}
    stop = {"stop_reason": message["stop_reason"], "stop_sequence": None}
    yield "message_delta", {"type": "message_delta", "delta": stop, "usage": {"output_tokens": 10}}
    yield "message_stop", {"type": "message_stop"}


# --- OpenAI Responses -------------------------------------------------------------------------------------


def responses_turns(body: Json) -> int:
    items = body.get("input") or []
    if not isinstance(items, list):
        return 0
    return sum(
        1
        for item in items
        if isinstance(item, dict)
        and (
            item.get("type") in {"function_call", "tool_search_call", "custom_tool_call"}
            or (item.get("type") == "message" and item.get("role") == "assistant")
        )
    )


def responses_offered(body: Json) -> list[str]:
    """Tool names offered in `tools`, and those a tool search loaded (namespaces as `namespace__tool`)."""
    tools: list[Json] = list(body.get("tools") or [])
    for item in body.get("input") or []:
        if isinstance(item, dict) and item.get("type") in {"tool_search_output", "additional_tools"}:
            tools.extend(item.get("tools") or [])
    names: list[str] = []
    for tool in tools:
        names.append(tool.get("name", ""))
        names.extend(f"{tool.get('name')}__{inner.get('name')}" for inner in tool.get("tools") or [])
    return names


def responses_item(step: Json, offered: list[str], serial: int) -> Json:
    if "tool_search" in step:
        # Codex's client-side tool search (offered as {"type": "tool_search", "execution": "client"}).
        arguments = {"query": step["tool_search"], "limit": 8}
        return {
            "type": "tool_search_call",
            "id": f"ts_{serial:08d}",
            "call_id": f"call_{serial:08d}",
            "execution": "client",
            "status": "completed",
            "arguments": arguments,
        }
    if "custom" in step:
        # A freeform tool (Codex's code-mode `exec`, which takes JavaScript): `{"custom": NAME, "input": TEXT}`.
        custom = {"type": "custom_tool_call", "id": f"ctc_{serial:08d}", "call_id": f"call_{serial:08d}"}
        if step.get("namespace"):
            custom["namespace"] = step["namespace"]
        return {**custom, "name": step["custom"], "input": step["input"], "status": "completed"}
    if "tool" in step:
        name = tool_name(step, offered)
        call: Json = {"type": "function_call", "id": f"fc_{serial:08d}", "call_id": f"call_{serial:08d}"}
        if "__" in name and name.rsplit("__", 1)[0] in offered:
            # A tool inside a namespace (Codex puts each MCP server's tools in one): the call names both.
            namespace, name = name.rsplit("__", 1)
            call["namespace"] = namespace
        return {**call, "name": name, "arguments": json.dumps(step["args"]), "status": "completed"}
    text = {"type": "output_text", "text": step["say"], "annotations": []}
    return {"type": "message", "id": f"msg_{serial:08d}", "role": "assistant", "status": "completed", "content": [text]}


def responses_events(item: Json, model: str, serial: int) -> Events:
    response = {"id": f"resp_{serial:08d}", "object": "response", "model": model, "status": "in_progress", "output": []}
    yield "response.created", {"type": "response.created", "response": response}
    yield "response.output_item.added", {"type": "response.output_item.added", "output_index": 0, "item": item}
    if item["type"] == "message":
        delta = {"type": "response.output_text.delta", "output_index": 0, "content_index": 0, "item_id": item["id"]}
        yield "response.output_text.delta", {**delta, "delta": item["content"][0]["text"]}
    yield "response.output_item.done", {"type": "response.output_item.done", "output_index": 0, "item": item}
    usage = {
        "input_tokens": 100,
        "input_tokens_details": {"cached_tokens": 0},
        "output_tokens": 10,
        "output_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": 110,
    }
    done = {**response, "status": "completed", "output": [item], "usage": usage}
    yield "response.completed", {"type": "response.completed", "response": done}


# --- OpenAI Chat Completions ------------------------------------------------------------------------------


def chat_turns(body: Json) -> int:
    return sum(1 for message in body.get("messages", []) if message.get("role") == "assistant")


def chat_offered(body: Json) -> list[str]:
    return [(tool.get("function") or {}).get("name", "") for tool in body.get("tools") or []]


def chat_events(step: Json, offered: list[str], model: str, serial: int) -> Events:
    def chunk(delta: Json, finish: str | None) -> Json:
        choice = {"index": 0, "delta": delta, "finish_reason": finish}
        return {"id": f"chatcmpl-{serial}", "object": "chat.completion.chunk", "model": model, "choices": [choice]}

    if "tool" in step:
        call = {
            "index": 0,
            "id": f"call_{serial:08d}",
            "type": "function",
            "function": {"name": tool_name(step, offered), "arguments": json.dumps(step["args"])},
        }
        yield None, chunk({"role": "assistant", "tool_calls": [call]}, None)
        yield None, chunk({}, "tool_calls")
    else:
        yield None, chunk({"role": "assistant", "content": step["say"]}, None)
        yield None, chunk({}, "stop")
    usage = {"prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110}
    yield (
        None,
        {"id": f"chatcmpl-{serial}", "object": "chat.completion.chunk", "model": model, "choices": [], "usage": usage},
    )
    yield None, "[DONE]"


# --- Gemini generateContent ------------------------------------------------------------------------------


def gemini_turns(body: Json) -> int:
    return sum(1 for content in body.get("contents", []) if content.get("role") == "model")


def gemini_offered(body: Json) -> list[str]:
    declared = [tool.get("functionDeclarations") or [] for tool in body.get("tools") or []]
    return [function.get("name", "") for functions in declared for function in functions]


def gemini_response(step: Json, offered: list[str]) -> Json:
    if "tool" in step:
        part: Json = {"functionCall": {"name": tool_name(step, offered), "args": step["args"]}}
    else:
        part = {"text": step["say"]}
    candidate = {"content": {"role": "model", "parts": [part]}, "finishReason": "STOP", "index": 0}
    usage = {"promptTokenCount": 100, "candidatesTokenCount": 10, "totalTokenCount": 110}
    return {"candidates": [candidate], "usageMetadata": usage}


# --- Serving ----------------------------------------------------------------------------------------------


class FakeModel:
    def __init__(self, script: Script, log_path: Path) -> None:
        self.script = script
        self._log = log_path.open("a", encoding="utf-8")
        self._lock = threading.Lock()
        self._serial = 0

    def next_serial(self) -> int:
        with self._lock:
            self._serial += 1
            return self._serial

    def log(self, entry: Json) -> None:
        with self._lock:
            self._log.write(json.dumps(entry) + "\n")
            self._log.flush()

    def choose(self, turns: int, offered: list[str]) -> tuple[str, Json]:
        if not offered:
            return "side", {"say": self.script.side_text}
        return f"step {turns}", self.script.step(turns)


class Handler(BaseHTTPRequestHandler):
    """One request of a client; `fake` is set on the subclass `make_handler` returns."""

    protocol_version = "HTTP/1.1"
    fake: FakeModel

    def log_message(self, format: str, *args: Any) -> None:  # the base class's name
        pass

    def do_GET(self) -> None:
        self.fake.log({"t": round(time.time(), 3), "method": "GET", "path": self.path})
        self._json(404, {"error": {"type": "not_found", "message": "fake model API: no such path"}})

    def do_POST(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body: Json = json.loads(raw or b"{}")
        except ValueError:
            body = {"unparsed": raw.decode("utf-8", "replace")}
        path = self.path.split("?", 1)[0]
        routes: dict[str, Callable[[Json], str]] = {
            "/v1/messages": self._anthropic,
            "/messages": self._anthropic,
            "/v1/responses": self._responses,
            "/responses": self._responses,
            "/v1/chat/completions": self._chat,
            "/chat/completions": self._chat,
        }
        entry: Json = {"t": round(time.time(), 3), "method": "POST", "path": self.path}
        entry["headers"] = {k.lower(): v for k, v in self.headers.items() if k.lower() in _LOGGED_HEADERS}
        if path.endswith("/count_tokens"):
            chosen = "count_tokens"
            self._json(200, {"input_tokens": 100})
        elif path.endswith(":countTokens"):
            chosen = "count_tokens"
            self._json(200, {"totalTokens": 100})
        elif path.endswith((":generateContent", ":streamGenerateContent")):
            chosen = self._gemini(body, streamed=path.endswith(":streamGenerateContent"))
        elif path in routes:
            chosen = routes[path](body)
        else:
            chosen = "unknown path"
            self._json(404, {"error": {"type": "not_found", "message": f"fake model API: no {path}"}})
        self.fake.log({**entry, "chosen": chosen, "body": body})

    def _anthropic(self, body: Json) -> str:
        offered = anthropic_offered(body)
        label, step = self.fake.choose(anthropic_turns(body), offered)
        serial = self.fake.next_serial()
        message = anthropic_message(anthropic_content(step, offered, serial), body.get("model", "fake"), serial)
        if body.get("stream"):
            self._sse(anthropic_events(message))
        else:
            self._json(200, message)
        return f"{label}: {json.dumps(step)}"

    def _responses(self, body: Json) -> str:
        offered = responses_offered(body)
        label, step = self.fake.choose(responses_turns(body), offered)
        serial = self.fake.next_serial()
        self._sse(responses_events(responses_item(step, offered, serial), body.get("model", "fake"), serial))
        return f"{label}: {json.dumps(step)}"

    def _chat(self, body: Json) -> str:
        offered = chat_offered(body)
        label, step = self.fake.choose(chat_turns(body), offered)
        self._sse(chat_events(step, offered, body.get("model", "fake"), self.fake.next_serial()))
        return f"{label}: {json.dumps(step)}"

    def _gemini(self, body: Json, streamed: bool) -> str:
        offered = gemini_offered(body)
        label, step = self.fake.choose(gemini_turns(body), offered)
        response = gemini_response(step, offered)
        if streamed:
            self._sse(iter([(None, response)]))
        else:
            self._json(200, response)
        return f"{label}: {json.dumps(step)}"

    def _json(self, status: int, payload: Json) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _sse(self, events: Events) -> None:
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("cache-control", "no-cache")
        self.send_header("connection", "close")
        self.end_headers()
        for name, data in events:
            payload = data if isinstance(data, str) else json.dumps(data)
            frame = (f"event: {name}\n" if name else "") + f"data: {payload}\n\n"
            self.wfile.write(frame.encode())
            self.wfile.flush()
        self.close_connection = True


def make_handler(fake: FakeModel) -> type[Handler]:
    return type("BoundHandler", (Handler,), {"fake": fake})


_LOGGED_HEADERS = {"user-agent", "anthropic-version", "anthropic-beta", "x-app", "originator", "session_id"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--script", required=True, type=Path)
    parser.add_argument("--log", required=True, type=Path)
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()
    fake = FakeModel(Script(args.script), args.log)
    server = ThreadingHTTPServer(("127.0.0.1", args.port), make_handler(fake))
    sys.stdout.write(f"listening on http://127.0.0.1:{server.server_address[1]}\n")
    sys.stdout.flush()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
