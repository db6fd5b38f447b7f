"""TileSparse (ICML 2026, abstract only): tiered QK-2D sparse attention for compute-bound MLA decoding.

Synthetic MLA decoding (``datasets/latent_kv_needles``: H = 32 heads with 2 MTP tokens each over
one shared latent KV, needles attended by random head subsets). Every sparse method selects
(head, key page) pairs from the same Quest page-bound estimates and is budgeted on the same
tile-granular cost (``baselines/head_page_selection``: (8-head tile, 16-key page) tiles touched):
K-only Quest top-k, unstructured 2-D (head, page) top-k, and TileSparse's tiered 2-D selection
with tile-aligned head groups and a calibration AutoTuner, at budgets of 5-20 % of dense compute
and at the paper's "-40.8 % compute" point (59.2 %). 2-D selection searches a superset of K-only
selection, so its wins over K-only are partly by construction; the claims that carry the
paper's point are the tile-granular ones (c4, c5). Task accuracy (c3) is read from the outputs:
each (head, MTP token) output answers with the planted token it carries the most attention from,
scored against full attention's answer.
"""
from __future__ import annotations

import hashlib
from collections import OrderedDict

import numpy as np

from claimbench.api import TIMING_RTOL
from claimbench.api import (
    Amendment,
    Benchmark,
    Claim,
    Grid,
    Headline,
    Metric,
    Paper,
    Premise,
    cfg,
    output_metric,
    sweep,
)
from claimbench.baselines import block_sparse_attention as bsa
from claimbench.baselines.full_attention import FullAttention
from claimbench.baselines.head_key_topk import HeadKeyTopK
from claimbench.baselines.quest_topk import QuestTopK
from claimbench.baselines.sparse_attention_metrics import as_tensor, measured
from claimbench.checks import Better, Exact, NotRun, Value
from claimbench.datasets.latent_kv_needles import LatentKVNeedles
from claimbench.methods.tilesparse import TileSparse


def _measured(inst, out) -> dict:
    return measured(inst, out, causal=True)


def _rel_error(inst, out):
    return float(_measured(inst, out)["rel_error"])


def _retained_mass(inst, out):
    return float(_measured(inst, out)["retained_mass"])


def _compute_frac(inst, out):
    m = _measured(inst, out)
    return float(m["flops"]) / float(m["dense_flops"])


def _budget_excess(inst, out):
    return _compute_frac(inst, out) - float(inst.data["budget_frac"])


def _needle_recall(inst, out):
    torch = bsa._torch()
    H, Tq, _ = inst.data["q"].shape
    Tk = inst.data["k"].shape[1]
    mask = as_tensor(out["block_mask"]).to(torch.bool)
    pairs = bsa.expand_block_mask(mask, out["block_size"], Tq, Tk).any(1).numpy()  # (H, Tk)
    hp = inst.truth["needle_pairs"]
    return float(np.mean(pairs[hp[:, 0], hp[:, 1]]))


def _answers(out, dirs: np.ndarray) -> np.ndarray:
    """The retrieval answer of each (head, MTP token) output: the planted token (needle or shared
    key) it carries the most attention from, read on the tokens' own latent directions (a linear
    readout whose vocabulary is the planted tokens); -1 where it carries none: (H, Tq)."""
    scores = np.asarray(out, np.float64) @ dirs.T  # (H, Tq, A): each planted token's probability
    ans = scores.argmax(-1)
    ans[scores.max(-1) < 1e-6] = -1
    return ans


_DENSE_ANSWERS: "OrderedDict[str, np.ndarray]" = OrderedDict()  # the last instances' answers


def _dense_answers(inst) -> np.ndarray:
    """Full attention's answers (float64 dense), memoised on the instance's content: every method
    of one instance is read against the same answers."""
    d = inst.data
    digest = hashlib.blake2b(digest_size=16)
    for x in (d["q"], d["k"][:, ::97], d["v"][:, ::97], inst.truth["answer_dirs"]):
        digest.update(str(x.shape).encode())
        digest.update(np.ascontiguousarray(x).tobytes())
    key = digest.hexdigest()
    if key not in _DENSE_ANSWERS:
        torch = bsa._torch()
        q, k, v = (torch.as_tensor(d[x], dtype=torch.float64) for x in ("q", "k", "v"))
        _DENSE_ANSWERS[key] = _answers(bsa.dense_attention(q, k, v).numpy(),
                                       inst.truth["answer_dirs"])  # (H, Tq)
        while len(_DENSE_ANSWERS) > 2:
            _DENSE_ANSWERS.popitem(last=False)
    return _DENSE_ANSWERS[key]


