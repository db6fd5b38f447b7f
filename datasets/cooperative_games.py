"""Cooperative games with exact Shapley values by enumeration (p <= 10 players).

Every game stores the value of all 2^p coalitions once per instance (a coalition is the
bitmask k = sum_{i in S} 2^i), so a "costly" value function (retraining a model) is paid
once when the instance is made, and the ground-truth Shapley values come from the full table
(Shapley 1953: phi_i = sum_{S not containing i} |S|!(p-|S|-1)!/p! (v(S u i) - v(S))).

What a method may see (`data`): a :class:`CostlyGame` with the number of players, the
evaluation budget and `session()`, an oracle that answers value queries and counts them
(raising once the budget is spent). The exact Shapley values live in `truth` only.

Games:
* ``additive_interactions``: random main effects plus a few random higher-order unanimity
  terms, v(S) = sum_{i in S} w_i + sum_k c_k [T_k subset of S] (a sparse SOUM game).
* ``retrain_feature_importance``: v(S) = held-out R^2 of Ridge regression (scikit-learn's Ridge,
  solved in closed form for speed; a test checks they agree) refit on the feature subset S of
  load_diabetes (v(empty) = R^2 of the training mean).
* ``data_valuation``: v(S) = test accuracy of a scikit-learn decision tree trained on the
  union of the data groups in S (load_breast_cancer, some groups with flipped labels);
  v(empty) = 1/2, the accuracy of a coin flip.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np

from claimbench.api import Dataset, Instance

MAX_PLAYERS = 12  # the value table has 2^p entries


# -- coalition utilities ------------------------------------------------------------------
def coalition_matrix(p: int) -> np.ndarray:
    """All 2^p coalitions as a boolean matrix; row k is the bitmask k."""
    k = np.arange(2**p)
    return ((k[:, None] >> np.arange(p)[None, :]) & 1).astype(bool)  # (2^p, p)


def coalition_index(Z: np.ndarray) -> np.ndarray:
    """Bitmask index of each row of a boolean coalition matrix."""
    Z = np.atleast_2d(np.asarray(Z, dtype=bool))
    return (Z.astype(np.int64) << np.arange(Z.shape[1])[None, :]).sum(axis=1)  # (m,)


def shapley_weights(p: int) -> np.ndarray:
    """w(s) = s! (p-s-1)! / p! for s = 0..p-1 (weight of a marginal contribution to |S| = s)."""
    return np.array([math.factorial(s) * math.factorial(p - s - 1) / math.factorial(p)
                     for s in range(p)])


def shapley_matrix(p: int) -> np.ndarray:
    """The linear map phi = A v over the value table: A[i, T] = w(|T|-1) if i in T else -w(|T|)."""
    Z = coalition_matrix(p)
    size = Z.sum(axis=1)
    w = np.append(shapley_weights(p), 0.0)  # w(p) never used with a minus sign: pad
    return np.where(Z.T, w[np.maximum(size - 1, 0)][None, :], -w[size][None, :])  # (p, 2^p)


def exact_shapley(values: np.ndarray) -> np.ndarray:
    p = int(round(math.log2(len(values))))
    return shapley_matrix(p) @ np.asarray(values, dtype=float)  # (p,)


# -- the object a method sees -------------------------------------------------------------
class BudgetExceeded(RuntimeError):
    pass


class GameSession:
    """Answers value queries and counts them; every query costs one evaluation."""

    def __init__(self, table: np.ndarray, n_players: int, budget: int):
        self._table = table
        self.n_players = n_players
        self.budget = budget
        self.n_evals = 0

    @property
    def remaining(self) -> int:
        return self.budget - self.n_evals

    def __call__(self, Z: np.ndarray) -> np.ndarray:
        idx = coalition_index(Z)
        if self.n_evals + len(idx) > self.budget:
            raise BudgetExceeded(f"{self.n_evals} + {len(idx)} evaluations > budget {self.budget}")
        self.n_evals += len(idx)
        return self._table[idx].copy()  # (m,)


@dataclass
class CostlyGame:
    name: str
    n_players: int
    budget: int
    _table: np.ndarray = field(repr=False)

    def session(self) -> GameSession:
        return GameSession(self._table, self.n_players, self.budget)


def _budget(p: int, factor: float) -> int:
    return int(min(2**p, max(2, round(factor * p))))


def _instance(name: str, table: np.ndarray, p: int, budget_factor: float) -> Instance:
    table = np.asarray(table, dtype=float)  # (2^p,)
    phi = exact_shapley(table)
    game = CostlyGame(name, p, _budget(p, budget_factor), table)
    return Instance(data=game, truth={"phi": phi, "v_empty": table[0], "v_full": table[-1]})


def _check_p(p: int) -> None:
    if not 2 <= p <= MAX_PLAYERS:
        raise ValueError(f"p must be in [2, {MAX_PLAYERS}], got {p}")


# -- games --------------------------------------------------------------------------------
def soum_values(p: int, main: np.ndarray, sets: list[np.ndarray], coefs: np.ndarray) -> np.ndarray:
    """Value table of v(S) = sum_i main_i [i in S] + sum_k coefs_k [sets_k subset of S]."""
    Z = coalition_matrix(p)
    v = Z @ main  # (2^p,)
    for T, c in zip(sets, coefs):
        v = v + c * Z[:, T].all(axis=1)
    return v


@dataclass
class AdditiveInteractionGame(Dataset):
    name: ClassVar[str] = "additive_interactions"
    p: int = 8  # players; the paper's synthetic games are not specified (our choice)
    budget_factor: float = 1.0  # budget = factor * p evaluations (the note: p, 2p, 4p, 8p)
    n_interactions: int | None = None  # None: p random interaction terms (our choice)
    max_order: int = 3  # interaction orders 2..max_order (our choice)
    interaction_scale: float = 1.0  # sd of interaction coefficients relative to main effects (our choice)

    def make(self, seed: int) -> Instance:
        _check_p(self.p)
        rng = np.random.default_rng(seed)
        main = rng.standard_normal(self.p)
        k = self.p if self.n_interactions is None else self.n_interactions
        orders = rng.integers(2, self.max_order + 1, size=k)
        sets = [rng.choice(self.p, size=int(o), replace=False) for o in orders]
        coefs = self.interaction_scale * rng.standard_normal(k)
        return _instance(self.name, soum_values(self.p, main, sets, coefs), self.p, self.budget_factor)


def _fit_all_coalitions(p: int, fit_score, empty_value: float) -> np.ndarray:
    Z = coalition_matrix(p)
    table = np.empty(2**p)
    table[0] = empty_value
    for k in range(1, 2**p):
        table[k] = fit_score(Z[k])
    return table


def ridge_fit_predict(Xtr: np.ndarray, ytr: np.ndarray, Xte: np.ndarray, alpha: float) -> np.ndarray:
    """sklearn.linear_model.Ridge(alpha).fit(Xtr, ytr).predict(Xte), in closed form (fit_intercept=True)."""
    mx, my = Xtr.mean(axis=0), ytr.mean()
    Xc = Xtr - mx
    coef = np.linalg.solve(Xc.T @ Xc + alpha * np.eye(Xtr.shape[1]), Xc.T @ (ytr - my))
    return (Xte - mx) @ coef + my


def r2(y: np.ndarray, pred: np.ndarray) -> float:
    return float(1.0 - np.sum((y - pred) ** 2) / np.sum((y - y.mean()) ** 2))


@dataclass
class RetrainFeatureImportance(Dataset):
    name: ClassVar[str] = "retrain_feature_importance"
    p: int = 8  # features drawn at random from load_diabetes' 10 (our choice)
    budget_factor: float = 1.0
    alpha: float = 1.0  # Ridge penalty (our choice; the paper uses TabPFN)
    test_frac: float = 0.5  # held-out share of the 442 rows (our choice)

    def make(self, seed: int) -> Instance:
        from sklearn.datasets import load_diabetes

        _check_p(self.p)
        rng = np.random.default_rng(seed)
        X, y = load_diabetes(return_X_y=True)
        if self.p > X.shape[1]:
            raise ValueError(f"load_diabetes has {X.shape[1]} features, asked for {self.p}")
        feats = rng.choice(X.shape[1], size=self.p, replace=False)
        perm = rng.permutation(len(y))
        n_test = int(round(self.test_frac * len(y)))
        te, tr = perm[:n_test], perm[n_test:]
        X = (X - X[tr].mean(0)) / X[tr].std(0)
        Xtr, Xte = X[tr][:, feats], X[te][:, feats]  # (n_tr, p), (n_te, p)

        def score(mask):
            return r2(y[te], ridge_fit_predict(Xtr[:, mask], y[tr], Xte[:, mask], self.alpha))

        empty = r2(y[te], np.full(len(te), y[tr].mean()))
        return _instance(self.name, _fit_all_coalitions(self.p, score, empty), self.p, self.budget_factor)


@dataclass
class DataValuation(Dataset):
    name: ClassVar[str] = "data_valuation"
    p: int = 8  # data groups (players) (our choice)
    budget_factor: float = 1.0
    group_size: int = 5  # training points per group (our choice)
    noisy_frac: float = 0.25  # share of groups whose labels are flipped (our choice)
    n_test: int = 200  # test points (our choice)
    max_depth: int = 3  # decision tree depth (our choice; the paper retrains RF/GB)

    def make(self, seed: int) -> Instance:
        import sklearn
        from sklearn.datasets import load_breast_cancer
        from sklearn.tree import DecisionTreeClassifier

        _check_p(self.p)
        rng = np.random.default_rng(seed)
        X, y = load_breast_cancer(return_X_y=True)
        perm = rng.permutation(len(y))
        n_train = self.p * self.group_size
        tr, te = perm[:n_train], perm[n_train:n_train + self.n_test]
        ytr = y[tr].copy()
        groups = np.arange(n_train) // self.group_size  # (n_train,)
        noisy = rng.choice(self.p, size=int(round(self.noisy_frac * self.p)), replace=False)
        flip = np.isin(groups, noisy)
        ytr[flip] = 1 - ytr[flip]
        # float32 C-contiguous inputs let the tree skip input validation (it casts to float32 anyway)
        Xtr, Xte = (np.ascontiguousarray(X[idx], dtype=np.float32) for idx in (tr, te))
        yte = y[te]

        def score(mask):
            rows = mask[groups]
            model = DecisionTreeClassifier(max_depth=self.max_depth, random_state=0)
            model.fit(Xtr[rows], ytr[rows], check_input=False)
            return float(np.mean(model.predict(Xte, check_input=False) == yte))

        # The 2^p - 1 fits are sklearn-overhead bound: its per-call checks of the parameters
        # (fixed above) and of finiteness (the data are finite) are skipped; fits unchanged.
        with sklearn.config_context(skip_parameter_validation=True, assume_finite=True):
            table = _fit_all_coalitions(self.p, score, 0.5)
        return _instance(self.name, table, self.p, self.budget_factor)
