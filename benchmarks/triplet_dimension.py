"""triplet_dimension: accuracy of d-dimensional triplet embeddings of D-dimensional instances.

The paper (theory only) proves that below a constant fraction c of the ground-truth dimension D
every embedding satisfies about half of the triplets. We fit d-dimensional embeddings (STE
objective, L-BFGS) to random instances realisable in D dimensions, for d / D from 1/D to 1 (2 in
full), next to the projection of the truth to d dimensions (an oracle reference) and the trivial
constant embedding (exactly 1/2), and read off the shape of accuracy against d / D.
"""
from __future__ import annotations

from claimbench.api import TIMING_RTOL
from claimbench.api import (Amendment, Benchmark, Claim, Grid, Headline, Metric, Paper, cfg, output_metric,
                           sweep)
from claimbench.baselines.constant_embedding import ConstantEmbedding
from claimbench.baselines.projection_embedding import ProjectionEmbedding
from claimbench.checks import Better, NotRun, Value
from claimbench.datasets.triplet_instances import TripletInstances, triplet_accuracy
from claimbench.methods.triplet_dimension import TripletEmbedding


def _train_acc(inst, out):
    return triplet_accuracy(out["X"], inst.data["train"])


def _test_acc(inst, out):
    return triplet_accuracy(out["X"], inst.truth["test"])


def _d_over_D(inst, out):
    return out["d"] / inst.data["D"]


METRICS = (
    Metric("train_acc", _train_acc, True, "fraction of the given (training) triplets satisfied; ties count 1/2"),
    Metric("test_acc", _test_acc, True, "fraction of held-out triplets of the same instance satisfied"),
    Metric("d_over_D", _d_over_D, False, "embedding dimension / ground-truth dimension"),
    output_metric("time_s", description="wall time of the fit (all restarts)"),
)

EPS = 0.05  # "at most 1/2 + eps": the paper gives no number; our choice, fixed before running


def _methods(ste: dict, ratios: tuple[float, ...]) -> tuple:
    """Same labels in every grid so claims resolve; fitting effort differs per grid."""
    out = [cfg(TripletEmbedding, label="ste[d=1]", d=1, **ste)]
    out += [cfg(TripletEmbedding, label=f"ste[d/D={r:g}]", d_ratio=r, **ste) for r in ratios]
    out += [cfg(ProjectionEmbedding, label="projection[d=1]", d=1)]
    out += [cfg(ProjectionEmbedding, label=f"projection[d/D={r:g}]", d_ratio=r) for r in ratios]
    out += [cfg(ConstantEmbedding)]
    return tuple(out)


_EVERY = ("\"we prove that there exists constant $c < 1$, such that \\emph{every embedding of "
          "dimension at most $cD$ violates almost half of the triplets}\" (abstract; c and eps not "
          "given numerically)")

# The abstract's checkable statements (ICML 2026 abstract), verbatim.
_Q_SUDDEN = ("unless the embedding dimension $d$ is chosen close to the ground-truth dimension $D$, accuracy "
             "undergoes a sudden collapse")
_Q_EVERY = "every embedding of dimension at most $cD$ violates almost half of the triplets"
_Q_TRIVIAL = "yielding accuracy as low as a trivial one-dimensional solution that ignores the input"
_Q_UGC = ("under the Unique Games Conjecture, even if the given triplets are nearly realizable in $D=1$ "
          "dimension, no polynomial-time algorithm")
# Issue 29: c1-c3 test random instances, about which the theorem says nothing.
_HARD_FAMILY = ("not run (issue 29): the theorem is existential over triplet sets it constructs (realizable in "
                "D dimensions, yet violated almost half by every embedding of dimension at most cD); on the "
                "random Gaussian and spherical instances of our grids it predicts nothing, so neither a pass nor "
                "a failure there bears on it. Not built yet: the paper's hard family as a dataset (its "
                "construction was not read: abstract and third-party summaries only), with this check on it")

