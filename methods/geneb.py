"""GENEB's comparison protocol: frozen featurisers, linear probes, category-aware rankings,
full-data and 10-shot regimes.

Paper: Daria Ledneva, Mikhail Nuridinov, Denis Kuznetsov, "GENEB: Why Genomic Models Are Hard to
Compare", arXiv 2606.04525 (ICML 2026), https://arxiv.org/abs/2606.04525. Read: the abstract,
third-party summaries of the body (picx.dev, paperglide), the research note
/work/shared/papers/geneb.md and the authors' probe code (github darlednik/GENEB,
embedding_pipeline/pipeline/classification.py). The body's tables were not read.

Protocol (one run = one generated task suite, every featuriser probed on every task):
  1. for featuriser f and task t: a logistic-regression probe on the frozen features of the full
     training set; its test MCC is S_full[t, f];
  2. k-shot: k = 10 training examples per class, ``few_shot_draws`` draws, mean test MCC
     S_few[t, f];
  3. category score C[c, f] = mean_{t in c} S[t, f]; aggregate A[f] = mean_c C[c, f] (macro over
     categories, MTEB style);
  4. statistics of the protocol (the outputs):
     tau_cat_agg       = mean_c KendallTau_b(C_full[c, :], A_full)        rank disagreement
     winner_change_frac = mean_c 1[argmax_f C_full[c, f] != argmax_f C_few[c, f]]
     selection_gain    = mean_c ( C^B[c, w_c^A] - C^B[c, w_agg^A] ), w_c^A = argmax_f C^A[c, f],
                         w_agg^A = argmax_f A^A[f]; A/B = the two halves of each test set, then
                         A and B swapped and averaged (held-out value of category-aware selection
                         over the aggregate leaderboard, full data)
     fewshot_regret    = the same with 10-shot scores, comparing the 10-shot winner chosen on A
                         with the full-data winner chosen on A, both scored 10-shot on B
     scale_spearman    = Spearman(feature dimension of f, A_full[f])
     ceiling_drop_spearman = Spearman(A_full^A[f], A_full^B[f] - A_few^B[f])   (halves keep the
                         ceiling's noise out of the drop)

Featuriser sets (field ``featurisers``):
  "zoo"      k-mer spectra k = 1..kmax, random CNNs of growing width, position-aware random
             projections of growing dimension (baselines/kmer_spectrum.py,
             random_conv_features.py, random_projection_features.py): the GENEB analogue of
             many models of different families and scales;
  foils (featuriser sets for which the paper's findings should not appear; not the paper's):
  "noisy_copies"  one base featuriser (k-mer 1-2 spectrum + width-16 CNN + 32-d projection,
             standardised) with Gaussian noise of std sigma in ``noise_levels`` added to every
             feature: one featuriser dominates in every category by construction;
  "replicas" the width-32 random CNN with ``n_replicas`` different initialisation seeds:
             statistically identical models, so any ranking difference is noise;
  "diluted"  the 3-mer spectrum with d irrelevant N(0, 1) features appended, d in
             ``dilution_dims``: scale (dimension) grows and only hurts.

Deviations:
  1. The 40 genomic foundation models are replaced by frozen featurisers computed here; the
     "scale" axis is the feature dimension (k-mers have no parameters). No pretrained model: the
     research note's masked-LM CNN pretrained in-suite is not implemented.
  2. Tasks are generated (datasets/genomic_tasks.py), 13 categories with one planted rule each;
     the heterogeneity of which featuriser sees which rule is by construction.
  3. Features are standardised on the probe's training set before the probe (the authors' code
     fits scikit-learn's LogisticRegression on raw embeddings).
  4. The full-data probe is fit once (lbfgs is deterministic; the authors refit it with 5
     random_state values, which do not change lbfgs).
  5. 1-shot is not run; the half-split statistics (selection_gain, fewshot_regret, the halves in
     ceiling_drop_spearman) are ours, added to separate disagreement from measurement noise.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method
from claimbench.baselines.kmer_spectrum import kmer_counts, spectrum
from claimbench.baselines.linear_probe import fit_predict, kshot_indices, mcc
from claimbench.baselines.random_conv_features import random_conv_features
from claimbench.baselines.random_projection_features import random_projection_features

FEATURISER_SETS = ("zoo", "noisy_copies", "replicas", "diluted")


def _std_all(F: np.ndarray) -> np.ndarray:
    sd = F.std(axis=0)
    return (F - F.mean(axis=0)) / np.where(sd < 1e-12, 1.0, sd)


def featurisers(which: str, kmax: int = 6, cnn_widths=(8, 32, 128), proj_dims=(16, 64, 256),
                noise_levels=(0.0, 1.0, 3.0), n_replicas: int = 6,
                dilution_dims=(0, 64, 256, 1024)) -> list[tuple[str, int, object]]:
    """[(label, scale, fn(X, rng) -> features (n, dim))]; rng draws any per-sequence noise."""
    if which == "zoo":
        out = [(f"kmer{k}", 4 ** k, lambda X, rng, k=k: kmer_counts(X, k))
               for k in range(1, kmax + 1)]
        out += [(f"cnn{w}", 2 * w, lambda X, rng, w=w: random_conv_features(X, w, seed=1))
                for w in cnn_widths]
        out += [(f"proj{d}", d, lambda X, rng, d=d: random_projection_features(X, d, seed=2))
                for d in proj_dims]
        return out
    if which == "noisy_copies":
        def base(X):
            return _std_all(np.concatenate([spectrum(X, (1, 2)), random_conv_features(X, 16, seed=1),
                                            random_projection_features(X, 32, seed=2)], axis=1))
        def noisy(X, rng, s):
            F = base(X)  # (n, 84)
            return F + s * rng.standard_normal(F.shape)
        return [(f"noisy{s:g}", 84, lambda X, rng, s=s: noisy(X, rng, s)) for s in noise_levels]
    if which == "replicas":
        return [(f"cnn32_seed{r}", 64, lambda X, rng, r=r: random_conv_features(X, 32, seed=10 + r))
                for r in range(n_replicas)]
    if which == "diluted":
        return [(f"kmer3+{d}", 64 + d, lambda X, rng, d=d: np.concatenate(
            [_std_all(kmer_counts(X, 3)), rng.standard_normal((len(X), d))], axis=1))
                for d in dilution_dims]
    raise ValueError(f"unknown featuriser set {which!r}; one of {FEATURISER_SETS}")


def _kendall(a, b) -> float | None:
    from scipy.stats import kendalltau

    t = kendalltau(a, b).statistic
    return None if not np.isfinite(t) else float(t)


def _spearman(a, b) -> float | None:
    from scipy.stats import spearmanr

    if np.ptp(a) == 0 or np.ptp(b) == 0:
        return None
    r = spearmanr(a, b).statistic
    return None if not np.isfinite(r) else float(r)


def by_category(S: np.ndarray, cats: list[str]) -> tuple[list[str], np.ndarray]:
    """(categories in order of appearance, (n_cat, n_feat) mean over each category's tasks)."""
    names = list(dict.fromkeys(cats))
    idx = np.array([names.index(c) for c in cats])
    return names, np.stack([S[idx == i].mean(axis=0) for i in range(len(names))])


def selection_gain(CA: np.ndarray, CB: np.ndarray, pick_A: np.ndarray | None = None) -> float:
    """mean_c CB[c, argmax CA[c]] - CB[c, pick], pick = argmax of the aggregate of CA (or
    ``pick_A[c]``, a per-category alternative choice made on A)."""
    win = CA.argmax(axis=1)  # (n_cat,)
    alt = np.full(len(CA), CA.mean(axis=0).argmax()) if pick_A is None else pick_A
    rows = np.arange(len(CA))
    return float(np.mean(CB[rows, win] - CB[rows, alt]))


def protocol_statistics(S: dict, cats: list[str], scales: np.ndarray) -> dict:
    """The protocol's statistics from per-task score matrices S[key] of shape (n_task, n_feat),
    keys full, fullA, fullB, few, fewA, fewB."""
    _, C = zip(*[(k, by_category(S[k], cats)[1]) for k in ("full", "fullA", "fullB",
                                                             "few", "fewA", "fewB")])
    Cf, CfA, CfB, Cw, CwA, CwB = C
    agg = Cf.mean(axis=0)
    taus = [t for t in (_kendall(Cf[c], agg) for c in range(len(Cf))) if t is not None]
    gain = 0.5 * (selection_gain(CfA, CfB) + selection_gain(CfB, CfA))
    regret = 0.5 * (selection_gain(CwA, CwB, CfA.argmax(axis=1))
                    + selection_gain(CwB, CwA, CfB.argmax(axis=1)))
    return {
        "tau_cat_agg": float(np.mean(taus)) if taus else None,
        "winner_change_frac": float(np.mean(Cf.argmax(axis=1) != Cw.argmax(axis=1))),
        "selection_gain": gain,
        "fewshot_regret": regret,
        "scale_spearman": _spearman(np.log(scales), agg),
        "ceiling_drop_spearman": _spearman(CfA.mean(axis=0), CfB.mean(axis=0) - CwB.mean(axis=0)),
        "best_agg_mcc": float(agg.max()),
        "mean_fewshot_drop": float(np.mean(agg - Cw.mean(axis=0))),
    }


@dataclass
class GENEB(Method):
    """The GENEB protocol on one featuriser set; outputs the protocol's statistics."""

    name: ClassVar[str] = "geneb"
    featurisers: str = "zoo"  # ours: which featuriser set stands in for the 40 models
    shots: int = 10  # GENEB: 10-shot regime (abstract; authors' harness shots=(1, 10))
    few_shot_draws: int = 5  # authors' harness: seeds (13, 17, 42, 123, 997)
    C: float = 1.0  # authors' harness: scikit-learn LogisticRegression default C
    max_iter: int = 1000  # authors' harness: LogisticRegression(max_iter=1000)
    kmax: int = 6  # ours: k-mer spectra k = 1..kmax in the zoo
    cnn_widths: tuple = (8, 32, 128)  # ours
    proj_dims: tuple = (16, 64, 256)  # ours
    noise_levels: tuple = (0.0, 1.0, 3.0)  # ours (foil "noisy_copies")
    n_replicas: int = 6  # ours (foil "replicas")
    dilution_dims: tuple = (0, 64, 256, 1024)  # ours (foil "diluted")

    def run(self, data, seed):
        t0 = time.perf_counter()
        feats = featurisers(self.featurisers, self.kmax, self.cnn_widths, self.proj_dims,
                            self.noise_levels, self.n_replicas, self.dilution_dims)
        tasks = data["tasks"]
        nT, nF = len(tasks), len(feats)
        S = {k: np.zeros((nT, nF)) for k in ("full", "fullA", "fullB", "few", "fewA", "fewB")}
        for t, task in enumerate(tasks):
            ytr, yte = task["y_train"], task["y_test"]
            X = np.concatenate([task["x_train"], task["x_test"]])  # (n_tr + n_te, L)
            ntr = len(ytr)
            hA = np.arange(len(yte)) % 2 == 0  # test halves A / B
            draws = [kshot_indices(ytr, self.shots, np.random.default_rng([seed, t, d]))
                     for d in range(self.few_shot_draws)]
            for f, (_, _, fn) in enumerate(feats):
                F = fn(X, np.random.default_rng([seed, t, 1000 + f]))  # (n, dim)
                Ftr, Fte = F[:ntr], F[ntr:]
                p = fit_predict(Ftr, ytr, Fte, self.C, self.max_iter)
                S["full"][t, f] = mcc(yte, p)
                S["fullA"][t, f], S["fullB"][t, f] = mcc(yte[hA], p[hA]), mcc(yte[~hA], p[~hA])
                few = np.zeros(3)
                for idx in draws:
                    q = fit_predict(Ftr[idx], ytr[idx], Fte, self.C, self.max_iter)
                    few += (mcc(yte, q), mcc(yte[hA], q[hA]), mcc(yte[~hA], q[~hA]))
                S["few"][t, f], S["fewA"][t, f], S["fewB"][t, f] = few / len(draws)
        cats = [task["category"] for task in tasks]
        scales = np.array([s for _, s, _ in feats], dtype=float)
        out = protocol_statistics(S, cats, scales)
        names, Cf = by_category(S["full"], cats)
        _, Cw = by_category(S["few"], cats)
        out.update(time_s=time.perf_counter() - t0, n_featurisers=nF,
                   featuriser_labels=[lab for lab, _, _ in feats], categories=names,
                   category_mcc_full=Cf.round(4).tolist(), category_mcc_few=Cw.round(4).tolist())
        return out
