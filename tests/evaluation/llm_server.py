"""A real OpenAI-compatible HTTP server on loopback for tests and benchmarks (no mocks: the real
`openai` client, real sockets).

Run in its own process, so Celery worker processes reach it over TCP and its GIL is its own:

    python -m tests.evaluation.llm_server [--port 0] [--handler module:function]

It prints `PORT <n>` on its first stdout line. `LLMServer` (below) starts it and talks to it.

Endpoints: POST /v1/chat/completions, POST /v1/completions, POST /v1/embeddings, GET /v1/models.
Control (JSON):
- POST /_control/config  sets the behaviour (replaces the previous one), e.g.
    {"delay_ms": 200,
     "replies": [{"match": "kunjung", "reply": "..."}],   # first rule whose text is in the prompt
     "faults": [{"match": "p3", "then": [{"status": 429, "retry_after": 1}, {"status": 500}],
                 "per_prompt": false}],                 # consumed in order, then normal replies
     "default": {"status": 400}}                         # behaviour of every other request
  A behaviour: {"status": 4xx/5xx, "retry_after": s, "body": "..."}, {"malformed": true},
  {"hang": s}, {"slow": s} (body trickled over s seconds), {"redirect": url}, {"delay_ms": n},
  {"reply": "text"}, {"finish_reason": "length"}.
- GET /_control/stats -> {"requests", "chat", "embeddings", "max_concurrent", "active", "by_prompt",
  "authorizations"} (the Authorization header of every counted request, in order)
- POST /_control/reset  zeroes the counters (the behaviour stays).
`--handler module:function` (or "handler" in the config): function(request_json) -> reply text or a
behaviour dict, for replies computed from the prompt (H2's generation tests).

Usage counts words: prompt_tokens = words of all messages, completion_tokens = words of the reply.

/v1/completions without `echo` is a plain completion: it answers as chat does (scripted replies by
prompt substring, handler, default). For likelihood scoring it tokenizes the prompt into words with
their leading whitespace (`_tokens`) and generates one token, " ."; with `echo` the reply's text is
prompt + " ." and with `logprobs` each echoed token gets a log-probability, OpenAI style (the first
one null, the generated one -0.5). Scripted in the config:
    {"likelihood": {" Bandung": -0.5, " Jawa Barat": [-0.1, -2.0]},  # the longest one the prompt ends
     "default_logprob": -1.0,                                       # with: its tokens get these values
     "completion_logprobs": false,                                  # reply without logprobs at all
     "lossy_token_text": true}   # tokens' text without non-ASCII letters, as llama-cpp-python's split bytes
A number applies to every token of that text, a list gives one value per token. Faults and "default"
behaviours apply as for chat (e.g. {"default": {"status": 400}} for a server without echo).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import os
import re
import subprocess
import sys
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


class State:
    def __init__(self, handler: str = ""):
        self.lock = threading.Lock()
        self.config: dict[str, Any] = {"handler": handler} if handler else {}
        self.fault_queues: dict[Any, list] = {}
        self.handler = None
        self.reset()
        self.set_config(self.config)

    def reset(self) -> None:
        with self.lock:
            self.requests = 0
            self.chat = 0
            self.completions = 0
            self.embeddings = 0
            self.active = 0
            self.max_concurrent = 0
            self.by_prompt: dict[str, int] = {}
            self.authorizations: list[str] = []

    def set_config(self, config: dict[str, Any]) -> None:
        with self.lock:
            self.config = config
            self.fault_queues = {}
            target = config.get("handler")
            if target:
                module, _, name = target.partition(":")
                self.handler = getattr(importlib.import_module(module), name)
            else:
                self.handler = None

    def stats(self) -> dict[str, Any]:
        with self.lock:
            return {
                "requests": self.requests,
                "chat": self.chat,
                "completions": self.completions,
                "embeddings": self.embeddings,
                "max_concurrent": self.max_concurrent,
                "active": self.active,
                "by_prompt": dict(self.by_prompt),
                "authorizations": list(self.authorizations),
            }

    def behaviour(self, prompt: str, body: dict) -> dict[str, Any]:
        with self.lock:
            config = self.config
            for index, rule in enumerate(config.get("faults", [])):
                if rule.get("match", "") in prompt:
                    key = (index, prompt) if rule.get("per_prompt") else index
                    queue = self.fault_queues.setdefault(key, list(rule.get("then", [])))
                    if queue:
                        return dict(queue.pop(0))
            handler = self.handler
        result: dict[str, Any] = {}
        if config.get("delay_ms"):
            result["delay_ms"] = config["delay_ms"]
        if handler is not None:
            produced = handler(body)
            result.update({"reply": produced} if isinstance(produced, str) else produced)
            return result
        for rule in config.get("replies", []):
            if rule.get("match", "") in prompt:
                result["reply"] = rule["reply"]
                return result
        result.update(config.get("default", {}))
        return result


def _words(text: str) -> int:
    return len(text.split())


def _tokens(text: str) -> list[str]:
    """Words with their leading whitespace (trailing whitespace joins the last one): joined, the text."""
    return re.findall(r"\s*\S+\s*$|\s*\S+|\s+$", text)


def _prompt(body: dict) -> str:
    messages = body.get("messages") or []
    users = [m.get("content") or "" for m in messages if m.get("role") == "user"]
    return users[-1] if users else ""


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Headers and body go out in separate writes: with Nagle's algorithm the body waits for the
    # client's delayed ACK, 40 ms per request (measured: 242 ms median for a 200 ms reply).
    disable_nagle_algorithm = True
    server: Server

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - quiet
        pass

    def _json(self, status: int, payload: Any, headers: dict[str, str] | None = None) -> None:
        data = json.dumps(payload).encode()
        self._send(status, data, headers)

    def _done(self) -> None:
        """The request stops counting as in flight once its answer is handed over (before the bytes go
        out: a client that reads them fast may start its next request before this thread runs again)."""
        if getattr(self, "_counted", False):
            self._counted = False
            state = self.server.state
            with state.lock:
                state.active -= 1

    def _send(self, status: int, data: bytes, headers: dict[str, str] | None = None, *, slow: float = 0) -> None:
        if not slow:
            self._done()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        if slow:
            step = max(1, len(data) // 20)
            for i in range(0, len(data), step):
                self.wfile.write(data[i : i + step])
                self.wfile.flush()
                time.sleep(slow / 20)
        else:
            self.wfile.write(data)

    def _body(self) -> dict:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b"{}"
        return json.loads(raw or b"{}")

    def do_GET(self) -> None:  # noqa: N802
        state = self.server.state
        if self.path == "/_control/stats":
            self._json(200, state.stats())
        elif self.path.rstrip("/").endswith("/v1/models"):
            self._json(200, {"object": "list", "data": [{"id": "test-model", "object": "model", "owned_by": "test"}]})
        else:
            self._json(404, {"error": {"message": "not found"}})

    def do_POST(self) -> None:  # noqa: N802
        state = self.server.state
        body = self._body()
        if self.path == "/_control/config":
            state.set_config(body)
            self._json(200, {"ok": True})
            return
        if self.path == "/_control/reset":
            state.reset()
            self._json(200, {"ok": True})
            return
        with state.lock:
            state.requests += 1
            state.active += 1
            state.max_concurrent = max(state.max_concurrent, state.active)
            state.authorizations.append(self.headers.get("Authorization") or "")
        self._counted = True
        try:
            if self.path.endswith("/chat/completions"):
                self._chat(body)
            elif self.path.endswith("/completions"):
                self._completions(body)
            elif self.path.endswith("/embeddings"):
                self._embeddings(body)
            else:
                self._json(404, {"error": {"message": "not found"}})
        finally:
            self._done()

    def _fault(self, behaviour: dict) -> bool:
        """Act out a fault; True when the request was answered (or dropped) by it."""
        if behaviour.get("delay_ms"):
            time.sleep(behaviour["delay_ms"] / 1000)
        if behaviour.get("hang"):
            time.sleep(behaviour["hang"])
            self.close_connection = True
            return True
        if behaviour.get("redirect"):
            self._done()
            self.send_response(302)
            self.send_header("Location", behaviour["redirect"])
            self.send_header("Content-Length", "0")
            self.end_headers()
            return True
        if behaviour.get("malformed"):
            self._send(200, b'{"id": "x", "choices": [ this is not json')
            return True
        if behaviour.get("status"):
            headers = {}
            if behaviour.get("retry_after") is not None:
                headers["Retry-After"] = str(behaviour["retry_after"])
            message = behaviour.get("body") or f"scripted {behaviour['status']}"
            self._json(behaviour["status"], {"error": {"message": message, "type": "scripted"}}, headers)
            return True
        return False

    def _chat(self, body: dict) -> None:
        state = self.server.state
        prompt = _prompt(body)
        with state.lock:
            state.chat += 1
            state.by_prompt[prompt] = state.by_prompt.get(prompt, 0) + 1
        behaviour = state.behaviour(prompt, body)
        if self._fault(behaviour):
            return
        reply = behaviour.get("reply")
        if reply is None:
            reply = f"Reply to: {prompt[:200]}"
        all_text = " ".join(str(m.get("content") or "") for m in body.get("messages") or [])
        choice: dict[str, Any] = {
            "index": 0,
            "message": {"role": "assistant", "content": reply},
            "finish_reason": behaviour.get("finish_reason", "stop"),
        }
        if body.get("logprobs"):
            top = int(body.get("top_logprobs") or 0)
            choice["logprobs"] = {
                "content": [
                    {
                        "token": word,
                        "logprob": -0.25,
                        "bytes": None,
                        "top_logprobs": [{"token": word, "logprob": -0.25, "bytes": None}][:top],
                    }
                    for word in reply.split()
                ]
            }
        payload = {
            "id": "chatcmpl-test",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body.get("model", "test-model"),
            "choices": [choice],
            "usage": {
                "prompt_tokens": _words(all_text),
                "completion_tokens": _words(reply),
                "total_tokens": _words(all_text) + _words(reply),
            },
        }
        self._send(200, json.dumps(payload).encode(), slow=float(behaviour.get("slow") or 0))

    def _completions(self, body: dict) -> None:
        state = self.server.state
        prompt = body.get("prompt") or ""
        prompt = prompt if isinstance(prompt, str) else "".join(prompt)
        with state.lock:
            state.completions += 1
            state.by_prompt[prompt] = state.by_prompt.get(prompt, 0) + 1
        behaviour = state.behaviour(prompt, body)
        if self._fault(behaviour):
            return
        config = state.config
        tokens = _tokens(prompt)
        values: list[float | None] = [float(config.get("default_logprob", -1.0))] * len(tokens)
        scripted = [text for text in config.get("likelihood", {}) if text and prompt.endswith(text)]
        if scripted:
            text = max(scripted, key=len)
            value = config["likelihood"][text]
            count = len(_tokens(text))
            per_token = value if isinstance(value, list) else [value] * count
            if len(per_token) != count:
                self._json(500, {"error": {"message": f"scripted {len(per_token)} values for {count} tokens"}})
                return
            values[len(tokens) - count :] = [float(v) for v in per_token]
        if values:
            values[0] = None  # OpenAI: the first token of a prompt has no log-probability
        # A plain completion (no echo) answers as chat does (scripted replies, handler); scoring gets " ."
        generated = " ." if body.get("echo") else str(behaviour.get("reply", " ."))
        choice: dict[str, Any] = {
            "index": 0,
            "text": (prompt if body.get("echo") else "") + generated,
            "finish_reason": "length",
            "logprobs": None,
        }
        if body.get("logprobs") is not None and config.get("completion_logprobs", True):
            listed = (tokens if body.get("echo") else []) + [generated]
            listed_values = (values if body.get("echo") else []) + [-0.5]
            offsets, at = [], 0 if body.get("echo") else len(prompt)
            for token in listed:
                offsets.append(at)
                at += len(token)
            if config.get("lossy_token_text"):
                listed = ["".join(ch for ch in token if ch.isascii()) for token in listed]
            choice["logprobs"] = {
                "tokens": listed,
                "token_logprobs": listed_values,
                "top_logprobs": [None if v is None else {t: v} for t, v in zip(listed, listed_values, strict=True)],
                "text_offset": offsets,
            }
        payload = {
            "id": "cmpl-test",
            "object": "text_completion",
            "created": int(time.time()),
            "model": body.get("model", "test-model"),
            "choices": [choice],
            "usage": {"prompt_tokens": len(tokens), "completion_tokens": 1, "total_tokens": len(tokens) + 1},
        }
        self._send(200, json.dumps(payload).encode(), slow=float(behaviour.get("slow") or 0))

    def _embeddings(self, body: dict) -> None:
        state = self.server.state
        inputs = body.get("input") or []
        inputs = [inputs] if isinstance(inputs, str) else inputs
        with state.lock:
            state.embeddings += 1
        behaviour = state.behaviour(" ".join(inputs), body)
        if self._fault(behaviour):
            return
        data = []
        for index, text in enumerate(inputs):
            digest = hashlib.sha256(text.lower().encode()).digest()
            data.append({"object": "embedding", "index": index, "embedding": [b / 255 for b in digest[:8]]})
        self._json(
            200,
            {
                "object": "list",
                "model": body.get("model", "test-model"),
                "data": data,
                "usage": {"prompt_tokens": sum(_words(t) for t in inputs), "total_tokens": 0},
            },
        )


class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 1024

    def __init__(self, port: int, handler: str = ""):
        super().__init__(("127.0.0.1", port), Handler)
        self.state = State(handler)

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A client that gave up (a timeout test, a killed worker) is normal here, not worth a traceback.
        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)


class LLMServer:
    """The test server in a subprocess: `url` (the base URL, …/v1), `configure()`, `stats()`, `reset()`."""

    def __init__(self, *, handler: str = ""):
        command = [sys.executable, "-m", "tests.evaluation.llm_server", "--port", "0"]
        if handler:
            command += ["--handler", handler]
        self.proc = subprocess.Popen(
            command, cwd=ROOT, stdout=subprocess.PIPE, env={**os.environ, "PYTHONUNBUFFERED": "1"}, text=True
        )
        line = self.proc.stdout.readline().strip()
        if not line.startswith("PORT "):
            self.proc.kill()
            raise RuntimeError(f"the test LLM server did not start: {line!r}")
        self.port = int(line.split()[1])
        self.root = f"http://127.0.0.1:{self.port}"
        self.url = f"{self.root}/v1"

    def _post(self, path: str, payload: dict) -> dict:
        request = urllib.request.Request(
            self.root + path, data=json.dumps(payload).encode(), headers={"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(request, timeout=10) as response:  # noqa: S310 - loopback
            return json.loads(response.read())

    def configure(self, **config: Any) -> None:
        self._post("/_control/config", config)
        self.reset()

    def reset(self) -> None:
        self._post("/_control/reset", {})

    def stats(self) -> dict[str, Any]:
        with urllib.request.urlopen(self.root + "/_control/stats", timeout=10) as response:  # noqa: S310
            return json.loads(response.read())

    def stop(self) -> None:
        self.proc.kill()
        self.proc.wait(timeout=10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--handler", default="")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    server = Server(args.port, args.handler)
    print(f"PORT {server.server_address[1]}", flush=True)
    server.serve_forever(poll_interval=0.5)


if __name__ == "__main__":
    main()
