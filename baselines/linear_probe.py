"""Linear probing of frozen embeddings: a logistic-regression classifier trained on fixed
features, at full data and k-shot (k examples per class), scored by the Matthews correlation.

    z = (phi(x) - mu_train) / sd_train,   p(y = 1 | x) = sigmoid(w^T z + b),
    (w, b) = argmin  sum_i logloss(y_i, w^T z_i + b) + ||w||^2 / (2 C)       (scikit-learn lbfgs)
    MCC = (TP TN - FP FN) / sqrt((TP + FP)(TP + FN)(TN + FP)(TN + FN))   (0 when a margin is 0)

k-shot: k training examples drawn without replacement from each class (as in GENEB's harness,
arXiv 2606.04525), several draws averaged.
"""
from __future__ import annotations

import numpy as np


def mcc(y: np.ndarray, pred: np.ndarray) -> float:
    y, pred = np.asarray(y).astype(bool), np.asarray(pred).astype(bool)
    tp, tn = float(np.sum(y & pred)), float(np.sum(~y & ~pred))
    fp, fn = float(np.sum(~y & pred)), float(np.sum(y & ~pred))
    den = (tp + fp) * (tp + fn) * (tn + fp) * (tn + fn)
    return 0.0 if den == 0 else (tp * tn - fp * fn) / np.sqrt(den)


def standardise(Ftr: np.ndarray, Fte: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    mu, sd = Ftr.mean(axis=0), Ftr.std(axis=0)
    sd = np.where(sd < 1e-12, 1.0, sd)
    return (Ftr - mu) / sd, (Fte - mu) / sd


def fit_predict(Ftr: np.ndarray, ytr: np.ndarray, Fte: np.ndarray, C: float = 1.0,
                max_iter: int = 1000) -> np.ndarray:
    """Test predictions (n_test,) of a standardised logistic-regression probe."""
    from sklearn.linear_model import LogisticRegression

    if len(np.unique(ytr)) < 2:
        return np.full(len(Fte), ytr[0])
    Ztr, Zte = standardise(Ftr, Fte)
    clf = LogisticRegression(C=C, max_iter=max_iter).fit(Ztr, ytr)
    return clf.predict(Zte)


def kshot_indices(y: np.ndarray, k: int, rng: np.random.Generator) -> np.ndarray:
    """k indices per class, drawn without replacement (fewer if a class is smaller)."""
    return np.concatenate([rng.choice(np.flatnonzero(y == c), size=min(k, int(np.sum(y == c))),
                                      replace=False) for c in np.unique(y)])
