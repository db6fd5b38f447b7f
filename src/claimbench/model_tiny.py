"""``tiny:<name>``: character-level LMs trained here by the tiny-LM toolkit.

The models are the toolkit's pre-LN transformer trained on CPython's help topics through the
checkpoint cache (``datasets/lm_attention_activations.trained_lm``), so the first use trains
(``charlm``: about 75 s on one thread; ``charlm-small``: a few seconds) and every later use
loads. They produce Python-documentation-flavoured characters, not answers: protocols run end
to end on them, and claims that need a capable model are ``not_run``.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from .models import Generation, ModelError, TextModel, cut_at_stop

# name -> (lm spec of lm_attention_activations.trained_lm, model seed)
RECIPES = {
    # 3 layers x 96 wide, 400 steps: the model the sparse-attention benchmarks read (shared cache)
    "charlm": ({"d_model": 96, "layers": 3, "heads": 3, "steps": 400, "batch": 8, "context": 256}, 0),
    # 1 layer x 32 wide, 60 steps: seconds to train; for tests and smoke grids
    "charlm-small": ({"d_model": 32, "layers": 1, "heads": 2, "steps": 60, "batch": 8, "context": 128}, 0),
}
MAX_PROMPT = 1024  # characters kept from the end of a longer prompt


def _sources():
    from .baselines import lm_training, tiny_transformer
    from .datasets import lm_attention_activations, python_docs_text

    return (tiny_transformer, lm_training, python_docs_text, lm_attention_activations)


class TinyModel(TextModel):
    backend = "tiny"

    def __init__(self, spec: str, name: str) -> None:
        super().__init__(spec)
        if name not in RECIPES:
            raise ModelError(f"model spec {spec!r}: no tiny model {name!r}; "
                             f"valid names: {', '.join(sorted(RECIPES))}")
        self.name = name
        self._model = None

    def identity(self) -> dict:
        from .checkpoints import source_digest

        lm, seed = RECIPES[self.name]
        return {"backend": "tiny", "name": self.name, "recipe": dict(lm), "model_seed": seed,
                "source": source_digest(_sources())}

    # -- the trained network -------------------------------------------------------------------
    def _load(self):
        if self._model is None:
            from .datasets.lm_attention_activations import trained_lm

            lm, seed = RECIPES[self.name]
            model, text, _ = trained_lm(lm, seed)
            vocab = text["vocab"]
            self._model, self._vocab = model, vocab
            self._index = {c: i for i, c in enumerate(vocab)}
            self._unk = len(vocab) - 1
        return self._model

    def encode(self, text: str) -> list[int]:
        self._load()
        return [self._index.get(c, self._unk) for c in text]

    def decode(self, ids: Sequence[int]) -> str:
        self._load()
        return "".join("?" if i == self._unk else self._vocab[i] for i in ids)

    # -- the protocol ----------------------------------------------------------------------------
    def generate(self, prompt: str, *, max_tokens: int = 64, temperature: float = 0.0,
                 seed: int = 0, stop: Sequence[str] = ()) -> Generation:
        from .baselines.tiny_transformer import torch_classes

        tc = torch_classes()
        torch = tc.torch
        model = self._load()
        ids = self.encode(prompt[-MAX_PROMPT:]) or [self._index.get("\n", 0)]
        gen = torch.Generator().manual_seed(int(seed) % (2 ** 63))
        cache = tc.KVCache(model.cfg.n_layers)
        out: list[int] = []
        with torch.no_grad():
            logits = model(torch.as_tensor(ids)[None], cache=cache)[0, -1]  # (V,)
            for _ in range(int(max_tokens)):
                if temperature <= 0:
                    nxt = int(torch.argmax(logits))
                else:
                    probs = torch.softmax(logits / temperature, dim=-1)  # (V,)
                    nxt = int(torch.multinomial(probs, 1, generator=gen))
                out.append(nxt)
                if stop and any(s in self.decode(out) for s in stop):
                    break
                logits = model(torch.as_tensor([[nxt]]), cache=cache)[0, -1]  # (V,)
        gen_ = Generation(cut_at_stop(self.decode(out), stop), len(ids), len(out))
        self.usage.add(gen_)
        return gen_

    def logprobs(self, prompt: str, continuation: str) -> list[float]:
        from .baselines.tiny_transformer import torch_classes

        torch = torch_classes().torch
        model = self._load()
        p, c = self.encode(prompt[-MAX_PROMPT:]), self.encode(continuation)
        if not c:
            return []
        ids = (p or [self._index.get("\n", 0)]) + c
        with torch.no_grad():
            logp = torch.log_softmax(model(torch.as_tensor(ids)[None])[0], dim=-1)  # (T, V)
        start = len(ids) - len(c)
        self.usage.add(Generation("", len(ids), 0))
        return [float(logp[t - 1, ids[t]]) for t in range(start, len(ids))]

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        from .baselines.tiny_transformer import torch_classes

        torch = torch_classes().torch
        model = self._load()
        rows = []
        with torch.no_grad():
            for t in texts:
                ids = self.encode(t[-MAX_PROMPT:]) or [self._unk]
                _, hidden = model(torch.as_tensor(ids)[None], return_hidden=True)
                rows.append(hidden[-1][0].mean(0).numpy())  # (d,)
        self.usage.add()
        return np.stack(rows).astype(np.float64)  # (n, d)

    def logits(self, ids: Sequence[int]) -> np.ndarray:
        """Next-token logits after ``ids`` (for methods that sample themselves, e.g. watermarks)."""
        from .baselines.tiny_transformer import torch_classes

        torch = torch_classes().torch
        model = self._load()
        with torch.no_grad():
            return model(torch.as_tensor(list(ids))[None])[0, -1].double().numpy()  # (V,)

    @property
    def vocab(self) -> list[str]:
        self._load()
        return list(self._vocab)
