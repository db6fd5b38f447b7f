"""``hf:<path>``: a local ``transformers`` causal-LM checkpoint directory.

Loaded with ``local_files_only=True`` (and ``HF_HUB_OFFLINE=1``): nothing is ever downloaded,
and a path that is not a checkpoint directory is an error naming what is missing. Needs the
optional extra ``pip install -e '.[models]'`` (transformers). The identity hashes the
configuration and tokenizer files in full and each weight file by its size and its first and
last 8 MiB (a fine-tuned copy differs there; hashing many GB on every run would not be kind).
"""
from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Sequence

import numpy as np

from .models import Generation, ModelError, TextModel, cut_at_stop

WEIGHT_SUFFIXES = (".safetensors", ".bin", ".pt", ".gguf")
CHUNK = 8 << 20


def _file_digest(path: Path) -> str:
    h = hashlib.blake2b(digest_size=12)
    size = path.stat().st_size
    h.update(str(size).encode())
    with open(path, "rb") as fh:
        if path.suffix not in WEIGHT_SUFFIXES or size <= 2 * CHUNK:
            h.update(fh.read())
        else:
            h.update(fh.read(CHUNK))
            fh.seek(size - CHUNK)
            h.update(fh.read(CHUNK))
    return h.hexdigest()


def checkpoint_digest(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): _file_digest(p)
            for p in sorted(folder.rglob("*")) if p.is_file() and not p.name.startswith(".")}


class HFModel(TextModel):
    backend = "hf"

    def __init__(self, spec: str, path: str) -> None:
        super().__init__(spec)
        self.path = Path(path).expanduser()
        if not self.path.is_dir():
            raise ModelError(f"model spec {spec!r}: {self.path} is not a directory; hf: takes a "
                             f"local transformers checkpoint folder (config.json, tokenizer and "
                             f"weights) and never downloads")
        if not (self.path / "config.json").is_file():
            raise ModelError(f"model spec {spec!r}: {self.path} has no config.json, so it is not "
                             f"a transformers checkpoint folder")
        self._model = self._tok = None

    def identity(self) -> dict:
        snap = self.path.resolve()
        revision = snap.name if snap.parent.name == "snapshots" else ""
        return {"backend": "hf", "path": str(snap), "revision": revision,
                "files": checkpoint_digest(snap)}

    def _load(self):
        if self._model is None:
            os.environ.setdefault("HF_HUB_OFFLINE", "1")
            try:
                from transformers import AutoModelForCausalLM, AutoTokenizer
            except ImportError:
                raise ModelError("the hf: backend needs transformers: pip install -e '.[models]'") from None
            try:
                self._tok = AutoTokenizer.from_pretrained(self.path, local_files_only=True)
                self._model = AutoModelForCausalLM.from_pretrained(self.path, local_files_only=True)
            except (OSError, ValueError) as exc:
                raise ModelError(f"model spec {self.spec!r}: cannot load {self.path}: {exc}") from None
            self._model.eval()
        return self._model, self._tok

    def generate(self, prompt: str, *, max_tokens: int = 64, temperature: float = 0.0,
                 seed: int = 0, stop: Sequence[str] = ()) -> Generation:
        import torch

        model, tok = self._load()
        ids = tok(prompt, return_tensors="pt").input_ids  # (1, T)
        kw = {"do_sample": temperature > 0, "max_new_tokens": int(max_tokens),
              "pad_token_id": tok.pad_token_id if tok.pad_token_id is not None else tok.eos_token_id}
        if temperature > 0:
            kw["temperature"] = float(temperature)
        # transformers samples from torch's global generator: seed it for this call only
        with torch.random.fork_rng(devices=[]), torch.no_grad():
            torch.manual_seed(int(seed) % (2 ** 63))
            out = model.generate(ids, attention_mask=torch.ones_like(ids), **kw)  # (1, T + n)
        new = out[0, ids.shape[1]:]
        gen = Generation(cut_at_stop(tok.decode(new, skip_special_tokens=True), stop),
                         int(ids.shape[1]), int(new.shape[0]))
        self.usage.add(gen)
        return gen

    def chat(self, messages: Sequence[dict], **kwargs) -> Generation:
        _, tok = self._load()
        if getattr(tok, "chat_template", None):
            prompt = tok.apply_chat_template(list(messages), tokenize=False,
                                             add_generation_prompt=True)
            return self.generate(prompt, **kwargs)
        return super().chat(messages, **kwargs)

    def logprobs(self, prompt: str, continuation: str) -> list[float]:
        import torch

        model, tok = self._load()
        p = tok(prompt).input_ids
        full = tok(prompt + continuation).input_ids
        if not p or full[:len(p)] != p:  # the boundary merged two tokens: score from a shared prefix
            k = next((i for i, (a, b) in enumerate(zip(p, full)) if a != b), min(len(p), len(full)))
            p = full[:max(k, 1)]
        with torch.no_grad():
            logp = torch.log_softmax(model(torch.as_tensor([full])).logits[0], dim=-1)  # (T, V)
        self.usage.add(Generation("", len(full), 0))
        return [float(logp[t - 1, full[t]]) for t in range(len(p), len(full))]

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        import torch

        model, tok = self._load()
        rows = []
        with torch.no_grad():
            for t in texts:
                ids = tok(t, return_tensors="pt").input_ids  # (1, T)
                hidden = model(ids, output_hidden_states=True).hidden_states[-1][0]  # (T, d)
                rows.append(hidden.mean(0).double().numpy())
        self.usage.add()
        return np.stack(rows)  # (n, d)