CLAIMS = (
    Claim(
        id="c1_collapse_quarter",
        where="abstract / main theorem",
        text="There is c < 1 such that every embedding of dimension at most cD violates almost half of the "
             "triplets (accuracy no better than the trivial 1-D solution).",
        paper_value=_EVERY,
        check=NotRun(method="ste[d/D=0.25]", reason=_HARD_FAMILY + " (train accuracy of the fit at d = D/4 at "
                     "most 1/2 + eps)"),
        note="Instantiated with c = 1/4 (the research note's d = D/4 check) and eps = 0.05, both our "
             "choices: the paper's constants c, eps are not stated numerically in what we could read. "
             "Measured on the training triplets the fit saw (the theorem counts satisfied given "
             "triplets). Until issue 29: Value(ste[d/D=0.25], train_acc, mean <= 0.55) on random Gaussian "
             "and spherical instances, foils ste[d/D=1] and projection[d/D=1]; those cells still run and "
             "show the shape of accuracy against d / D on random instances.",
        source="paper",
    ),
    Claim(
        id="c2_collapse_d1_heldout",
        where="abstract",
        text="Far below the true dimension accuracy collapses to the 50% of a trivial 1-D embedding.",
        paper_value="\"yielding accuracy as low as a trivial one-dimensional solution that ignores "
                    "the input\" (abstract); the trivial solution's accuracy is 50%",
        check=NotRun(method="ste[d=1]", reason=_HARD_FAMILY + " (held-out accuracy of the 1-D fit at most "
                     "1/2 + eps)"),
        source="paper",
        note="Until issue 29: Value(ste[d=1], test_acc, mean <= 0.55) at D = 32, foils ste[d/D=1] and "
             "projection[d/D=1]. d = 1 at the largest D of the quick grid (d / D = 1/32), held-out "
             "triplets, Gaussian and spherical points; eps = 0.05 our choice. The research note's "
             "heuristic for a random 1-D projection of many isotropic points, 1/2 + arcsin(1/sqrt(D))/pi "
             "= 0.557 at D = 32, is not a bound on fitted embeddings (a 1-D fit can also encode each "
             "point's norm / centrality).",
    ),
    Claim(
        id="c3_every_embedding_projection",
        where="abstract ('every embedding of dimension at most cD')",
        text="Every embedding of dimension at most cD, whatever produced it, satisfies about half.",
        paper_value=_EVERY,
        check=NotRun(method="projection[d/D=0.25]", reason=_HARD_FAMILY + " (train accuracy of the oracle "
                     "projection to d = D/4 at most 1/2 + eps)"),
        source="paper",
        note="Until issue 29: Value(projection[d/D=0.25], train_acc, mean <= 0.55), foils projection[d/D=1] "
             "and ste[d/D=1]. Uses the PCA projection of the ground truth (an oracle reference that sees the "
             "true points) as a witness of the quantifier 'every': same c = 1/4, eps = 0.05 as c1.",
    ),
    Claim(
        id="c4_realisable_at_D",
        where="abstract (instances realisable in D dimensions)",
        text="At d = D the triplets are realisable, so (near-)perfect accuracy is attainable.",
        paper_value="\"given triplets realizable by an unknown ground-truth embedding in $D$ "
                    "dimensions\" (abstract; the premise: 100% attainable at d = D)",
        check=Value(method="ste[d/D=1]", metric="train_acc", lo=0.95),
        source="derived", basis="construction",
        foils=("constant", "ste[d/D=0.25]", "ste[d=1]"),
        foil_note="The constant embedding (exactly 1/2) and fits far below D must not reach "
                  "near-perfect accuracy.",
        note="lo = 0.95 (the brief's proposal; the note proposed 0.97) leaves room for the optimizer's "
             "imperfection: the theorem guarantees 100% exists, our L-BFGS must find it. A self-test "
             "of our generator and optimizer (our instances are realisable in D by construction), "
             "not a claim of the paper: basis construction since issue 26 (a positive control).",
    ),
    Claim(
        id="c5_sudden_drop",
        where="abstract ('sudden collapse')",
        text="Unless d is close to D, accuracy undergoes a sudden collapse.",
        paper_value="\"unless the embedding dimension $d$ is chosen close to the ground-truth "
                    "dimension $D$, accuracy undergoes a sudden collapse\" (abstract)",
        check=Better(method="ste[d/D=1]", baseline="ste[d/D=0.25]", metric="test_acc", margin=0.2),
        source="paper",
        foils=("ste[d/D=0.5]", "constant"),
        foil_note="A fit at d = D/2 is not close to D, so it must not clear D/4 by the collapse "
                  "margin; the constant embedding is below D/4.",
        note="Research note's check: held-out accuracy at d = D exceeds that at d = D/4 by more than 0.2 "
             "(paired over instances).",
    ),
    Claim(
        id="c6_ugc_hardness",
        where="abstract",
        text="Under the Unique Games Conjecture no polynomial-time algorithm, of any dimension, beats 50% on "
             "nearly 1-D-realizable triplets.",
        paper_value='"' + _Q_UGC + '---\\textit{regardless of its dimension}---can achieve accuracy above the '
                    'trivial 50% baseline" (abstract)',
        check=NotRun(method="ste[d=1]", reason="a computational hardness result under the Unique Games "
                     "Conjecture is a statement about every polynomial-time algorithm; no finite run of ours can "
                     "check it"),
        source="paper",
    ),
)

HEADLINES = (
    Headline(quote=_Q_SUDDEN, claims=("c5_sudden_drop",)),
    Headline(quote=_Q_EVERY, claims=("c1_collapse_quarter", "c3_every_embedding_projection")),
    Headline(quote=_Q_TRIVIAL, claims=("c2_collapse_d1_heldout",)),
    Headline(quote=_Q_UGC, claims=("c6_ugc_hardness",)),
)

