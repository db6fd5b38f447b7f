"""Don't Guess the Future, Find the Bottleneck (OpenReview wVBVa09JVV): spectral key points.

Offline goal-conditioned navigation in many-room grid mazes from noisy random-walk data. The
paper's Laplacian key points (spectral clustering of the dataset graph, boundary-crossing
medoids, shortest path over the key-point graph) against a flat goal-conditioned policy,
HIQL-like time-based subgoals and a GAS-like k-means node graph, all on one tabular low-level
controller whose value error grows with the horizon. Claims: the key points succeed at least as
often as the baselines on the sixteen-room maze, and they recover the doorways.
"""
from __future__ import annotations

import numpy as np

from claimbench.api import (
    Amendment,
    Benchmark,
    Claim,
    Grid,
    Headline,
    Metric,
    Paper,
    cfg,
    output_metric,
    sweep,
)
from claimbench.baselines.tabular_gcrl import FlatGCPolicy, KMeansSubgoalGraph, TimeSubgoalPolicy
from claimbench.checks import Better, NotRun, Value
from claimbench.datasets.grid_mazes import RoomMaze
from claimbench.methods.bottleneck_gcrl import LaplacianKeypoints

# Used only by the amendments: an assignment rather than an import, so that the module's cell
# key (provenance.cell_hash drops judgement-only assignments, not imports) does not change.

DOOR_TOL = 1  # a key point within this many cells (Manhattan) of a doorway recovers it


def doorway_iou(inst, out):
    """|matched| / (|KP| + |doors| - |matched|), a one-to-one matching of key points to doorway
    cells at Manhattan distance <= DOOR_TOL (scipy's linear_sum_assignment)."""
    if "keypoints" not in out:
        return None
    from scipy.optimize import linear_sum_assignment

    side = inst.data["side"]
    kp = np.array([divmod(int(c), side) for c in out["keypoints"]]).reshape(-1, 2)  # (m, 2)
    doors = np.array(inst.truth["doors"]).reshape(-1, 2)  # (d, 2)
    if len(kp) == 0:
        return 0.0
    close = (np.abs(kp[:, None, :] - doors[None, :, :]).sum(-1) <= DOOR_TOL).astype(float)
    rows, cols = linear_sum_assignment(-close)
    matched = float(close[rows, cols].sum())
    return matched / (len(kp) + len(doors) - matched)


def _excess_steps(inst, out):
    # Mean over tasks of (steps taken - true shortest distance), failures counted at max_steps.
    return float(np.mean(out["mean_steps"]) - np.mean(inst.truth["task_dist"]))


METRICS = (
    output_metric("success_rate", True, "fraction of the test tasks (top-left room to "
                  "bottom-right room) whose goal is reached within max_steps"),
    output_metric("mean_steps", False, "mean episode length, failures counted at max_steps"),
    output_metric("n_subgoals", False, "mean number of distinct subgoals per episode"),
    Metric("doorway_iou", doorway_iou, True,
           "IoU of key points (graph nodes) with the doorway cells, one-to-one matching at "
           "Manhattan distance <= 1"),
    Metric("excess_steps", _excess_steps, False,
           "mean_steps minus the mean true shortest distance of the tasks"),
    output_metric("n_keypoints", False, "number of key points found"),
    output_metric("n_regions", False, "number of spectral regions (eigengap)"),
)

RANDOM_KP = "laplacian_kp[mutant=random_kp]"
METHODS = (cfg(LaplacianKeypoints), cfg(LaplacianKeypoints, mutant="random_kp"),
           cfg(FlatGCPolicy), cfg(TimeSubgoalPolicy), cfg(KMeansSubgoalGraph))
LARGEST = {"rooms": 4}
_DERIVED = ("The abstract's comparison with prior subgoal choices, instantiated on grid mazes "
            "as the research note proposes (the paper reports AntMaze / Kitchen success rates; "
            "mazes, baselines' reductions and margins are ours). Placed in the abstract, so the "
            "paper's claim (issue 26).")
_NONINF = ("The research note's plan for the abstract's comparison with prior subgoal "
           "choices, instantiated on grid mazes (mazes, baselines' reductions and margin ours). "
           "A non-inferiority check does not test 'state of the art' (issue 30), so it is ours; "
           "the paper's state-of-the-art results are c5 (not run).")
_Q_PRIOR = ("Prior hierarchical methods pick subgoals by time or short-horizon value heuristics, "
            "which do not localize the bottleneck")
_Q_HITTING = ("routing through bottlenecks yields an (approximately) optimal one-step subgoal in "
              "terms of hitting-time")

