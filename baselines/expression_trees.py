"""Benchmark programs as expression trees, for genetic programming over test functions.

A program maps a batch ``X (n, d)`` to ``f (n,)``. Its genome is a tree of vector-valued
nodes plus a random shift ``o`` and rotation ``Q`` (drawn once when the program is born and
inherited by its offspring, as BBOB instances shift and rotate a base function):

* terminals: ``x`` = X - o, ``r`` = (X - o) Q (rotated, non-separable), ``n`` = x with its
  coordinates rolled by one (neighbour coupling), constants ``("c", value)``;
* unary: neg, sin, cos, abs, sq, sqrt(|.|), exp (argument clipped to [-30, 30]), log(1 + |.|),
  tanh, and the reductions ``mean`` / ``max`` over coordinates (shape (n, 1), broadcast back);
* binary: add, sub, mul, div = a / sqrt(1 + b^2) (protected, smooth);
* output: the mean over coordinates of the root value, clipped to +-CLIP (NaN -> CLIP).

Trees are nested tuples ``(op, child, ...)``; depth counts nodes on the longest root-leaf
path (a lone terminal has depth 1). Trees compile once to a numpy expression (cached).
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

CLIP = 1e10
VARIABLES = ("x", "r", "n")
UNARY = {
    "neg": "(-{0})", "sin": "np.sin({0})", "cos": "np.cos({0})", "abs": "np.abs({0})",
    "sq": "np.square({0})", "sqrt": "np.sqrt(np.abs({0}))",
    "exp": "np.exp(np.clip({0}, -30.0, 30.0))", "log": "np.log1p(np.abs({0}))",
    "tanh": "np.tanh({0})", "mean": "np.mean({0} + _Z0, axis=1, keepdims=True)",
    "max": "np.max({0} + _Z0, axis=1, keepdims=True)",
}
BINARY = {"add": "({0} + {1})", "sub": "({0} - {1})", "mul": "({0} * {1})",
          "div": "({0} / np.sqrt(1.0 + np.square({1})))"}
TERMINAL_CODE = {"x": "_X", "r": "_R", "n": "_N"}
P_BINARY = 0.5  # share of binary nodes among internal ones; our choice
P_VARIABLE = 0.75  # share of variables among terminals; our choice
CONST_RANGE = 5.0  # constants uniform in [-5, 5], rounded to 0.1; our choice


# -- structure ----------------------------------------------------------------------------
def depth(tree) -> int:
    if tree[0] in VARIABLES or tree[0] == "c":
        return 1
    return 1 + max(depth(c) for c in tree[1:])


def size(tree) -> int:
    if tree[0] in VARIABLES or tree[0] == "c":
        return 1
    return 1 + sum(size(c) for c in tree[1:])


def has_variable(tree) -> bool:
    if tree[0] in VARIABLES:
        return True
    if tree[0] == "c":
        return False
    return any(has_variable(c) for c in tree[1:])


def is_valid(tree, max_depth: int) -> bool:
    """Known ops with the right arities, depth within the limit, at least one variable."""

    def ok(t) -> bool:
        op = t[0]
        if op in VARIABLES:
            return len(t) == 1
        if op == "c":
            return len(t) == 2 and np.isfinite(t[1])
        if op in UNARY:
            return len(t) == 2 and ok(t[1])
        if op in BINARY:
            return len(t) == 3 and ok(t[1]) and ok(t[2])
        return False

    return ok(tree) and depth(tree) <= max_depth and has_variable(tree)


def paths(tree, prefix=()) -> list[tuple]:
    """Every node's path (child indices from the root), pre-order."""
    out = [prefix]
    if tree[0] in UNARY or tree[0] in BINARY:
        for i, child in enumerate(tree[1:], start=1):
            out.extend(paths(child, prefix + (i,)))
    return out


def get_subtree(tree, path):
    for i in path:
        tree = tree[i]
    return tree


def replace_subtree(tree, path, new):
    if not path:
        return new
    i = path[0]
    return tree[:i] + (replace_subtree(tree[i], path[1:], new),) + tree[i + 1:]


# -- random generation ---------------------------------------------------------------------
def random_terminal(rng):
    if rng.random() < P_VARIABLE:
        return (VARIABLES[rng.integers(len(VARIABLES))],)
    return ("c", round(float(rng.uniform(-CONST_RANGE, CONST_RANGE)), 1))