def _answer_agreement(inst, out):
    return float(np.mean(_answers(out["out"], inst.truth["answer_dirs"]) == _dense_answers(inst)))


def _needle_answers(inst, out):
    n_needles = len(inst.truth["needle_pos"])  # answers 0..n_needles-1 are needles
    ans = _answers(out["out"], inst.truth["answer_dirs"])
    return float(np.mean((ans >= 0) & (ans < n_needles)))


METRICS = (
    Metric("rel_error", _rel_error, False,
           "||out - dense||_F / ||dense||_F over heads and MTP tokens, dense = float64 full attention "
           "(sparse_attention_metrics.measure)"),
    Metric("retained_mass", _retained_mass, True,
           "mean over (head, token) of the dense softmax mass on the selected (head, page) pairs"),
    Metric("needle_recall", _needle_recall, True,
           "fraction of planted (head, needle key) pairs the selection computes"),
    Metric("answer_agreement", _answer_agreement, True,
           "task accuracy relative to full attention: fraction of (head, MTP token) queries whose "
           "retrieval answer (the planted token the output carries the most attention from) is "
           "full attention's answer (float64 dense); full attention's own accuracy is 1"),
    Metric("needle_answers", _needle_answers, True,
           "fraction of (head, MTP token) queries whose retrieval answer is a needle (not a "
           "shared key)"),
    Metric("compute_frac", _compute_frac, False,
           "tile-granular attention FLOPs / dense FLOPs: (8-head tile x 16-key page) tiles touched"),
    Metric("budget_excess", _budget_excess, False, "compute_frac - the step's budget_frac"),
    output_metric("tiles", description="(head tile, page) tiles computed"),
    output_metric("pairs", description="(head, page) pairs computed"),
    output_metric("seconds", description="process CPU seconds of selection + attention (one run)"),
    output_metric("n_tiers", description="tiers of the AutoTuner's pattern (tilesparse only)"),
)

SUBJECT = "tilesparse"
K_ONLY = "quest_topk"
TWO_D = "head_key_topk"
TWO_D_PAIR = "head_key_topk[charge=pair]"
FULL = "full_attention"
RANDOM = "tilesparse[mutant=random_tiles]"
PAIR_COST = "tilesparse[mutant=pair_cost]"
UNALIGNED = "tilesparse[mutant=unaligned]"

METHODS = (
    cfg(FullAttention),
    cfg(QuestTopK),
    cfg(HeadKeyTopK),
    cfg(HeadKeyTopK, label=TWO_D_PAIR, charge="pair"),
    cfg(TileSparse),
    cfg(TileSparse, label=RANDOM, mutant="random_tiles"),
    cfg(TileSparse, label=PAIR_COST, mutant="pair_cost"),
    cfg(TileSparse, label=UNALIGNED, mutant="unaligned"),
)

TIGHT = {"budget_frac": (0.05, 0.1, 0.2)}  # the note's "budgets <= 20 % of full compute"
PAPER_POINT = 0.592  # the abstract's "cutting attention compute by 40.8 %"

_ACC = ("The abstract's metric is task accuracy of a DeepSeek-class MLA LLM on unnamed long-context "
        "benchmarks; here it is the relative error of the attention output of one synthetic MLA "
        "decoding step (and needle recall), the research note's proxy.")
_K_ONLY_FOIL = ("No foil (issue 26): the wording's foil is a K-only method, and the only one here "
                "is the check's baseline, K-only Quest. The single-tier mutant (TileSparse with "
                "tiering and 2-D pruning removed: K-only top-k on the same estimates and the same "
                "tile budget) was that baseline under another name (identical values), so it "
                "compared Quest with itself; 2-D top-k and the other mutants are QK-2D methods, "
                "which the wording does not rule out.")