BENCHMARK = Benchmark(
    slug="bottleneck_gcrl",
    paper=Paper(
        title="Don't Guess the Future, Find the Bottleneck: Spectral Subgoals for Offline "
              "Goal-Conditioned RL",
        arxiv="",
        venue="ICLR 2026 submission (OpenReview)",
        url="https://openreview.net/forum?id=wVBVa09JVV",
        version="abstract, as summarised in the project's research note (body not read)",
    ),
    area="rl_systems",
    fidelity="proxy",
    fidelity_note=("Tabular grid mazes (four, nine, sixteen rooms) stand in for AntMaze and "
                   "Kitchen, and the learned low-level value is modelled as the dataset-graph "
                   "distance with horizon-proportional noise rather than trained; the key-point "
                   "pipeline (Laplacian eigenvectors by eigsh, boundary-crossing medoids, "
                   "shortest path on the key-point graph) is the paper's as the note describes "
                   "it. Baselines are tabular HIQL-like and GAS-like reductions."),
    methods=(LaplacianKeypoints,),
    baselines=(FlatGCPolicy, TimeSubgoalPolicy, KMeansSubgoalGraph),
    datasets=(RoomMaze,),
    metrics=METRICS,
    primary_metric="success_rate",
    claims=(
        Claim(id="c1_kp_noninferior_time_subgoals",
              where="research note plan (a non-inferiority stand-in for 'state of the art')",
              text="Laplacian key points succeed at least as often as time-based subgoals "
                   "(HIQL-like) on the largest maze",
              check=Better(method="laplacian_kp", baseline="time_subgoals",
                           metric="success_rate", margin=-0.05, where=LARGEST),
              source="derived",
              foils=("flat_gc", RANDOM_KP),
              foil_note="The flat policy has no subgoals, and key points drawn at random "
                        "remove the bottleneck search: neither should match time subgoals.",
              note=_NONINF + " Non-inferiority margin 5 points of success rate (ours)."),
        Claim(id="c2_kp_noninferior_kmeans_graph",
              where="research note plan (a non-inferiority stand-in for 'state of the art')",
              text="Laplacian key points succeed at least as often as a k-means node graph "
                   "(GAS-like) on the largest maze",
              check=Better(method="laplacian_kp", baseline="kmeans_graph",
                           metric="success_rate", margin=-0.05, where=LARGEST),
              source="derived",
              foils=("flat_gc", RANDOM_KP),
              foil_note="Same planner over random nodes, and no planner at all, must not match "
                        "a graph over k-means nodes.",
              note=_NONINF + " Margin as c1. Both graphs use the same planner, horizon and "
                              "low level; only the nodes differ (24 k-means nodes)."),
        Claim(id="c3_kp_beats_flat", where="abstract; research note plan",
              text="Laplacian key points succeed more often than the flat goal-conditioned "
                   "policy on the largest maze",
              paper_value="\"long-horizon performance hinges on crossing a handful of "
                          "hard-to-cross bottlenecks\"; \"our method achieves state-of-the-art "
                          "results on a broad set of navigation and manipulation tasks\" "
                          "(abstract)",
              check=Better(method="laplacian_kp", baseline="flat_gc", metric="success_rate",
                           margin=0.0, where=LARGEST),
              source="paper",
              foils=(),
              foil_note="No foil (issue 26): flat_gc, the only foil until then, is the check's "
                        "own baseline (it compared with itself). No subgoal method is a foil "
                        "either, since the claim is about subgoals against none: it can be "
                        "shown not_discriminating, never reproduced.",
              note=_DERIVED),
        Claim(id="c4_doorway_iou", where="abstract (theory); research note plan",
              text="Laplacian spectra recover the bottlenecks with high overlap",
              paper_value="\"Laplacian spectra recover bottlenecks with high overlap\" "
                          "(abstract, on its theory); the threshold IoU >= 0.8 is the research "
                          "note's proposal",
              check=Value(method="laplacian_kp", metric="doorway_iou", lo=0.8, stat="mean"),
              source="paper",
              foils=("kmeans_graph", RANDOM_KP),
              foil_note="k-means nodes and random key points are not placed at doorways.",
              note="All mazes of the grid. IoU with a one-cell tolerance (a boundary crossing "
                   "has the doorway and its neighbour as endpoints). Threshold from the note."),
        Claim(id="c5_antmaze_headline", where="abstract",
              text="96.5% success on AntMaze, 84.7% on Franka-Kitchen",
              paper_value="\"for example, 96.5% on AntMaze and 84.7% on Franka-Kitchen\" "
                          "(abstract)",
              check=NotRun(method="laplacian_kp",
                           reason="D4RL/OGBench MuJoCo datasets need downloads and GPU-scale "
                                  "training of the low-level policy"),
              source="paper"),
        Claim(id="c6_bottleneck_hitting_time", where="abstract (theory)",
              text="under a metastable decomposition, routing through the next bottleneck is an "
                   "(approximately) hitting-time-optimal one-step subgoal",
              paper_value="\"" + _Q_HITTING + "\" (abstract)",
              check=NotRun(method="laplacian_kp",
                           reason="not built yet (issue 30): checkable exactly in the tabular "
                                  "mazes: expected hitting times of the dataset's random-walk "
                                  "chain (a linear solve) via the next doorway against every "
                                  "other one-step subgoal; no such metric exists"),
              source="paper"),
        Claim(id="c7_prior_subgoals_miss_bottlenecks", where="abstract",
              text="subgoals picked by time or short-horizon value heuristics do not localize "
                   "the bottlenecks",
              paper_value="\"" + _Q_PRIOR + "\" (abstract)",
              check=NotRun(method="laplacian_kp",
                           reason="not built yet (issue 30): the time-subgoal baseline outputs "
                                  "no subgoal cells, so no doorway IoU is computed for it (c4's "
                                  "k-means foil reads the k-means graph only); the check would "
                                  "score the subgoals each baseline visits against the doorways"),
              source="paper"),
    ),
    headlines=(
        Headline(quote="long-horizon performance hinges on crossing a handful of hard-to-cross "
                       "bottlenecks", claims=("c3_kp_beats_flat",)),
        Headline(quote=_Q_PRIOR, claims=("c7_prior_subgoals_miss_bottlenecks",)),
        Headline(quote=_Q_HITTING, claims=("c6_bottleneck_hitting_time",)),
        Headline(quote="Laplacian spectra recover bottlenecks with high overlap",
                 claims=("c4_doorway_iou",)),
        Headline(quote="our method achieves state-of-the-art results on a broad set of navigation "
                       "and manipulation tasks", claims=("c5_antmaze_headline",)),
        Headline(quote="96.5% on AntMaze and 84.7% on Franka-Kitchen",
                 claims=("c5_antmaze_headline",)),
    ),
    grids={
        "smoke": Grid(datasets=sweep(RoomMaze, rooms=[4], room=[4], n_traj=[200], n_tasks=[8]),
                      seeds=2, methods=METHODS, note="one small sixteen-room maze, two seeds"),
        "quick": Grid(datasets=sweep(RoomMaze, rooms=[2, 3, 4]), seeds=10, methods=METHODS,
                      note="four, nine and sixteen rooms of 5x5 cells, 400 walks of 100 steps, "
                           "20 tasks; about 20 CPU-seconds"),
        "full": Grid(datasets=sweep(RoomMaze, rooms=[2, 3, 4, 6], room=[5, 8], n_traj=[2000],
                                    n_tasks=[50]),
                     seeds=20, methods=METHODS,
                     note="up to 36 rooms of 8x8 cells, 2000 walks, 50 tasks; roughly 0.5 CPU-hour "
                          "(a 36-room cell takes ~15 CPU-s for all five methods; all-pairs "
                          "dataset distances grow with the square of the cells)"),
    },
    description=__doc__.split("\n\n")[1].replace("\n", " "),
    amendments=(
        Amendment(date="2026-12-06", claims=("c3_kp_beats_flat",),
                  what="foil flat_gc removed (foils now empty); check unchanged",
                  why="flat_gc is the check's own Better baseline: in laplacian_kp's place it "
                      "compared with itself (improvement exactly 0) and failed by construction",
                  results_seen=True,
                  rule="issue 26: Y-vs-Y foil removed"),
        Amendment(date="2026-12-06",
                  claims=("c1_kp_noninferior_time_subgoals", "c2_kp_noninferior_kmeans_graph",
                          "c3_kp_beats_flat", "c4_doorway_iou"),
                  what="source derived -> paper (paper_value now quotes the abstract instead of "
                       "the research note's plan); checks, foils (but c3's, above) and scopes "
                       "unchanged",
                  why="all four are placed in the abstract (its comparison with prior subgoal "
                      "choices and its bottleneck-recovery statement): a claim placed in the "
                      "abstract is the paper's",
                  results_seen=True,
                  rule="issue 26: source by placement (a claim placed in the abstract is the "
                       "paper's)"),
        Amendment(date="2026-12-06",
                  claims=("c1_kp_noninferior_time_subgoals", "c2_kp_noninferior_kmeans_graph"),
                  what="source paper -> derived; where names the research note's plan; "
                       "paper_value removed; checks, margins and foils unchanged",
                  why="issue 30: a non-inferiority margin of 5 points does not test the "
                      "abstract's 'state-of-the-art results': these are the research note's "
                      "stand-ins, not the paper's statement (which is c5, not run)",
                  results_seen=True,
                  rule="issue 26: source by placement (a research-note check the abstract does "
                       "not state is derived)"),
        Amendment(date="2026-12-06",
                  claims=("c6_bottleneck_hitting_time", "c7_prior_subgoals_miss_bottlenecks"),
                  what="headlines declared (6 statements of the ICML abstract); the theory "
                       "(hitting-time optimality of the next bottleneck) and 'prior subgoals do "
                       "not localize the bottleneck' get the not_run claims c6, c7",
                  why="issue 30: the theory had no claim and is checkable exactly in tabular "
                      "mazes (not built yet); coverage of the abstract",
                  results_seen=True),
    ),
)
