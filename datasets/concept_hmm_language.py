"""A "concept language": a sticky hidden Markov model whose hidden states are planted concepts.

K concepts (the hidden states) each emit words from their own random support of ``support``
words out of a vocabulary of V (Dirichlet(1) weights on the support), so most words belong to
two or more concepts and the concept of a token is only identifiable from its context. A
concept persists with probability ``p_stay`` per token, else jumps along a random transition
row (Dirichlet(1) over the other K - 1 concepts): segments of about 1 / (1 - p_stay) tokens.

Every token carries its ground-truth concept (``truth["val_concepts"]``, metrics only). The
truth also holds the HMM itself, so a metric can score a model against the Bayes-optimal
predictor (:func:`hmm_window_nll`, the forward algorithm restarted on every evaluation window
exactly as ``lm_training.eval_nll`` restarts the model).

``study="lm"``: a training stream of ``n_train`` tokens and a validation stream of ``n_val``.
``study="cost"``: one sequence of ``T`` tokens, on which a method measures the cost of its
token mixer against the sequence length (no training data).
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Dataset, Instance

STUDIES = ("lm", "cost")


def make_hmm(rng: np.random.Generator, n_concepts: int, vocab: int, support: int,
             p_stay: float) -> dict:
    """Transition matrix A (K, K), emission matrix E (K, V) and stationary distribution pi."""
    K = n_concepts
    A = np.zeros((K, K))
    for k in range(K):
        others = [j for j in range(K) if j != k]
        A[k, others] = (1 - p_stay) * rng.dirichlet(np.ones(K - 1))
        A[k, k] = p_stay
    E = np.zeros((K, vocab))
    for k in range(K):
        words = rng.choice(vocab, size=support, replace=False)
        E[k, words] = rng.dirichlet(np.ones(support))
    # Stationary distribution: left eigenvector of A for eigenvalue 1.
    w, v = np.linalg.eig(A.T)
    pi = np.real(v[:, np.argmin(np.abs(w - 1))])
    pi = pi / pi.sum()
    return {"A": A, "E": E, "pi": pi}


def sample_hmm(rng: np.random.Generator, hmm: dict, n: int) -> tuple[np.ndarray, np.ndarray]:
    """(tokens, concepts), both (n,), the chain started from its stationary distribution."""
    A, E, pi = hmm["A"], hmm["E"], hmm["pi"]
    K, V = E.shape
    u = rng.random(n)  # (n,)
    cumA = np.cumsum(A, axis=1)  # (K, K)
    # The state each uniform draw leads to from every state, searched all at once; the chain
    # then only looks its path up (a per-token searchsorted call cost ~2 us x 200k tokens).
    nxt = np.minimum(np.stack([np.searchsorted(row, u) for row in cumA]), K - 1).tolist()  # (K, n)
    path = [min(int(np.searchsorted(np.cumsum(pi), u[0])), K - 1)]
    for t in range(1, n):
        path.append(nxt[path[-1]][t])
    z = np.asarray(path, dtype=np.int64)  # (n,)
    tokens = np.empty(n, dtype=np.int64)  # (n,)
    for k in range(K):
        idx = np.flatnonzero(z == k)
        tokens[idx] = rng.choice(V, size=idx.size, p=E[k])
    return tokens, z


_WINDOW_NLL: dict[str, float] = {}  # content hash -> value: every method of a seed asks


def hmm_window_nll(tokens: np.ndarray, hmm: dict, context: int) -> float:
    """Bayes-optimal next-token NLL (nats/token) on the windows ``lm_training.eval_nll`` scores:
    consecutive windows of ``context`` inputs, each predicting its next ``context`` tokens from
    that window alone (forward algorithm restarted at the stationary distribution)."""
    A, E, pi = hmm["A"], hmm["E"], hmm["pi"]
    h = hashlib.blake2b(str(context).encode(), digest_size=16)
    for arr in (tokens, A, E, pi):
        arr = np.ascontiguousarray(arr)
        h.update(f"{arr.dtype}{arr.shape}".encode())
        h.update(arr.tobytes())
    key = h.hexdigest()
    if key not in _WINDOW_NLL:
        _WINDOW_NLL[key] = _window_nll(tokens, A, E, pi, context)
    return _WINDOW_NLL[key]


def _window_nll(tokens, A, E, pi, context: int) -> float:
    n = (len(tokens) - 1) // context
    total = 0.0
    for w in range(n):
        seq = tokens[w * context: (w + 1) * context + 1]  # (context + 1,)
        belief = pi.copy()  # (K,) p(z_t | x_<t)
        for t, x in enumerate(seq):
            if t > 0:  # the first token of a window is an input only, never a target
                total -= np.log(belief @ E[:, x])
            post = belief * E[:, x]
            belief = (post / post.sum()) @ A
    return total / (n * context)


@dataclass
class ConceptHMMLanguage(Dataset):
    name: ClassVar[str] = "concept_hmm_language"
    study: str = "lm"  # "lm": train/val streams; "cost": one sequence of T tokens
    n_concepts: int = 8  # planted concepts K (ours; the note's plan: "K planted latent concepts")
    vocab: int = 48  # ours: small enough for a CPU, large enough for overlapping supports
    support: int = 12  # ours: words per concept; 8 x 12 / 48 = 2 concepts per word on average
    p_stay: float = 0.9  # ours: concept segments of ~10 tokens, so context identifies them
    n_train: int = 200_000  # ours (training stream, tokens)
    n_val: int = 16_384  # ours (validation stream, tokens)
    T: int = 0  # cost study only: sequence length whose mixer cost is measured

    def make(self, seed: int) -> Instance:
        if self.study not in STUDIES:
            raise ValueError(f"study={self.study!r}; valid: {STUDIES}")
        rng = np.random.default_rng(seed)
        hmm = make_hmm(rng, self.n_concepts, self.vocab, self.support, self.p_stay)
        if self.study == "cost":
            if self.T < 2:
                raise ValueError("the cost study needs T >= 2")
            tokens, _ = sample_hmm(rng, hmm, self.T)
            return Instance(data={"study": "cost", "vocab": self.vocab, "tokens": tokens},
                            truth={"T": self.T})
        train, _ = sample_hmm(rng, hmm, self.n_train)
        val, val_z = sample_hmm(rng, hmm, self.n_val)
        data = {"study": "lm", "vocab": self.vocab, "train": train, "val": val}
        truth = {"val_concepts": val_z, "hmm": hmm, "n_concepts": self.n_concepts}
        return Instance(data=data, truth=truth)