def random_tree(rng, max_depth: int, method: str = "grow"):
    """Koza's grow / full generation with depth <= max_depth (``full``: exactly max_depth)."""
    if max_depth <= 1:
        return random_terminal(rng)
    n_fun = len(UNARY) + len(BINARY)
    if method == "grow" and rng.random() < len(VARIABLES) / (len(VARIABLES) + n_fun):
        return random_terminal(rng)
    if rng.random() < P_BINARY:
        op = list(BINARY)[rng.integers(len(BINARY))]
        return (op, random_tree(rng, max_depth - 1, method), random_tree(rng, max_depth - 1, method))
    op = list(UNARY)[rng.integers(len(UNARY))]
    return (op, random_tree(rng, max_depth - 1, method))


def ramped_tree(rng, min_depth: int, max_depth: int, tries: int = 100):
    """Ramped half-and-half, redrawn until the tree contains a variable (not a constant)."""
    for _ in range(tries):
        d = int(rng.integers(min_depth, max_depth + 1))
        tree = random_tree(rng, d, "full" if rng.random() < 0.5 else "grow")
        if has_variable(tree):
            return tree
    return ("x",)


def new_program(rng, dim: int, min_depth: int, max_depth: int) -> dict:
    return {"tree": ramped_tree(rng, min_depth, max_depth),
            "shift": rng.uniform(-4.0, 4.0, size=dim),  # (d,) like BBOB's x_opt range
            "rot": random_rotation(rng, dim)}  # (d, d)


def random_rotation(rng, dim: int) -> np.ndarray:
    q, r = np.linalg.qr(rng.standard_normal((dim, dim)))
    return q * np.sign(np.diag(r))  # (d, d) Haar-distributed


# -- evaluation ----------------------------------------------------------------------------
def to_code(tree) -> str:
    op = tree[0]
    if op in TERMINAL_CODE:
        return TERMINAL_CODE[op]
    if op == "c":
        return repr(float(tree[1]))
    if op in UNARY:
        return UNARY[op].format(to_code(tree[1]))
    return BINARY[op].format(to_code(tree[1]), to_code(tree[2]))


def to_string(tree) -> str:
    op = tree[0]
    if op in VARIABLES:
        return op
    if op == "c":
        return f"{tree[1]:g}"
    return f"{op}({', '.join(to_string(c) for c in tree[1:])})"


@lru_cache(maxsize=4096)
def _compiled(tree):
    return compile(to_code(tree), "<program>", "eval")


@lru_cache(maxsize=64)
def _roll_index(d: int) -> np.ndarray:
    return (np.arange(d) - 1) % d  # (d,) column j takes column j - 1: np.roll(Z, 1, axis=1)


def evaluate(program: dict, X) -> np.ndarray:
    # Called for single points thousands of times per portfolio run, so the per-call overhead
    # is kept low; every value is the same as the plain numpy calls give: np.roll (a copy),
    # v.mean(axis=1) (the same sum divided by the count), np.nan_to_num then np.clip (NaN ->
    # CLIP, and the clip maps +-inf to +-CLIP).
    X = np.atleast_2d(np.asarray(X, dtype=float))  # (n, d)
    Z = X - program["shift"]  # (n, d)
    env = {"np": np, "_X": Z, "_R": Z @ program["rot"], "_N": Z[:, _roll_index(Z.shape[1])],
           "_Z0": np.zeros(Z.shape)}  # _Z0 lifts a scalar (constant subtree) to (n, d)
    with np.errstate(all="ignore"):
        v = np.asarray(eval(_compiled(program["tree"]), env), dtype=float)
        if v.ndim < 2:
            v = np.broadcast_to(v, (X.shape[0], 1))
        y = np.add.reduce(v, axis=1) / v.shape[1]  # (n,)
        y[np.isnan(y)] = CLIP
    return np.minimum(np.maximum(y, -CLIP), CLIP)


def program_function(program: dict):
    return lambda X: evaluate(program, X)


# -- variation (used by the GP in methods/eob_benchmark.py) --------------------------------
def subtree_mutation(rng, tree, max_depth: int, tries: int = 20):
    """Replace a uniformly chosen node by a fresh grown subtree that keeps depth <= max_depth."""
    nodes = paths(tree)
    for _ in range(tries):
        path = nodes[rng.integers(len(nodes))]
        room = max_depth - len(path)
        new = random_tree(rng, int(rng.integers(1, room + 1)), "grow")
        child = replace_subtree(tree, path, new)
        if has_variable(child) and depth(child) <= max_depth:
            return child
    return tree


def subtree_crossover(rng, a, b, max_depth: int, tries: int = 20):
    """Koza's crossover: a's subtree at a random node replaced by a random subtree of b."""
    pa, pb = paths(a), paths(b)
    for _ in range(tries):
        path = pa[rng.integers(len(pa))]
        donor = get_subtree(b, pb[rng.integers(len(pb))])
        if len(path) + depth(donor) > max_depth:
            continue
        child = replace_subtree(a, path, donor)
        if has_variable(child):
            return child
    return a
