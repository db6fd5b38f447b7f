"""Chain-of-thought in-context gradient descent (CoT-ICGD): a fixed one-layer attention executor
that runs GD on an N-layer ReLU network one CoT token at a time, with dynamical masking; and a
tiny transformer trained to emit the next GD iterate (CoT weight prediction).

Paper: Hong-Yu Chen, Venkat Sripad Ganti, Hude Liu, Jerry Yao-Chieh Hu, Han Liu,
"Chain-of-Thought Gradient Descent", ICML 2026 FoGen Workshop poster (PMLR v306, chen26ae),
https://openreview.net/forum?id=C5OIkV6jzM (read: the abstract and the first sentences of the
introduction; the body, its definitions and its numerical section were not available).

What is implemented (our reconstruction of the abstract, following the research note):

(1) CoT workspace. The prompt is a sequence of blocks: X = [x_1..x_n; 1] (d+1, n), Y = y (1, n)
    and the initial weights W_l^0 (w_l, w_{l-1} + 1), l = 1..N. Each GD step t appends 3N CoT
    tokens, one block each:  F_1..F_N (forward: H_l = [relu(W_l H_{l-1}); 1], F_N = W_N H_{N-1}),
    B_N..B_1 (backward: delta_N = (f - y) / n, delta_l = (W_{l+1}^T delta_{l+1}) * 1[H_l > 0]),
    U_1..U_N (update: W_l <- W_l - lr delta_l H_{l-1}^T). The generated sequence is the
    "expandable workspace": weights, activations and back-propagated signals.
(2) Executor. One attention layer with three heads and fixed weights. A token carries a tag
    (one-hot kind in {X, Y, W, F, B} and one-hot layer index, width independent of N and L)
    and a payload (its block, padded to the largest block). The token to be generated knows its
    own instruction (kind, layer) from the schedule; head h's query asks for one operand tag,
    scores are beta * <tag_q, tag_k> + gamma * position_k (the latest token with the tag wins;
    beta, gamma large enough that softmax is exactly one-hot in float64), and the value is the
    operand's payload. A fixed token-wise map then computes the block from the <= 3 operands
    (which operands: (1)). The depth and width do not depend on N or L.
(3) Dynamical masking. The query of each CoT token may attend only to the tokens its update
    needs (the <= 3 operands of (1), located by the schedule): O(1) keys per token, O(N L)
    attention for L steps. Without it (``masking="full"``) every token scores the whole prefix:
    O((N L)^2).
(4) Attention cost. ``attn_flops`` counts, for every generated token and head, 2 (tag + 1)
    multiply-adds per scored key and 2 P per value aggregated (P = payload width), i.e. the
    work of computing the scores and the weighted sum over the keys the mask leaves.
(5) Learned CoT (Huang, Wang & Lee, ICLR 2025 weight prediction): a 2-layer tiny transformer
    (``baselines/tiny_transformer.py``) reads the prompt tokens (x_i, y_i) and a chain of weight
    tokens w_0 = 0, w_1, ...; at the token w_t it outputs w_{t+1} (trained by teacher forcing,
    squared error, on GD trajectories of fresh prompts), and is rolled out on its own outputs for
    k steps at test time.

Deviations:
1. The paper's definitions (its block layout, its attention construction, the exact masking
   rule) were not read; (1)-(3) are our reconstruction of "dynamical masking" and "the generated
   sequence as an expandable workspace" from the abstract. The cost comparison with Wu et al.
   is against our count of their single-pass layout (``baselines/single_pass_icgd.py``), not
   against the paper's proof.
2. The token-wise map of (2) computes each block's arithmetic (matrix products, ReLU and its
   derivative) exactly; constructions in this literature approximate products and ReLU with
   attention/MLP gadgets within an error epsilon. What our executor tests is the CoT schedule,
   the retrieval by fixed attention, dynamical masking and the attention cost, not the
   approximation of arithmetic by neurons.
3. Hard retrieval: beta = 1e8, gamma = 300 make the softmax weights exactly 0 and 1 in float64
   (exp of every gap, >= 900 nats, underflows to 0), so the executor reproduces GD to
   round-off. With gamma = 30 the leak was a denormal (1e-315) that still flipped a ReLU
   derivative 1[H > 0] at an exact zero.
4. Scaled down: n = 32, d = 4, width 8, N <= 4 for the executor check, L <= 50 (research note);
   the cost sweep goes to N = 64, L = 16 (counts only). The learned part uses d = 4, n = 16,
   lr 0.5, K = 16 and a 2-layer, d_model 64 transformer trained 800 steps of 64 fresh prompts
   (quick grid; 10000 in the full grid) (ours).
5. The learned CoT model outputs real-valued iterates (a linear head on the toolkit's model,
   fed back as continuous ``embeds``), not discretised tokens.

Mutants for foils (field ``mutant``; the default "" is the method above; they run on the
executor-vs-GD prompts only, not on the cost sweep, where the first one overflows):
- ``no_relu_grad``: the backward block drops the ReLU derivative 1[H_l > 0] (a component of
  back-propagation removed); identical to GD for N = 1, wrong for N >= 2.
- ``stale_weights``: the dynamical mask points the weight operand at the prompt's W_l^0 instead
  of the latest update token (a wrong mask), so every step differentiates at W^0.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method
from claimbench.baselines import icl_weight_prediction as wp

KINDS = ("X", "Y", "W", "F", "B")
MAX_LAYERS = 64  # ours: layer one-hot width; a constant, so the executor's width is fixed
TAG = len(KINDS) + MAX_LAYERS + 1  # kind one-hot, layer one-hot (0..MAX_LAYERS)
BETA = 1e8  # ours (Deviation 3): a tag mismatch costs more than any recency difference
GAMMA = 300.0  # ours (Deviation 3): equal tags lie >= 3 tokens apart, the latest wins by >= 900
# nats, so the other weights underflow to exactly 0 (not to a denormal that flips a ReLU mask)
HEADS = 3  # operands of the widest update (backward and weight update)
MUTANTS = ("", "no_relu_grad", "stale_weights")


def tag_vector(kind: str, layer: int) -> np.ndarray:
    v = np.zeros(TAG)
    v[KINDS.index(kind)] = 1.0
    v[len(KINDS) + layer] = 1.0
    return v


def prompt_length(N: int) -> int:
    """X, Y and the N initial weight blocks."""
    return N + 2


def schedule(N: int, L: int) -> list[tuple[str, int, list[tuple[str, int]]]]:
    """Generated tokens in order: (kind, layer, operand tags). The operands' tags are the
    queries of the heads; each names the latest token with that tag (the current weights,
    this step's activation or delta)."""
    prev = lambda l: ("X", 0) if l == 1 else ("F", l - 1)  # noqa: E731 - H_{l-1}
    steps = []
    for _ in range(L):
        steps += [("F", l, [("W", l), prev(l)]) for l in range(1, N + 1)]
        steps.append(("B", N, [("F", N), ("Y", 0)]))
        steps += [("B", l, [("W", l + 1), ("B", l + 1), ("F", l)]) for l in range(N - 1, 0, -1)]
        steps += [("W", l, [("W", l), ("B", l), prev(l)]) for l in range(1, N + 1)]
    return steps


def block_op(kind: str, layer: int, N: int, ops: list[np.ndarray], lr: float,
             mutant: str = "") -> np.ndarray:
    """The fixed token-wise map: the new block from its retrieved operands (Deviation 2)."""
    if kind == "F":
        W, H = ops
        Z = W @ H  # (w_l, n)
        return Z if layer == N else np.vstack([np.maximum(Z, 0.0), np.ones((1, Z.shape[1]))])
    if kind == "B" and layer == N:
        f, y = ops
        return (f - y) / f.shape[1]  # (1, n)
    if kind == "B":
        W_next, delta_next, H = ops
        back = W_next[:, :-1].T @ delta_next  # (w_l, n)
        return back if mutant == "no_relu_grad" else back * (H[:-1] > 0)
    W, delta, H = ops
    return W - lr * delta @ H.T  # (w_l, w_{l-1} + 1)


def run_executor(data: dict, masking: str = "dynamic", mutant: str = "") -> dict:
    """Run the CoT program of L GD steps; returns final weights and the attention count."""
    X, y, W0, lr, L = data["X"], data["y"], data["W0"], data["lr"], int(data["L"])
    N = len(W0)
    if N > MAX_LAYERS:
        raise ValueError(f"N = {N} > MAX_LAYERS = {MAX_LAYERS}")
    if GAMMA * (prompt_length(N) + 3 * N * L) > BETA / 2:
        raise ValueError("sequence too long for exact retrieval at these beta, gamma")
    prompt = [("X", 0, np.vstack([X.T, np.ones((1, len(y)))])), ("Y", 0, y[None, :])]
    prompt += [("W", l + 1, W) for l, W in enumerate(W0)]
    prog = schedule(N, L)
    n_tok = len(prompt) + len(prog)
    n, w = len(y), max(W.shape[0] for W in W0)
    d_in = X.shape[1]
    P = max((d_in + 1) * n, (w + 1) * n, max(W.size for W in W0))  # payload width
    tags = np.zeros((n_tok, TAG + 1))  # key = [tag, position]
    values = np.zeros((n_tok, P))  # padded payloads
    shapes: list[tuple[int, int]] = []
    latest: dict[tuple[str, int], int] = {}

    def write(i: int, kind: str, layer: int, block: np.ndarray) -> None:
        tags[i, :TAG], tags[i, TAG] = tag_vector(kind, layer), float(i)
        values[i, :block.size] = block.ravel()
        shapes.append(block.shape)
        latest[(kind, layer)] = i

    for i, (kind, layer, block) in enumerate(prompt):
        write(i, kind, layer, block)
    pairs = flops = 0
    queries: dict[tuple[str, int], np.ndarray] = {}  # a head's query depends on its tag only
    for j, (kind, layer, operands) in enumerate(prog):
        i = len(prompt) + j
        ops = []
        for (ok, ol) in operands:
            q = queries.get((ok, ol))
            if q is None:
                q = queries[(ok, ol)] = np.concatenate([BETA * tag_vector(ok, ol),
                                                        [GAMMA]])  # (TAG + 1,)
            if masking == "dynamic":
                # the schedule's mask: the one relevant token (mutant: the prompt's W^0)
                keys = np.array([1 + ol if (mutant == "stale_weights" and ok == "W")
                                 else latest[(ok, ol)]])
                key_tags, key_values = tags[keys], values[keys]  # (1, TAG + 1), (1, P)
            else:
                keys = np.arange(i)  # full causal prefix
                # the prefix rows as views: the same numbers as tags[keys] without the copy
                key_tags, key_values = tags[:i], values[:i]  # (i, TAG + 1), (i, P)
            s = key_tags @ q  # (k,)
            a = np.exp(s - s.max())
            a /= a.sum()  # exactly one-hot (Deviation 3)
            src = keys[int(np.argmax(a))]
            flat = a @ key_values  # (P,)
            ops.append(flat[:int(np.prod(shapes[src]))].reshape(shapes[src]))
            pairs += len(keys)
            flops += len(keys) * (2 * (TAG + 1) + 2 * P)
        write(i, kind, layer, block_op(kind, layer, N, ops, lr, mutant))
    weights = [values[latest[("W", l)], :int(np.prod(shapes[latest[("W", l)]]))]
               .reshape(shapes[latest[("W", l)]]) for l in range(1, N + 1)]
    return {"weights": weights, "attn_pairs": float(pairs), "attn_flops": float(flops),
            "n_layers": 1.0, "cot_tokens": float(len(prog)), "width": float(TAG + 1 + P)}


@dataclass
class CoTExecutor(Method):
    name: ClassVar[str] = "cot_dynamic"
    masking: str = "dynamic"  # paper: dynamical masking; "full" = plain causal CoT (ablation)
    mutant: str = ""  # foils only, see the module docstring

    def applies_to(self, dataset) -> str | None:
        if getattr(dataset, "name", "") != "icgd_mlp_regression":
            return "the executor runs GD on an N-layer network prompt"
        if self.mutant and getattr(dataset, "study", "") == "cost":
            # foils of the exactness claim only; without the ReLU derivative deep nets overflow
            return "mutants are foils of the executor-vs-GD check, not of the cost sweep"
        return None

    def run(self, data, seed: int) -> dict:
        if self.masking not in ("dynamic", "full") or self.mutant not in MUTANTS:
            raise ValueError(f"masking={self.masking!r}, mutant={self.mutant!r}")
        t0 = time.perf_counter()
        out = run_executor(data, self.masking, self.mutant)
        out["wall_s"] = time.perf_counter() - t0
        return out


@dataclass
class CoTWeightPredictor(Method):
    """(5): emit w_{t+1} at the token w_t; roll out on its own outputs."""

    name: ClassVar[str] = "cot_transformer"
    d_model: int = 64  # ours (tiny scale); the note asks for a 2-layer model
    n_layers: int = 2  # research note: 2-layer tiny transformer
    n_heads: int = 4  # ours
    train_steps: int = 800  # ours: CPU budget, ~45 s CPU on one thread (quick grid)
    batch_size: int = 64  # ours
    lr: float = 1e-3  # ours

    def applies_to(self, dataset) -> str | None:
        return wp.applies(dataset)

    def run(self, data, seed: int) -> dict:
        model, hist = wp.train_model(self, data, seed, cot=True)
        pred = wp.rollout(model, data["X"], data["y"], data["K"])  # (T, K + 1, d)
        return {"pred": pred, "train_loss": hist["loss"][-1], "train_s": hist.get("wall_s", 0.0)}
