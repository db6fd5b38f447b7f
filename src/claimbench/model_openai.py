"""``openai:<base-url>#<model>``: any OpenAI-compatible HTTP server (vLLM, llama.cpp, Ollama, ...).

Standard library only (``urllib``). Every request has a timeout; connection errors, timeouts,
HTTP 429 and 5xx are retried with exponential back-off; other HTTP errors and replies that are
not the expected JSON fail at once. Each failure is a :class:`ModelError` naming the URL, so a
cell that meets one is recorded as an ``error`` row with that message and the grid goes on.
A semaphore per server limits concurrent requests from one process. ``usage`` sums the token
counts the server reports. The API key, if any, comes from ``$CLAIMBENCH_API_KEY`` or
``$OPENAI_API_KEY`` and is never stored.
"""
from __future__ import annotations

import json
import os
import socket
import threading
import time
import urllib.error
import urllib.request
from typing import Any, Sequence

import numpy as np

from .models import Generation, ModelError, TextModel, cut_at_stop

DEFAULTS = {"timeout": 60.0, "retries": 3, "concurrency": 4, "backoff": 0.5}
_SEMAPHORES: dict[str, threading.BoundedSemaphore] = {}
_SEM_LOCK = threading.Lock()


def _semaphore(url: str, n: int) -> threading.BoundedSemaphore:
    with _SEM_LOCK:
        if url not in _SEMAPHORES:
            _SEMAPHORES[url] = threading.BoundedSemaphore(n)
        return _SEMAPHORES[url]


