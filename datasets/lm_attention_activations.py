"""Real queries, keys and values: one layer of a small causal LM reading held-out text.

The LM is the toolkit's tiny transformer (``baselines/tiny_transformer.py``) trained on the
character-level CPython help-topics corpus (``datasets/python_docs_text.py``) through the
checkpoint cache, so every cell and every sparse-attention benchmark that names the same
``lm`` spec shares one trained model. ``make(seed)`` picks a validation window from the seed
(the unit of replication is the window; the model is fixed by ``model_seed``) and returns the
chosen layer's post-RoPE q, k and v: exactly what that layer's attention multiplies.

Deviation from the papers (7-14B LLMs at 32k-128k tokens): a 3-layer, 96-wide model read at a
few thousand characters, beyond its training context when ``context > lm["context"]`` (RoPE
extrapolation), so its maps are real but far smaller and less sharp than an LLM's. With the
optional ``extend_*`` keys of the ``lm`` spec the model is trained on for a few steps at a longer
context (context extension; pbs_attn trains 64 steps on windows of 2048 after 400 at 256): a
brief adaptation, far from models pre-trained on long documents.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np

from claimbench.api import Dataset, Instance

# 3 layers x 96 wide, 3 heads of 32, 400 steps on 8 windows of 256 characters: ~80 s on one thread
DEFAULT_LM = {"d_model": 96, "layers": 3, "heads": 3, "steps": 400, "batch": 8, "context": 256}


# Optional keys of an ``lm`` spec: continued training at a longer context (context extension, as
# long-context LLMs are made: pre-trained short, then trained on long windows). Absent (or
# extend_steps = 0): the model of the DEFAULT_LM keys alone, as before.
EXTEND_KEYS = ("extend_steps", "extend_context", "extend_lr")


def trained_lm(lm: dict, model_seed: int):
    """The cached character-level LM of spec ``lm``: ``(model, text data dict, history)``.

    With ``lm["extend_steps"] > 0`` the model of the base spec (the DEFAULT_LM keys) is trained
    on for ``extend_steps`` more steps on single windows of ``extend_context`` characters (peak
    learning rate ``extend_lr``, warm-up an eighth of the steps, cosine decay as the toolkit),
    through the checkpoint cache keyed on the base spec and the extension; the history is the
    extension's."""
    from claimbench.baselines import lm_training, tiny_transformer
    from claimbench.datasets import python_docs_text

    if int(lm.get("extend_steps", 0)) > 0:
        return _extended_lm(lm, model_seed)
    text = python_docs_text.PythonDocsText(level="char").make(0).data
    cfg = tiny_transformer.TransformerConfig(
        vocab_size=text["vocab_size"], d_model=lm["d_model"], n_layers=lm["layers"],
        n_heads=lm["heads"], d_ff=4 * lm["d_model"])
    tcfg = lm_training.TrainConfig(steps=lm["steps"], batch_size=lm["batch"], context=lm["context"],
                                   warmup=min(50, lm["steps"] // 5))
    batch_fn = lm_training.random_windows(text["train"], tcfg.batch_size, tcfg.context)
    model, hist, _ = lm_training.train_cached(cfg, tcfg, model_seed,
                                              {"corpus_sha": text["corpus_sha"], "lm": lm}, batch_fn)
    return model, text, hist


def _extended_lm(lm: dict, model_seed: int):
    from dataclasses import asdict

    from claimbench.baselines import lm_training, tiny_transformer
    from claimbench.checkpoints import cached_train

    base = {k: v for k, v in lm.items() if k not in EXTEND_KEYS}
    base_model, text, _ = trained_lm(base, model_seed)
    steps, context = int(lm["extend_steps"]), int(lm["extend_context"])
    tcfg = lm_training.TrainConfig(steps=steps, batch_size=1, context=context,
                                   lr=float(lm["extend_lr"]), warmup=max(1, steps // 8))
    batch_fn = lm_training.random_windows(text["train"], 1, context)
    key = {"base": {"corpus_sha": text["corpus_sha"], "lm": base, "seed": model_seed},
           "extend": asdict(tcfg), "seed": model_seed}

    def build():
        import copy
        return copy.deepcopy(base_model)

    def fit(model):
        return lm_training.train(model, batch_fn, tcfg, model_seed)

    model, hist, _ = cached_train(key, build, fit,
                                  sources=(tiny_transformer, lm_training.train, _extended_lm))
    model.eval()
    return model, text, hist


@dataclass
class LMAttentionActivations(Dataset):
    name: ClassVar[str] = "lm_attention_activations"
    context: int = 1024  # characters of held-out text (queries = keys)
    layer: int = 1  # which layer's attention (0-based): the middle one
    model_seed: int = 0  # the trained model; the cell seed picks the text window
    lm: dict = field(default_factory=lambda: dict(DEFAULT_LM))

    def __post_init__(self) -> None:
        missing = set(DEFAULT_LM) - set(self.lm)
        if missing:
            raise ValueError(f"lm spec lacks {sorted(missing)}; it needs all of {sorted(DEFAULT_LM)}")
        unknown = set(self.lm) - set(DEFAULT_LM) - set(EXTEND_KEYS)
        if unknown:
            raise ValueError(f"lm spec has unknown keys {sorted(unknown)}")
        if int(self.lm.get("extend_steps", 0)) > 0 and not all(k in self.lm for k in EXTEND_KEYS):
            raise ValueError(f"an extended lm spec needs all of {list(EXTEND_KEYS)}")
        if not 0 <= self.layer < self.lm["layers"]:
            raise ValueError(f"layer={self.layer}: the model has layers 0..{self.lm['layers'] - 1}")

    def make(self, seed: int) -> Instance:
        from claimbench.baselines import tiny_transformer

        torch = tiny_transformer.torch_classes().torch
        model, text, hist = trained_lm(self.lm, self.model_seed)
        val = text["val"]
        if self.context > len(val):
            raise ValueError(f"context={self.context} exceeds the validation text ({len(val)} characters)")
        start = int(np.random.default_rng(seed).integers(0, len(val) - self.context + 1))
        tokens = torch.as_tensor(val[start:start + self.context])[None]  # (1, T)
        attn = model.blocks[self.layer].mixer
        attn.keep_qkv = True
        try:
            with torch.no_grad():
                model(tokens)
            q, k, v = (t[0].numpy().astype(np.float32) for t in attn.last_qkv)  # (H, T, dh) each
        finally:
            attn.keep_qkv, attn.last_qkv = False, None
        data = {"q": q, "k": k, "v": v, "source": "lm", "start": start, "layer": self.layer,
                "lm_final_loss": float(hist["loss"][-1]) if hist and hist.get("loss") else None}
        return Instance(data=data, truth={"start": start})
