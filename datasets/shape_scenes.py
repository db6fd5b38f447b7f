"""Generated shape scenes for a tiny vision-language model, with induced object hallucinations.

A scene is a grid of ``grid x grid`` image patches, each a continuous feature vector of width
``embed_dim``. There are ``n_classes`` object classes, each with a fixed unit prototype vector
(drawn once from ``proto_seed``, shared by every seed). A scene holds 1..``max_objects`` distinct
objects, each on its own patch as ``s * prototype + noise`` with strength s ~ U(strength);
background patches are noise only (norm about ``noise``). Two mechanisms induce hallucinations
in a model trained to list the objects:

* distractor patches (misleading visual embeddings): with probability ``distractor_prob`` a
  scene gets 1-2 patches of *absent* classes at a weak strength ~ U(distractor_strength), which
  overlaps the real objects' range, and the caption does not list them;
* co-occurrence bias: classes come in pairs (2i, 2i+1); after drawing an object, its partner is
  added with probability ``cooccur``, so a model may name the partner from the prior alone.

The caption of a scene is its object classes in increasing order. The training split carries
its captions (it is the VLM's training data); the test split only its patches: which objects
are really present (``truth["test_present"]``) is hidden from the detectors and used by the
metrics to label each object the VLM mentions as real or hallucinated.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Dataset, Instance


def prototypes(n_classes: int, embed_dim: int, proto_seed: int) -> np.ndarray:
    """(n_classes, embed_dim) unit vectors, fixed by ``proto_seed``."""
    p = np.random.default_rng(proto_seed).normal(size=(n_classes, embed_dim))
    return p / np.linalg.norm(p, axis=1, keepdims=True)


def sample_scenes(n: int, rng: np.random.Generator, protos: np.ndarray, n_patches: int,
                  max_objects: int, strength: tuple, distractor_prob: float,
                  distractor_strength: tuple, noise: float, cooccur: float):
    """Patches (n, n_patches, D) float32, present (n, K) bool, distractor (n, K) bool."""
    K, D = protos.shape
    patches = rng.normal(scale=noise / np.sqrt(D), size=(n, n_patches, D))  # (n, P, D)
    present = np.zeros((n, K), dtype=bool)
    distract = np.zeros((n, K), dtype=bool)
    for i in range(n):
        n_obj = int(rng.integers(1, max_objects + 1))
        objs: list[int] = []
        while len(objs) < n_obj:
            c = int(rng.integers(K))
            if c in objs:
                continue
            objs.append(c)
            partner = c ^ 1
            if len(objs) < n_obj and partner < K and partner not in objs and rng.random() < cooccur:
                objs.append(partner)
        spots = rng.permutation(n_patches)
        for j, c in enumerate(objs):
            patches[i, spots[j]] += rng.uniform(*strength) * protos[c]
            present[i, c] = True
        if rng.random() < distractor_prob:
            absent = np.flatnonzero(~present[i])
            n_d = min(len(absent), int(rng.integers(1, 3)))
            for j, c in enumerate(rng.choice(absent, size=n_d, replace=False)):
                patches[i, spots[len(objs) + j]] += rng.uniform(*distractor_strength) * protos[c]
                distract[i, c] = True
    return patches.astype(np.float32), present, distract


def captions_of(present: np.ndarray, max_objects: int) -> np.ndarray:
    """(n, max_objects + 1) class ids in increasing order, padded with -1 (the end of caption)."""
    out = np.full((len(present), max_objects + 1), -1, dtype=np.int64)
    for i, row in enumerate(present):
        cls = np.flatnonzero(row)
        out[i, :len(cls)] = cls
    return out


@dataclass
class ShapeScenes(Dataset):
    """Scenes plus the tiny VLM that describes them (its size and training steps are part of the
    system under test, so they are dataset parameters; every detector probes the same model)."""

    name: ClassVar[str] = "shape_scenes"
    n_classes: int = 8  # ours
    grid: int = 4  # 4 x 4 = 16 patches (LLaVA-1.5: 24 x 24 = 576)
    embed_dim: int = 16  # ours
    max_objects: int = 3  # ours
    n_train: int = 4000  # ours
    n_test: int = 300  # ours (the paper samples 300 MSCOCO images, evaluate.py --num_data)
    strength: tuple = (0.6, 1.0)  # ours: real objects' strength
    distractor_prob: float = 0.6  # ours
    distractor_strength: tuple = (0.3, 0.7)  # ours: overlaps the real range (misleading patches)
    noise: float = 0.4  # ours: norm of a background patch
    cooccur: float = 0.5  # ours: P(partner added | object drawn)
    proto_seed: int = 0  # ours: the class prototypes, shared by every seed
    # the tiny VLM (trained once per seed through the checkpoint cache)
    d_model: int = 64  # ours
    n_layers: int = 4  # ours (LLaVA-1.5-7B: 32)
    steps: int = 300  # ours

    def make(self, seed: int) -> Instance:
        rng = np.random.default_rng(seed)
        protos = prototypes(self.n_classes, self.embed_dim, self.proto_seed)
        P = self.grid * self.grid
        kw = dict(protos=protos, n_patches=P, max_objects=self.max_objects,
                  strength=tuple(self.strength), distractor_prob=self.distractor_prob,
                  distractor_strength=tuple(self.distractor_strength), noise=self.noise,
                  cooccur=self.cooccur)
        tr_patches, tr_present, _ = sample_scenes(self.n_train, rng, **kw)
        te_patches, te_present, te_distract = sample_scenes(self.n_test, rng, **kw)
        vlm = dict(n_classes=self.n_classes, n_patches=P, embed_dim=self.embed_dim,
                   max_objects=self.max_objects, d_model=self.d_model, n_layers=self.n_layers,
                   steps=self.steps)
        data = {"train_patches": tr_patches,  # (n_train, P, D)
                "train_captions": captions_of(tr_present, self.max_objects),  # (n_train, M + 1)
                "test_patches": te_patches,  # (n_test, P, D)
                "vlm": vlm, "model_seed": int(seed),
                "data_key": {"dataset": self.name, "seed": int(seed),
                             **vars(self)}}
        return Instance(data=data, truth={"test_present": te_present,
                                          "test_distractor": te_distract})