class OpenAIModel(TextModel):
    backend = "openai"

    def __init__(self, spec: str, base_url: str, model: str, options: dict | None = None) -> None:
        super().__init__(spec)
        self.base_url, self.model = base_url, model
        opts = dict(DEFAULTS)
        for k, v in (options or {}).items():
            try:
                opts[k] = type(DEFAULTS[k])(v)
            except (KeyError, ValueError):
                raise ModelError(f"model spec {spec!r}: option {k}={v!r} is not a valid "
                                 f"{type(DEFAULTS.get(k, '')).__name__}") from None
            if opts[k] < 0 or (k in ("timeout", "concurrency") and opts[k] == 0):
                raise ModelError(f"model spec {spec!r}: option {k}={v!r} must be positive")
        self.timeout, self.retries = opts["timeout"], int(opts["retries"])
        self.backoff = opts["backoff"]
        self._sem = _semaphore(base_url, int(opts["concurrency"]))

    # -- transport -------------------------------------------------------------------------------
    def request(self, path: str, payload: dict | None = None) -> tuple[dict, int]:
        """POST ``payload`` (GET when None) to ``base_url + path``: ``(reply JSON, retries)``."""
        url = self.base_url + path
        headers = {"Content-Type": "application/json"}
        key = os.environ.get("CLAIMBENCH_API_KEY") or os.environ.get("OPENAI_API_KEY")
        if key:
            headers["Authorization"] = f"Bearer {key}"
        body = None if payload is None else json.dumps(payload).encode()
        last = ""
        for attempt in range(self.retries + 1):
            if attempt:
                time.sleep(self.backoff * 2 ** (attempt - 1))
            req = urllib.request.Request(url, data=body, headers=headers,
                                         method="GET" if body is None else "POST")
            try:
                with self._sem, urllib.request.urlopen(req, timeout=self.timeout) as resp:
                    raw = resp.read()
            except urllib.error.HTTPError as exc:
                detail = exc.read()[:200].decode(errors="replace")
                last = f"HTTP {exc.code} {exc.reason}: {detail}"
                if exc.code == 429 or exc.code >= 500:
                    continue
                raise ModelError(f"{url}: {last}") from None
            except (socket.timeout, TimeoutError):
                last = f"no reply within the {self.timeout:g} s timeout"
                continue
            except urllib.error.URLError as exc:
                if isinstance(exc.reason, (socket.timeout, TimeoutError)):
                    last = f"no reply within the {self.timeout:g} s timeout"
                else:
                    last = f"cannot connect ({exc.reason})"
                continue
            except (ConnectionError, OSError) as exc:
                last = f"connection failed ({exc})"
                continue
            try:
                reply = json.loads(raw)
            except ValueError:
                raise ModelError(f"{url}: the reply is not JSON: {raw[:120]!r}") from None
            if not isinstance(reply, dict):
                raise ModelError(f"{url}: expected a JSON object, got {type(reply).__name__}")
            return reply, attempt
        raise ModelError(f"{url}: {last} (after {self.retries + 1} attempts)")

    def _field(self, reply: dict, *path: Any) -> Any:
        cur: Any = reply
        for p in path:
            try:
                cur = cur[p]
            except (KeyError, IndexError, TypeError):
                where = "".join(f"[{p!r}]" for p in path)
                raise ModelError(f"{self.base_url}: malformed reply, no {where}: "
                                 f"{json.dumps(reply)[:200]}") from None
        return cur

    def _generation(self, reply: dict, text: str, retries: int) -> Generation:
        usage = reply.get("usage") or {}
        gen = Generation(text, int(usage.get("prompt_tokens") or 0),
                         int(usage.get("completion_tokens") or 0))
        self.usage.add(gen, retries)
        return gen

    # -- the protocol ----------------------------------------------------------------------------
    def identity(self) -> dict:
        reply, _ = self.request("/models")
        served = next((m for m in reply.get("data") or [] if isinstance(m, dict)
                       and m.get("id") == self.model), None)
        if served is None:
            names = [m.get("id") for m in reply.get("data") or [] if isinstance(m, dict)]
            raise ModelError(f"{self.base_url}: serves no model {self.model!r}; it serves "
                             f"{', '.join(map(str, names)) or 'none'}")
        return {"backend": "openai", "base_url": self.base_url, "model": self.model,
                "served": {k: served.get(k) for k in ("id", "owned_by", "created", "root")
                           if served.get(k) is not None}}

    def _sampling(self, max_tokens: int, temperature: float, seed: int,
                  stop: Sequence[str]) -> dict:
        out = {"model": self.model, "max_tokens": int(max_tokens),
               "temperature": float(temperature), "seed": int(seed) % (2 ** 31)}
        if stop:
            out["stop"] = list(stop)
        return out

    def generate(self, prompt: str, *, max_tokens: int = 64, temperature: float = 0.0,
                 seed: int = 0, stop: Sequence[str] = ()) -> Generation:
        reply, retries = self.request("/completions", {
            "prompt": prompt, **self._sampling(max_tokens, temperature, seed, stop)})
        text = self._field(reply, "choices", 0, "text")
        return self._generation(reply, cut_at_stop(str(text), stop), retries)

    def chat(self, messages: Sequence[dict], *, max_tokens: int = 64, temperature: float = 0.0,
             seed: int = 0, stop: Sequence[str] = ()) -> Generation:
        reply, retries = self.request("/chat/completions", {
            "messages": list(messages), **self._sampling(max_tokens, temperature, seed, stop)})
        text = self._field(reply, "choices", 0, "message", "content")
        return self._generation(reply, cut_at_stop(str(text or ""), stop), retries)

    def logprobs(self, prompt: str, continuation: str) -> list[float]:
        """Echo the prompt with its log-probabilities (the completions API's ``echo`` and
        ``logprobs``, as vLLM and llama.cpp serve them) and keep the continuation's tokens."""
        text = prompt + continuation
        reply, retries = self.request("/completions", {
            "model": self.model, "prompt": text, "max_tokens": 1, "temperature": 0.0,
            "echo": True, "logprobs": 1})
        lp = self._field(reply, "choices", 0, "logprobs")
        offsets = self._field(lp, "text_offset")
        values = self._field(lp, "token_logprobs")
        self._generation(reply, "", retries)
        return [float(v) for o, v in zip(offsets, values)
                if len(prompt) <= o < len(text) and v is not None]

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        reply, retries = self.request("/embeddings", {"model": self.model, "input": list(texts)})
        data = sorted(self._field(reply, "data"), key=lambda d: d.get("index", 0))
        self._generation(reply, "", retries)
        try:
            out = np.asarray([d["embedding"] for d in data], dtype=np.float64)  # (n, d)
        except (KeyError, TypeError, ValueError):
            raise ModelError(f"{self.base_url}: malformed embeddings reply") from None
        if out.shape[0] != len(texts):
            raise ModelError(f"{self.base_url}: {out.shape[0]} embeddings for {len(texts)} texts")
        return out
