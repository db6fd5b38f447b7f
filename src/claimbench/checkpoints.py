"""A content-hashed cache of trained torch models, shared by the cells that evaluate them.

A cell that needs a trained model calls :func:`cached_train` with everything that decides the
weights (model and training configuration, data specification, seed) and the source files of
the code that builds and trains it. The key is a stable hash of both, so a change to any of
them trains afresh, exactly as a changed method re-runs its cell. Weights are stored as
safetensors (``<hash>.safetensors``) with a JSON sidecar (the key in clear, the training
history), under ``checkpoint_dir()``:

* ``$CLAIMBENCH_CHECKPOINTS`` when set;
* else ``checkpoints/`` beside the results store (``claimbench run --store`` sets the former);
* else ``results/checkpoints``.

Two workers asking for the same model at once do not both train it: the second waits on a
file lock and then loads. A crash mid-training leaves no checkpoint (files are written to a
temporary name and renamed), so the next call trains again.
"""
from __future__ import annotations

import fcntl
import inspect
import json
import os
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Mapping

from .grid import stable_hash
from .store import ENV_VAR as STORE_ENV_VAR

ENV_VAR = "CLAIMBENCH_CHECKPOINTS"


def checkpoint_dir() -> Path:
    if os.environ.get(ENV_VAR):
        return Path(os.environ[ENV_VAR])
    if os.environ.get(STORE_ENV_VAR):
        return Path(os.environ[STORE_ENV_VAR]).parent / "checkpoints"
    return Path("results") / "checkpoints"


def source_digest(objs) -> str:
    """Hash of the source files defining ``objs`` (modules, classes or functions)."""
    parts = []
    for obj in objs:
        path = inspect.getsourcefile(obj)
        if path is None:
            raise ValueError(f"no source file for {obj!r}: cannot key a checkpoint on it")
        parts.append((Path(path).name, Path(path).read_bytes().hex()))
    return stable_hash(sorted(parts))


def array_digest(*arrays) -> str:
    """Content hash of arrays (numpy or CPU torch tensors): dtype, shape and bytes of each, so
    a key can name the data a model was trained on (equal bytes in another shape differ)."""
    import hashlib

    import numpy as np

    h = hashlib.blake2b(digest_size=16)
    for a in arrays:
        a = np.ascontiguousarray(a.numpy() if hasattr(a, "numpy") else a)
        h.update(f"{a.dtype.str}:{a.shape};".encode())
        h.update(a.tobytes())
    return h.hexdigest()


def checkpoint_key(key: Mapping[str, Any], sources=()) -> str:
    return stable_hash(dict(key), source_digest(sources), n=16)


def cached_train(key: Mapping[str, Any], build: Callable[[], Any], fit: Callable[[Any], dict],
                 sources=(), folder: Path | None = None) -> tuple[Any, dict, bool]:
    """Return ``(model, history, hit)``: the model built by ``build()`` with the weights that
    ``fit(model)`` produced for this key, training only on a miss.

    ``key`` must be JSON-serialisable (dataclass fields as dicts) and name everything that
    decides the weights; ``sources`` the modules/classes whose code builds and trains the model.
    ``fit`` trains in place and returns a JSON-serialisable history.
    """
    from safetensors.torch import load_model, save_model

    folder = Path(folder) if folder is not None else checkpoint_dir()
    folder.mkdir(parents=True, exist_ok=True)
    digest = checkpoint_key(key, sources)
    weights, meta = folder / f"{digest}.safetensors", folder / f"{digest}.json"
    with _locked(folder, digest):
        model = build()
        if weights.exists() and meta.exists():
            load_model(model, str(weights))
            history = json.loads(meta.read_text())["history"]
            return model, history, True
        history = fit(model)
        tmp_w, tmp_m = weights.with_name(weights.name + ".tmp"), meta.with_name(meta.name + ".tmp")
        save_model(model, str(tmp_w))
        tmp_m.write_text(json.dumps({"key": dict(key), "history": history}, default=repr))
        os.replace(tmp_w, weights)
        os.replace(tmp_m, meta)
        return model, history, False


@contextmanager
def _locked(folder: Path, digest: str):
    """Hold ``<digest>.lock`` in ``folder``: a second worker asking for the same entry waits,
    then finds it made. Released when the file closes, even on a crash."""
    with open(folder / f"{digest}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def cached_arrays(key: Mapping[str, Any], compute: Callable[[], dict], sources=(),
                  folder: Path | None = None) -> dict:
    """``compute()`` (a dict of arrays) once per ``key`` and the source files of ``sources``,
    stored as ``<hash>.npz`` in ``samples/`` of the checkpoint folder, locked and written like
    :func:`cached_train`'s weights. For intermediates that are not a model (a sampler's draws):
    the same key recomputes the same arrays bit for bit, so the cache changes no result."""
    import numpy as np

    folder = Path(folder) if folder is not None else checkpoint_dir() / "samples"
    folder.mkdir(parents=True, exist_ok=True)
    digest = checkpoint_key(key, sources)
    path = folder / f"{digest}.npz"
    with _locked(folder, digest):
        if path.exists():
            with np.load(path) as z:
                return {k: z[k] for k in z.files}
        out = {k: np.asarray(v) for k, v in compute().items()}
        tmp = path.with_name(f"{digest}.tmp.npz")
        np.savez(tmp, **out)
        os.replace(tmp, path)
        return out
