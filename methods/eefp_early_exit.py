"""Early-Exit Failure Prediction (EEFP) and an EEFP-trained exit confidence.

Paper: "Rethinking Calibration for Early-Exit Neural Networks" (arXiv v3; v1 title "Failure
Prediction Is a Better Performance Proxy for Early-Exit Networks Than Calibration"),
P. Kubaty, G. Choczynski, F. Szatkowski, M. Jazbec, E. Nalisnick, B. Wojcik.
arXiv 2508.21495, https://arxiv.org/abs/2508.21495. Text read: the v1 and v3 abstracts and
the v1 results table (ECE / EEFP / accuracy at 25-50-75% FLOPs); the body (the exact EEFP
formula and the proposed procedure) could not be retrieved offline, and the authors' code
(gmum/rethinking-calibration-for-eenns) is not in the store. Both are reconstructed below.
Code files read: none. Checked again on 2026-12-06 (issue 30, which asked to take the label
and the procedure from that code): the snapshot fetch answers that no snapshot of the
repository can be had, the file index lists no file of it, and a code search for EEFP finds
none of its files; the stored arXiv v1 HTML page yields only its abstract and the start of
its introduction. So definitions (1)-(4) below stay our reconstruction, unchanged and
unverified against the authors' code (deviations 1 and 2). The only description of the label
found is a generated third-party summary of the paper in the code index (not the authors'
words, not a source); its wording matches our label (1): right now, or wrong at every later
exit.

Implemented (E exits, exit i has confidence c_i(x) and prediction yhat_i(x)):
  (1) EEFP label at an intermediate exit i < E:
          s_i(x) = 1  if yhat_i(x) = y  or  yhat_j(x) != y for every later exit j > i,
          s_i(x) = 0  otherwise (wrong now, and some later exit would be right).
      "Exiting at i costs nothing": either the answer is right, or further computation buys
      nothing. Plain failure prediction would use 1[yhat_i = y] only; the second clause is the
      cost of further computation the abstract says EEFP accounts for.
  (2) EEFP_i = AUROC of c_i for predicting s_i (Mann-Whitney, ties counted 1/2).
  (3) EEFP = mean of EEFP_i over the intermediate exits i = 1..E-1 whose s_i has both classes.
  (4) EEFP-motivated exit confidence ("replaces calibration"): after the multi-exit network is
      trained, a logistic-regression head per intermediate exit is fitted on the held-out
      split (the split temperature scaling uses) to predict s_i from features of exits <= i
          phi_i = [max p_i, top-1 minus top-2 of p_i, entropy(p_i)/log C, 1[yhat_i = yhat_{i-1}],
                   max p_{i-1}, one-hot(yhat_i)],
      and its probability g_i(x) = P(s_i = 1 | phi_i) is the exit confidence: the sample stops
      at the first exit with g_i >= threshold. The last exit keeps max softmax.
  (5) Proxy study (the paper's "EEFP tracks the trade-off better than ECE"): K networks with
      perturbed training (label smoothing, epochs, weight decay) and random per-exit
      temperatures; the metrics correlate (Spearman) EEFP and -ECE with the cost-accuracy area.

Deviations:
  1. EEFP label (1)-(3) is our reconstruction from the abstract ("accounts for both prediction
     correctness and the cost of further computation"); the paper may weight by exit cost.
     Not compared with the authors' code, which could not be read (see Text read).
  2. Procedure (4) is our reconstruction of "a lightweight, EEFP-motivated procedure to improve
     the intermediate classifiers": the paper's may retrain or fine-tune the heads; ours leaves
     the classifiers' predictions untouched and learns only the exit confidence, post hoc, on
     the same validation split that temperature scaling uses. Not compared with the authors'
     code either (see Text read).
  3. Scale: a 4-exit MLP on 8x8 digits / make_classification instead of MSDNet on CIFAR-100 and
     ViT / EfficientNet on ImageNet; cost = analytic FLOPs of the MLP.
  4. Proxy study (5): the paper correlates metrics with performance across models and
     calibration methods; our perturbation family and K are our choice (research note's plan).

Mutants for foils (not the paper's method; the default mutant="" is unchanged bit for bit):
  swap_proxies (EEFPProxyStudy): the same perturbed networks, with the two proxies' roles
     exchanged, ECE in EEFP's place and EEFP in ECE's (the study flags its outputs and the
     benchmark's rho metrics swap them). It is the reading "ECE reflects performance at least
     as reliably as EEFP" that the claim rules out; a claim comparing two metrics of one study
     has no other method that could take the study's place.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method
from claimbench.baselines.early_exit_network import PlainEarlyExit, softmax, train_multi_exit

# ---------------------------------------------------------------------------------------------
# the EEFP score


def eefp_labels(correct: np.ndarray) -> np.ndarray:
    """(E-1, N) eq. (1): 1 where exiting at exit i loses nothing."""
    correct = np.asarray(correct, dtype=bool)  # (E, N)
    later = np.zeros_like(correct)  # later[i] = some exit j > i is correct
    for i in range(correct.shape[0] - 2, -1, -1):
        later[i] = later[i + 1] | correct[i + 1]
    return (correct | ~later)[:-1]


def auroc(score: np.ndarray, label: np.ndarray) -> float | None:
    """P(score of a positive > score of a negative) + 1/2 P(tie); None with one class only."""
    from scipy.stats import rankdata

    label = np.asarray(label, dtype=bool)
    n_pos, n_neg = int(label.sum()), int((~label).sum())
    if n_pos == 0 or n_neg == 0:
        return None
    ranks = rankdata(np.asarray(score, float))  # average ranks handle ties
    return float((ranks[label].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg))


def eefp_score(conf: np.ndarray, correct: np.ndarray) -> float | None:
    """Eq. (3): mean over intermediate exits of AUROC(c_i, s_i)."""
    labels = eefp_labels(correct)  # (E-1, N)
    vals = [auroc(c, s) for c, s in zip(np.asarray(conf)[:-1], labels)]
    vals = [v for v in vals if v is not None]
    return float(np.mean(vals)) if vals else None


# ---------------------------------------------------------------------------------------------
# the EEFP-trained exit confidence


def exit_features(probs: np.ndarray, i: int) -> np.ndarray:
    """(N, 5 + C) features phi_i of eq. (4) from the exits' probabilities (E, N, C)."""
    p = probs[i]  # (N, C)
    n, C = p.shape
    top2 = np.sort(p, axis=1)[:, -2:]  # (N, 2)
    ent = -(p * np.log(np.clip(p, 1e-12, 1.0))).sum(axis=1) / np.log(C)  # (N,)
    pred = p.argmax(axis=1)  # (N,)
    prev = probs[i - 1] if i > 0 else p  # (N, C)
    agree = (prev.argmax(axis=1) == pred).astype(float)  # (N,)
    onehot = np.eye(C)[pred]  # (N, C)
    return np.column_stack([top2[:, 1], top2[:, 1] - top2[:, 0], ent, agree,
                            prev.max(axis=1), onehot])