_SMOKE_DATA = (cfg(TripletInstances, n=20, D=4, triplets_per_dof=10.0),)
_QUICK_DATA = sweep(TripletInstances, n=[60], D=[8, 32], points=["gaussian", "sphere"], triplets_per_dof=[20.0])
_FULL_DATA = sweep(TripletInstances, n=[300], D=[8, 16, 32], points=["gaussian", "sphere"])

BENCHMARK = Benchmark(
    slug="triplet_dimension",
    paper=Paper(
        title="Provable Accuracy Collapse in Embedding-Based Representations under Dimensionality Mismatch",
        arxiv="2605.03346",
        url="https://arxiv.org/abs/2605.03346",
        version="arXiv v1 (abstract and third-party summaries only)",
        authors="",  # not in the abstract pages we could read
    ),
    area="privacy_estimation",
    fidelity="proxy",
    methods=(TripletEmbedding,),
    baselines=(ProjectionEmbedding, ConstantEmbedding),
    datasets=(TripletInstances,),
    metrics=METRICS,
    primary_metric="train_acc",
    nondeterministic={"time_s": TIMING_RTOL},
    claims=CLAIMS,
    headlines=HEADLINES,
    grids={
        "smoke": Grid(datasets=_SMOKE_DATA, seeds=1,
                      methods=_methods({"restarts": 1, "max_iter": 50}, (0.25, 0.5, 1.0)),
                      note="20 points in D = 4, 640 training triplets, one short start per fit"),
        "quick": Grid(datasets=_QUICK_DATA, seeds=5,
                      methods=_methods({"restarts": 2, "max_iter": 300}, (0.25, 0.5, 1.0)),
                      note="60 Gaussian points, D in {8, 32}, m = 20 n D triplets (20% held out); "
                           "2 L-BFGS starts per fit"),
        "full": Grid(datasets=_FULL_DATA, seeds=5,
                     methods=_methods({"restarts": 5, "max_iter": 1000}, (0.125, 0.25, 0.5, 0.75, 1.0, 2.0)),
                     note="research note's plan: n = 300, D in {8, 16, 32}, Gaussian and spherical points, "
                          "m = 50 n D, 5 restarts"),
    },
    description="Triplet (ordinal) embeddings fitted in d dimensions to random triplets realisable in D "
                "dimensions: training and held-out accuracy against d / D, with the oracle projection of "
                "the truth and the constant 50% embedding as references.",
    amendments=(
        Amendment(date="2026-12-03", claims=tuple(c.id for c in CLAIMS),
                  what="source and foils declared (no mutant: the foils are the grid's own fits and "
                       "projections at other d, and the constant embedding); d/D = 0.5 added to the "
                       "smoke grid (a foil of c5); paper_value now quotes the abstract (c4: its "
                       "premise; c4 is our optimizer's sanity check, so derived)",
                  why="claims layer rebuilt around foils (issue 13); thresholds unchanged",
                  results_seen=True),
        Amendment(date="2026-12-06", claims=("c4_realisable_at_D",),
                  what="basis construction (source stays derived)",
                  why="issue 26: placed in the abstract but not the paper's claim: our generator "
                      "makes every instance realisable in D, and the check is a self-test that "
                      "our optimizer finds such a fit",
                  results_seen=True, rule="issue 26: construction basis"),
        Amendment(date="2026-12-06",
                  claims=("c1_collapse_quarter", "c2_collapse_d1_heldout", "c3_every_embedding_projection"),
                  what="Value(train_acc / test_acc <= 1/2 + 0.05) with foils -> NotRun with the reason (the "
                       "theorem's instances are not built); text 'violates half' -> 'violates almost half' "
                       "(the ICML abstract's words)",
                  why="issue 29: the theorem is about instances it constructs, so on random Gaussian instances "
                      "'not reproduced' read as 'the theorem fails' when it predicts nothing there; the issue "
                      "asks to build the hard family or declare these not_run",
                  results_seen=True),
        Amendment(date="2026-12-06", claims=("c6_ugc_hardness",),
                  what="headlines declared (the ICML abstract's 4 checkable statements, mapped to claims); the "
                       "UGC hardness result gets the not_run claim c6",
                  why="issue 29: every checkable statement of the abstract is declared and mapped; the UGC "
                      "hardness is not_run",
                  results_seen=True),
    ),
    fidelity_note="The paper is theory (no experiments, no code, no algorithm): its statement quantifies over "
                  "every embedding. We illustrate it with one optimizer (STE loss, L-BFGS) and an oracle "
                  "projection on random Gaussian instances; the paper's hard instances and constants (c, eps) "
                  "could not be read, so c = 1/4, eps = 0.05 are our choices and the measured shape on random "
                  "instances may be gradual rather than a collapse.",
)
