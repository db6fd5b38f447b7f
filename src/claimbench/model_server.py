"""A small OpenAI-compatible HTTP server around any :class:`~claimbench.models.TextModel`.

``claimbench serve tiny:charlm --port 8000`` serves a tiny model at
``http://127.0.0.1:8000/v1`` (``/models``, ``/completions`` with ``echo``/``logprobs``,
``/chat/completions``, ``/embeddings``), so the ``openai:`` backend and a user's scripts can be
tried end to end without a GPU; the tests start one on a free port. ``fault`` is a testing
hook: ``("delay", seconds)``, ``("status", code)`` or ``("malformed", None)`` for the next
``fault_count`` requests (every request when None).
"""
from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from .models import ModelError, TextModel


class _Handler(BaseHTTPRequestHandler):
    server: "ModelServer"

    def log_message(self, *args) -> None:  # quiet: tests and the CLI print their own lines
        pass

    def _send(self, code: int, body: bytes, ctype: str = "application/json") -> None:
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _json(self, code: int, obj: dict) -> None:
        self._send(code, json.dumps(obj).encode())

    def _fault(self) -> bool:
        fault = self.server.take_fault()
        if fault is None:
            return False
        kind, arg = fault
        if kind == "delay":
            time.sleep(arg)
            return False
        if kind == "status":
            self._json(arg, {"error": {"message": f"injected HTTP {arg}"}})
        else:
            self._send(200, b"{not json")
        return True

    def do_GET(self) -> None:
        if self._fault():
            return
        if self.path.rstrip("/") == "/v1/models":
            self._json(200, {"object": "list", "data": [
                {"id": self.server.name, "object": "model", "owned_by": "claimbench",
                 "root": self.server.model.spec}]})
        else:
            self._json(404, {"error": {"message": f"no route {self.path}"}})

    def do_POST(self) -> None:
        if self._fault():
            return
        try:
            req = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)))
        except ValueError:
            self._json(400, {"error": {"message": "request body is not JSON"}})
            return
        route = self.path.rstrip("/")
        try:
            if req.get("model") != self.server.name:
                self._json(404, {"error": {"message": f"no model {req.get('model')!r}"}})
            elif route == "/v1/completions":
                self._json(200, self.server.completions(req))
            elif route == "/v1/chat/completions":
                self._json(200, self.server.chat(req))
            elif route == "/v1/embeddings":
                self._json(200, self.server.embeddings(req))
            else:
                self._json(404, {"error": {"message": f"no route {self.path}"}})
        except (ModelError, KeyError, TypeError, ValueError) as exc:
            self._json(400, {"error": {"message": f"{type(exc).__name__}: {exc}"}})


class ModelServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, model: TextModel, name: str = "", host: str = "127.0.0.1",
                 port: int = 0) -> None:
        super().__init__((host, port), _Handler)
        self.model, self.name = model, name or model.spec
        self.fault: tuple | None = None
        self.fault_count: int | None = None
        self._lock = threading.Lock()  # one forward pass at a time (torch, one thread)
        self._fault_lock = threading.Lock()

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host}:{port}/v1"

    def take_fault(self) -> tuple | None:
        with self._fault_lock:
            if self.fault is None:
                return None
            fault = self.fault
            if self.fault_count is not None:
                self.fault_count -= 1
                if self.fault_count <= 0:
                    self.fault, self.fault_count = None, None
            return fault

    def _usage(self, gen) -> dict:
        return {"prompt_tokens": gen.prompt_tokens, "completion_tokens": gen.completion_tokens,
                "total_tokens": gen.prompt_tokens + gen.completion_tokens}

    def _kw(self, req: dict) -> dict:
        stop = req.get("stop") or ()
        return {"max_tokens": int(req.get("max_tokens", 16)),
                "temperature": float(req.get("temperature", 1.0)),
                "seed": int(req.get("seed") or 0),
                "stop": [stop] if isinstance(stop, str) else list(stop)}

    def completions(self, req: dict) -> dict:
        prompt = req["prompt"]
        if not isinstance(prompt, str):
            raise TypeError("prompt must be one string")
        with self._lock:
            gen = self.model.generate(prompt, **self._kw(req))
            choice: dict = {"index": 0, "text": gen.text, "finish_reason": "length"}
            if req.get("echo") and req.get("logprobs") is not None:
                lps = self.model.logprobs(prompt[:1], prompt[1:]) if len(prompt) > 1 else []
                # character tokens: the first has no context, so no log-probability
                choice["text"] = prompt + gen.text
                choice["logprobs"] = {"tokens": list(prompt), "token_logprobs": [None] + lps,
                                      "text_offset": list(range(len(prompt)))}
        return {"object": "text_completion", "model": self.name, "choices": [choice],
                "usage": self._usage(gen)}

    def chat(self, req: dict) -> dict:
        with self._lock:
            gen = self.model.chat(req["messages"], **self._kw(req))
        return {"object": "chat.completion", "model": self.name, "usage": self._usage(gen),
                "choices": [{"index": 0, "finish_reason": "length",
                             "message": {"role": "assistant", "content": gen.text}}]}

    def embeddings(self, req: dict) -> dict:
        texts = req["input"]
        texts = [texts] if isinstance(texts, str) else list(texts)
        with self._lock:
            vecs = self.model.embed(texts)
        return {"object": "list", "model": self.name, "usage": {"prompt_tokens": 0},
                "data": [{"object": "embedding", "index": i, "embedding": v.tolist()}
                         for i, v in enumerate(vecs)]}


def start(model: TextModel, name: str = "", host: str = "127.0.0.1", port: int = 0) -> ModelServer:
    """Serve ``model`` from a daemon thread; ``server.url`` is the base URL, ``shutdown()``
    stops it."""
    server = ModelServer(model, name, host, port)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server