def fit_eefp_heads(val_probs: np.ndarray, y_val: np.ndarray, reg_c: float):
    """One logistic regression per intermediate exit, fitted to s_i on the validation split.

    Returns a list with a fitted model or None (a split with a single class: keep max softmax).
    """
    from sklearn.linear_model import LogisticRegression

    correct = val_probs.argmax(axis=-1) == y_val[None, :]  # (E, Nv)
    labels = eefp_labels(correct)  # (E-1, Nv)
    heads = []
    for i, s in enumerate(labels):
        if s.all() or not s.any():
            heads.append(None)
            continue
        heads.append(LogisticRegression(C=reg_c, max_iter=2000).fit(exit_features(val_probs, i), s))
    return heads


def eefp_confidence(probs: np.ndarray, heads: list) -> np.ndarray:
    """(E, N) exit confidences: g_i for intermediate exits, max softmax where no head."""
    conf = probs.max(axis=-1)  # (E, N)
    for i, h in enumerate(heads):
        if h is not None:
            conf[i] = h.predict_proba(exit_features(probs, i))[:, 1]
    return conf


@dataclass
class EEFPEarlyExit(PlainEarlyExit):
    """The plain multi-exit network whose exit confidences are EEFP-trained heads, eq. (4)."""

    name: ClassVar[str] = "eefp"
    reg_c: float = 1.0  # inverse L2 strength of the heads (our choice: sklearn default)

    def run(self, data: dict, seed: int) -> dict:
        t0 = time.perf_counter()
        predict = self.fit_network(data, seed)
        heads = fit_eefp_heads(softmax(predict(data["X_val"])), np.asarray(data["y_val"]),
                               self.reg_c)
        probs = softmax(predict(data["X_test"]))  # (E, N, C)
        return {"probs": probs, "conf": eefp_confidence(probs, heads), "costs": self.costs(data),
                "time_s": time.perf_counter() - t0}


# ---------------------------------------------------------------------------------------------
# the proxy study


@dataclass
class EEFPProxyStudy(Method):
    """K perturbed multi-exit networks, eq. (5); metrics correlate EEFP / ECE with the area."""

    name: ClassVar[str] = "proxy_study"
    n_variants: int = 8  # our choice (research note: 20 across the study; full grid: 20)
    widths: tuple = (8, 16, 32, 64)  # as PlainEarlyExit
    lr: float = 1e-2  # as PlainEarlyExit
    batch_size: int = 256  # as PlainEarlyExit
    label_smoothings: tuple = (0.0, 0.1, 0.2, 0.3)  # research note: "label smoothing"
    epoch_choices: tuple = (5, 10, 20, 40)  # our choice (PlainEarlyExit: 40)
    weight_decays: tuple = (0.0, 1e-4, 1e-3)  # our choice
    log2_temp_range: float = 1.0  # per-exit T ~ 2^U[-1, 1] (research note: "random temperatures")
    mutant: str = ""  # foil only: "swap_proxies" (see Mutants above); "" is the study itself

    def run(self, data: dict, seed: int) -> dict:
        if self.mutant not in ("", "swap_proxies"):
            raise ValueError(f"unknown mutant {self.mutant!r}")
        t0 = time.perf_counter()
        rng = np.random.default_rng([seed, 7919])
        costs = PlainEarlyExit(widths=self.widths).costs(data)
        variants = []
        for k in range(self.n_variants):
            ls = float(rng.choice(self.label_smoothings))
            ep = int(rng.choice(self.epoch_choices))
            wd = float(rng.choice(self.weight_decays))
            temps = 2.0 ** rng.uniform(-self.log2_temp_range, self.log2_temp_range, len(self.widths))
            predict = train_multi_exit(data["X_train"], data["y_train"], data["n_classes"],
                                       self.widths, ep, self.lr, self.batch_size, wd, ls,
                                       int(rng.integers(2**62)))
            probs = softmax(predict(data["X_test"]) / temps[:, None, None])  # (E, N, C)
            variants.append({"probs": probs, "conf": probs.max(axis=-1),
                             "params": {"label_smoothing": ls, "epochs": ep, "weight_decay": wd,
                                        "temperatures": temps.tolist()}})
        out = {"variants": variants, "costs": costs, "time_s": time.perf_counter() - t0}
        if self.mutant:
            out["swap_proxies"] = True
        return out
