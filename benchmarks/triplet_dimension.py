"""triplet_dimension: accuracy of d-dimensional triplet embeddings of D-dimensional instances.

The paper (theory only) proves that below a constant fraction c of the ground-truth dimension D
every embedding satisfies about half of the triplets. We fit d-dimensional embeddings (STE
objective, L-BFGS) to random instances realisable in D dimensions, for d / D from 1/D to 1 (2 in
full), next to the projection of the truth to d dimensions (an oracle reference) and the trivial
constant embedding (exactly 1/2), and read off the shape of accuracy against d / D.
"""
from __future__ import annotations

from claimbench.api import TIMING_RTOL
from claimbench.api import Amendment, Benchmark, Claim, Grid, Metric, Paper, cfg, output_metric, sweep
from claimbench.baselines.constant_embedding import ConstantEmbedding
from claimbench.baselines.projection_embedding import ProjectionEmbedding
from claimbench.checks import Better, Value
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

CLAIMS = (
    Claim(
        id="c1_collapse_quarter",
        where="abstract / main theorem",
        text="There is c < 1 such that every embedding of dimension at most cD violates half of the "
             "triplets (accuracy no better than the trivial 1-D solution).",
        paper_value=_EVERY,
        check=Value(method="ste[d/D=0.25]", metric="train_acc", hi=0.5 + EPS),
        note="Instantiated with c = 1/4 (the research note's d = D/4 check) and eps = 0.05, both our "
             "choices: the paper's constants c, eps are not stated numerically in what we could read. "
             "Measured on the training triplets the fit saw (the theorem counts satisfied given "
             "triplets). Random Gaussian instances, not the paper's hard instances: a failure says "
             "c < 1/4 here.",
        source="paper",
        foils=("ste[d/D=1]", "projection[d/D=1]"),
        foil_note="At d = D the instance is realisable, so a fit there must not look collapsed.",
    ),
    Claim(
        id="c2_collapse_d1_heldout",
        where="abstract",
        text="Far below the true dimension accuracy collapses to the 50% of a trivial 1-D embedding.",
        paper_value="\"yielding accuracy as low as a trivial one-dimensional solution that ignores "
                    "the input\" (abstract); the trivial solution's accuracy is 50%",
        check=Value(method="ste[d=1]", metric="test_acc", hi=0.5 + EPS, where={"D": 32}),
        source="paper",
        foils=("ste[d/D=1]", "projection[d/D=1]"),
        foil_note="Embeddings at the true dimension are not 'far below' it and must not collapse.",
        note="d = 1 at the largest D of the quick grid (d / D = 1/32), held-out triplets, Gaussian and "
             "spherical points; eps = 0.05 our choice. The research note's heuristic for a random 1-D "
             "projection of many isotropic points, 1/2 + arcsin(1/sqrt(D))/pi = 0.557 at D = 32, is not a "
             "bound on fitted embeddings (a 1-D fit can also encode each point's norm / centrality).",
    ),
    Claim(
        id="c3_every_embedding_projection",
        where="abstract ('every embedding of dimension at most cD')",
        text="Every embedding of dimension at most cD, whatever produced it, satisfies about half.",
        paper_value=_EVERY,
        check=Value(method="projection[d/D=0.25]", metric="train_acc", hi=0.5 + EPS),
        source="paper",
        foils=("projection[d/D=1]", "ste[d/D=1]"),
        foil_note="The projection (or a fit) at d = D keeps every triplet; it must not pass as "
                  "collapsed.",
        note="Uses the PCA projection of the ground truth (an oracle reference that sees the true points) "
             "as a witness of the quantifier 'every': same c = 1/4, eps = 0.05 as c1.",
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
    ),
    fidelity_note="The paper is theory (no experiments, no code, no algorithm): its statement quantifies over "
                  "every embedding. We illustrate it with one optimizer (STE loss, L-BFGS) and an oracle "
                  "projection on random Gaussian instances; the paper's hard instances and constants (c, eps) "
                  "could not be read, so c = 1/4, eps = 0.05 are our choices and the measured shape on random "
                  "instances may be gradual rather than a collapse.",
)