# The ICML abstract's words, quoted by the headlines and the claims placed there.
_Q_COMPUTE_BOUND = ("The proliferation of Multi-head Latent Attention (MLA) and Multi-Token "
                    "Prediction (MTP) architectures has effectively rendered the process "
                    "compute-bound")
_Q_HEAD_SPARSITY = ("in MLA, Q-heads exhibit a degree of sparsity even when attending to the same "
                    "key")
_Q_COST_MODEL = ("a cost model that emphasizes compute budget (compute tile size) rather than "
                 "memory budget (fetched tokens)")
_Q_QK2D = ("QK 2D Sparsity prunes unnecessary Q-head--key computations and uses the freed compute "
           "to retrieve more semantically important tokens")
_Q_TIERED = "Tiered QK 2D Sparsity and an AutoTuner to choose the best pattern"
_Q_40 = ("under tight budgets our method improves accuracy by 40% over state-of-the-art dynamic "
         "K-only sparse methods")
_Q_99 = ("preserves 99% of full-attention accuracy while cutting attention compute by 40.8%, "
         "outperforming prior sparse attention approaches")

BENCHMARK = Benchmark(
    slug="tilesparse",
    paper=Paper(
        title="TileSparse: Arithmetic-Intensity-Aware Sparse Attention for Compute-Bound LLM Decoding",
        arxiv="",
        url="https://icml.cc/virtual/2026/poster/61955",
        version="ICML 2026 poster abstract (no arXiv copy or code found)",
    ),
    area="attention",
    fidelity="proxy",
    fidelity_note=("Abstract only: the cost model, tiering, head-tile selection and AutoTuner are "
                   "reconstructed (methods/tilesparse.py, deviations). No MLA LLM or long-context "
                   "task: one synthetic MLA decoding step per cell (shared 64-d latent KV, 32 heads "
                   "x 2 MTP tokens, 4k keys, planted head-specific needles on their own latent "
                   "axes), scored by attention-output error, needle recall and a retrieval-answer "
                   "task accuracy (agreement with full attention's answers); compute is an exact "
                   "tile count, not GPU time."),
    methods=(TileSparse,),
    baselines=(FullAttention, QuestTopK, HeadKeyTopK),
    datasets=(LatentKVNeedles,),
    metrics=METRICS,
    primary_metric="rel_error",
    cost_note=("Under its share since the issue 27 speed-ups of 2026-12-06 (every value "
               "unchanged): 26 CPU-s on idle cores (77 before): the float64 dense reference and "
               "page importance are computed once per instance instead of once per cell."),
    nondeterministic={"seconds": TIMING_RTOL},
    claims=(
        Claim(id="c1_tiered_beats_konly_error", where="abstract",
              text="under tight budgets, tiered QK-2D sparsity is more accurate than dynamic "
                   "K-only sparse attention at the same compute",
              paper_value="\"under tight budgets our method improves accuracy by 40% over "
                          "state-of-the-art dynamic K-only sparse methods\" (abstract)",
              check=Better(method=SUBJECT, baseline=K_ONLY, metric="rel_error", where=TIGHT),
              source="paper",
              foils=(),
              foil_note=_K_ONLY_FOIL,
              note=_ACC + " Direction only (margin 0): a 40 % accuracy gain has no error "
                   "analogue. Budgets 5/10/20 % of dense tile compute (the note's <= 20 %). "
                   "2-D selection searches a superset of K-only selection (the AutoTuner's space "
                   "contains the single all-heads tier), so this win is partly by construction."),
        Claim(id="c2_tiered_beats_konly_needles", where="abstract; research note plan",
              text="under tight budgets, tiered QK-2D computes more of the head-specific needles "
                   "than K-only top-k",
              paper_value="\"QK 2D Sparsity prunes unnecessary Q-head--key computations and uses "
                          "the freed compute to retrieve more semantically important tokens\" "
                          "(abstract)",
              check=Better(method=SUBJECT, baseline=K_ONLY, metric="needle_recall", where=TIGHT),
              source="paper",
              foils=(),
              foil_note=_K_ONLY_FOIL,
              note="The research note's needle-recall check (margin 0)."),
        Claim(id="c3_near_full_at_paper_point", where="abstract",
              text="at 59.2 % of dense attention compute, task accuracy is at least 99 % of full "
                   "attention's: the retrieval answers of the sparse attention output agree with "
                   "full attention's on at least 99 % of queries",
              paper_value="\"preserves 99% of full-attention accuracy while cutting attention "
                          "compute by 40.8%, outperforming prior sparse attention approaches\" "
                          "(abstract)",
              check=Value(method=SUBJECT, metric="answer_agreement", lo=0.99, stat="mean",
                          where={"budget_frac": PAPER_POINT}),
              source="paper",
              foils=(RANDOM,),
              foil_note="Random tiles spend the same 59.2 % tile budget with no importance "
                        "signal: 'preserves 99 % of full-attention accuracy while cutting compute' "
                        "credits the selection, so a selection that ignores importance must lose "
                        "more than 1 % of the answers; if it does not, the task is too easy at this "
                        "budget to tell. K-only Quest is not a foil here: the abstract says the "
                        "method outperforms prior approaches, not that they fall below 99 %.",
              note="Task accuracy (issue 28): each (head, MTP token) output is read as a retrieval "
                   "answer, the planted token (needle or shared key) it carries the most "
                   "attention from; accuracy relative to full attention = agreement with full "
                   "attention's answers (full attention's own accuracy is 1, so this is the "
                   "abstract's ratio; for any labels, accuracy >= full's - (1 - agreement)). "
                   "Threshold 0.99 = the abstract's '99 %', on the mean over cells (t-interval). "
                   "Before (post hoc, results seen): the research note's relative output error "
                   "<= 1 %, much stricter than the paper's words. The sentence's comparative half "
                   "('outperforming prior sparse attention approaches') is not tested: the five "
                   "cells at this budget cannot decide a paired signed-rank test at the Holm "
                   "level (p >= 1/32); the table reports Quest's answer_agreement here."),
        Claim(id="c4_tile_budget_respected", where="abstract (cost model)",
              text="charged per compute tile, the selection stays within the compute budget; "
                   "per-(head, key) accounting does not",
              paper_value="\"a cost model that emphasizes compute budget (compute tile size) "
                          "rather than memory budget (fetched tokens)\" (abstract)",
              check=Exact(method=SUBJECT, metric="budget_excess", hi=0.0, tol=1e-12),
              source="derived", basis="construction",
              foils=(PAIR_COST, TWO_D_PAIR),
              foil_note="Both plan with a per-(head, page) cost: the pair-cost mutant gives each "
                        "tier's pages to individually chosen heads, 2-D top-k counts pairs. "
                        "Scattered heads touch more head tiles, so their true tile compute must "
                        "exceed the budget.",
              note="Every cell: true tile compute / dense compute <= budget_frac (an exact tile "
                   "count; tolerance 1e-12 for the float division). Holds for the method by "
                   "construction (our selection fits the tile budget), so it is ours, not the "
                   "paper's (issue 26); the content of the check is that its foils fail."),
        Claim(id="c5_tile_aligned_beats_pairwise_2d", where="abstract (cost model, tiered QK-2D)",
              text="at the same tile-granular compute, tile-aligned tiered 2-D selection has lower "
                   "error than unstructured per-(head, key) 2-D top-k",
              paper_value="\"traditional sparse attention algorithms introduce significant "
                          "computational inefficiency in this new regime\"; \"Tiered QK 2D "
                          "Sparsity and an AutoTuner to choose the best pattern\" (abstract)",
              check=Better(method=SUBJECT, baseline=TWO_D, metric="rel_error", where=TIGHT),
              source="paper",
              foils=(UNALIGNED,),
              foil_note="The unaligned mutant is TileSparse with tile alignment removed (tiers "
                        "planned per head, then cut to the same true tile budget): if alignment "
                        "to tiles is what matters, it must lose its edge over per-pair 2-D top-k.",
              note="The check the issue says matters: 2-D selection is a superset of K-only, so "
                   "the tile-granular cost model is the non-trivial part. Both sides are charged "
                   "the same true tile cost (2-D top-k truncated at the tile budget)."),
        Claim(id="c6_head_sparsity_in_mla", where="abstract",
              text="in MLA, query heads attending to the same key are sparse: only some of them "
                   "need it",
              paper_value="\"We observe that, " + _Q_HEAD_SPARSITY + "\" (abstract)",
              check=NotRun(method=SUBJECT, reason=(
                  "needs the attention of a real MLA model (DeepSeek-class) on long-context "
                  "tasks; our generator plants needles attended by random head subsets, so the "
                  "observation holds in our data by construction")),
              source="paper"),
        Claim(id="c7_mla_mtp_compute_bound", where="abstract",
              text="MLA with multi-token prediction makes decoding attention compute-bound",
              paper_value="\"" + _Q_COMPUTE_BOUND + "\" (abstract)",
              check=NotRun(method=SUBJECT, reason=(
                  "not built yet (issue 28): the arithmetic intensity (FLOPs per byte of KV "
                  "read) of MLA + MTP decoding attention against a GPU's ridge point, and of "
                  "MHA/GQA decoding for contrast; no claim here reads hardware")),
              source="paper"),
    ),
    headlines=(
        Headline(quote=_Q_COMPUTE_BOUND, claims=("c7_mla_mtp_compute_bound",)),
        Headline(quote=_Q_HEAD_SPARSITY, claims=("c6_head_sparsity_in_mla",)),
        Headline(quote=_Q_COST_MODEL, claims=("c4_tile_budget_respected",
                                              "c5_tile_aligned_beats_pairwise_2d")),
        Headline(quote=_Q_QK2D, claims=("c2_tiered_beats_konly_needles",)),
        Headline(quote=_Q_TIERED, claims=("c5_tile_aligned_beats_pairwise_2d",)),
        Headline(quote=_Q_40, claims=("c1_tiered_beats_konly_error",)),
        Headline(quote=_Q_99, claims=("c3_near_full_at_paper_point",)),
    ),
    premises=(
        Premise(id="p_konly_needles_not_saturated",
                text="under tight budgets the K-only baseline is not saturated on needle recall: "
                     "its mean recall is below 0.99 (more than 1 point below the maximum, 1)",
                check=Value(method=K_ONLY, metric="needle_recall", hi=0.99, stat="mean",
                            where=TIGHT),
                claims=("c2_tiered_beats_konly_needles",),
                note="Issue 28: the effect must have room to appear; a K-only selection that "
                     "already computes every planted needle leaves QK-2D nothing to retrieve. "
                     "'Saturated' = within 1 point of the maximum, by definition."),
        Premise(id="p_task_is_needle_retrieval",
                text="at the paper's point the task is needle retrieval: full attention's answer "
                     "is a needle (not a shared key every head attends) for most queries, mean "
                     "fraction >= 0.5",
                check=Value(method=FULL, metric="needle_answers", lo=0.5, stat="mean",
                            where={"budget_frac": PAPER_POINT}),
                claims=("c3_near_full_at_paper_point",),
                note="Issue 28: the phenomenon must be present; if full attention's answers were "
                     "mostly the shared sinks that every selection keeps, agreement would be "
                     "high for any method. 'Most' = more than half, by definition."),
    ),
    grids={
        "smoke": Grid(datasets=sweep(LatentKVNeedles, context=[1024], budget_frac=[0.1, PAPER_POINT],
                                     n_calib=[1]),
                      seeds=2, methods=METHODS,
                      note="1k keys, 32 heads; one calibration step"),
        "quick": Grid(datasets=sweep(LatentKVNeedles, budget_frac=[0.05, 0.1, 0.2, PAPER_POINT]),
                      seeds=5, methods=METHODS,
                      note="4k keys, 32 heads x 2 MTP tokens, 16 needles on 4 random heads each; "
                           "about 1.5 CPU-minutes (93 CPU-s of cells committed; 97 CPU-s on a "
                           "re-run after issue 28, the random-tiles foil in place of the "
                           "single-tier duplicate of Quest)"),
        "full": Grid(datasets=sweep(LatentKVNeedles, context=[4096, 16384], n_heads=[32, 64],
                                    needle_heads=[2, 4, 8],
                                    budget_frac=[0.05, 0.1, 0.2, 0.4, PAPER_POINT, 0.8]),
                     seeds=10, methods=METHODS,
                     note="the note's N = 4-16k, H = 32-64, needles on 2-8 heads; 720 instances x 8 "
                          "methods = 5760 cells, roughly 5 CPU-hours (a 16k-key, 64-head instance "
                          "takes ~1 CPU-minute for its 8 methods and ~2.5 GB of memory)"),
    },
    description=__doc__,
    amendments=(
        Amendment(date="2026-12-06",
                  claims=("c1_tiered_beats_konly_error", "c2_tiered_beats_konly_needles"),
                  what="foil tilesparse[mutant=single_tier] removed; no foil left (foils=())",
                  why="issue 26: the single-tier mutant is K-only top-k on the same estimates "
                      "and budget, i.e. the check's baseline quest_topk under another name "
                      "(identical values): in the subject's place it compares Quest with itself. "
                      "The wording's foil is a K-only method, and the only one is the baseline",
                  results_seen=True, rule="issue 26: Y-vs-Y foil removed"),
        Amendment(date="2026-12-06",
                  claims=("c2_tiered_beats_konly_needles", "c3_near_full_at_paper_point",
                          "c5_tile_aligned_beats_pairwise_2d"),
                  what="source derived -> paper",
                  why="issue 26: a claim placed in the abstract is the paper's claim",
                  results_seen=True, rule="issue 26: source by placement"),
        Amendment(date="2026-12-06",
                  claims=("c4_tile_budget_respected",),
                  what="Value(max budget_excess <= 0) -> Exact(budget_excess <= 0, tol 1e-12); "
                       "source derived, basis construction",
                  why="issue 26: the method fits its selection to the tile budget, so the bound "
                      "holds by our construction (an exact count, no sign test over seeds)",
                  results_seen=True, rule="issue 26: exact kind; construction basis"),
        Amendment(date="2026-12-06",
                  claims=("c6_head_sparsity_in_mla", "c7_mla_mtp_compute_bound",
                          "p_konly_needles_not_saturated"),
                  what="headlines declared (7 checkable statements of the ICML abstract); not_run "
                       "c6 (Q-head sparsity observed in MLA) and c7 (MLA + MTP decoding is "
                       "compute-bound); premise p_konly_needles_not_saturated (K-only needle "
                       "recall < 0.99 under tight budgets) gates c2",
                  why="issue 28: abstract statements with no claim are listed with their reason; "
                      "a baseline that saturates leaves no room for the effect; bound from the "
                      "definition of saturation, not from results",
                  results_seen=True),
        Amendment(date="2026-12-06", claims=('c1_tiered_beats_konly_error', 'c2_tiered_beats_konly_needles', 'c3_near_full_at_paper_point', 'c4_tile_budget_respected', 'c5_tile_aligned_beats_pairwise_2d', 'c6_head_sparsity_in_mla', 'c7_mla_mtp_compute_bound'),
                  what="baselines/sparse_attention_metrics.py: the float64 dense reference of an instance (and each query's dense mass per key block) is computed once and memoised on the content of q, k, v for the methods measured on it, the retained mass of a method that keeps keys in order read from the per-block mass instead of a second pass; baselines/block_sparse_attention.py: query blocks gathered 8 at a time, each group padded to its own largest block count instead of one global pad",
                  why="issue 27 item 5 (the quick suite in 30 minutes on 2 cores): pbs_attn's quick grid measured 291 -> about 131 CPU-s (same-process A/B on one seed, projected); the arithmetic of each output is the same up to summation order (retained mass within 4e-16 relative, relative error within 8e-10 relative in the A/B), checked on every quick cell by claimbench verify --from-store after the suite's re-run",
                  results_seen=True,
                  rule='issue 27: faster code, same experiment; every non-timing metric of the committed quick cells unchanged within 1e-6 relative (claimbench verify)'),
        Amendment(date="2026-12-06",
                  claims=("c3_near_full_at_paper_point",),
                  what="Value(mean rel_error <= 0.01) -> Value(mean answer_agreement >= 0.99) at "
                       "budget 0.592 (task accuracy relative to full attention: the retrieval "
                       "answer of each (head, MTP token) output, its most-attended planted token, "
                       "against full attention's; new metric, datasets/latent_kv_needles adds the "
                       "planted tokens' latent directions to truth, data unchanged); foils "
                       "(quest_topk, tilesparse[mutant=single_tier]) -> "
                       "(tilesparse[mutant=random_tiles], new: the same tile budget drawn at "
                       "random); single_tier dropped from the grids (the same algorithm as "
                       "quest_topk at every setting, identical masks, so it duplicated Quest); "
                       "gated by the new premise p_task_is_needle_retrieval",
                  why="issue 28: the research note turned '99 % of full-attention accuracy' into "
                      "an attention-output error <= 1 %, much stricter than the paper's words "
                      "(verdict before: not_reproduced, mean rel_error 0.0499); the abstract "
                      "speaks of task accuracy, so the check now reads a downstream accuracy "
                      "with the abstract's 99 %. K-only Quest is no foil of the 99 % bar: the "
                      "abstract says TileSparse outperforms prior approaches, not that they fall "
                      "below 99 %; random tiles at the same budget are what the wording rules "
                      "out",
                  results_seen=True),
        Amendment(date="2026-12-06",
                  claims=("c1_tiered_beats_konly_error", "c2_tiered_beats_konly_needles",
                          "c4_tile_budget_respected", "c5_tile_aligned_beats_pairwise_2d",
                          "c6_head_sparsity_in_mla", "c7_mla_mtp_compute_bound"),
                  what="design only: the grids run tilesparse[mutant=random_tiles] instead of "
                       "tilesparse[mutant=single_tier]; methods/tilesparse.py gains that mutant; "
                       "datasets/latent_kv_needles.py adds answer_dirs to truth (no draw changed); "
                       "two new metrics (answer_agreement, needle_answers)",
                  why="issue 28 (c3's task accuracy and its foil). None of these claims reads "
                      "the removed or added method or the new metrics, and the cells they read "
                      "are the same computation (same data, same code paths): on a private "
                      "re-run of the quick grid the 140 cells of the other seven methods equal the "
                      "committed ones exactly on every non-timing metric",
                  results_seen=True,
                  rule="issue 28-30 review: a change these claims do not read (new configs, "
                       "cells or branches); every non-timing metric of the committed quick "
                       "cells unchanged (compared cell by cell with the fresh run: 0 "
                       "differences)"),
        Amendment(date="2026-12-06",
                  claims=("p_task_is_needle_retrieval",),
                  what="new premise: full attention's retrieval answer is a needle for a mean "
                       "fraction >= 0.5 of queries at budget 0.592; gates c3",
                  why="issue 28: the phenomenon (needle retrieval) must be present for the "
                      "task accuracy to mean anything; bound from the word 'most', declared "
                      "before needle_answers was ever computed",
                  results_seen=False),
        Amendment(date="2026-12-06", claims=('c1_tiered_beats_konly_error', 'c2_tiered_beats_konly_needles', 'c3_near_full_at_paper_point', 'c4_tile_budget_respected', 'c5_tile_aligned_beats_pairwise_2d', 'c6_head_sparsity_in_mla', 'c7_mla_mtp_compute_bound'),
                  what='the dense reference and page importance kept per instance (LastOf); calibration data cached per instance; fit_tiles sums integer tile counts per page',
                  why='issue 27 item 5: the quick suite must fit 30 minutes on 2 cores; this cuts CPU without changing what any cell computes',
                  results_seen=True,
                  rule='issue 27: faster code, same experiment; every non-timing metric of the committed quick cells unchanged (compared cell by cell with a fresh run: 0 differences)'),
        Amendment(date="2026-12-07", claims=('c1_tiered_beats_konly_error', 'c2_tiered_beats_konly_needles', 'c3_near_full_at_paper_point', 'c4_tile_budget_respected', 'c5_tile_aligned_beats_pairwise_2d', 'c6_head_sparsity_in_mla', 'c7_mla_mtp_compute_bound'),
                  what="baselines/block_sparse_attention.attention_probs masks and clears NaNs in place (no grad) and sparse_attention_metrics' dense reference skips a zero-width pad: the same arithmetic on the same values",
                  why='issue 27 item 5: the dense references of long contexts cost less (attention_probs 0.66x the CPU at 8k keys); 1480 values of the 160 quick cells compared with a fresh run: 0 differences',
                  results_seen=True,
                  rule='issue 27: faster code, same experiment; every non-timing metric of the committed quick cells unchanged (compared cell by cell with a fresh run: 0 differences)'),
    ),
)
