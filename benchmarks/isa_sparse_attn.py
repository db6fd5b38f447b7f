"""ISA, In-context Sparse Attention (arXiv 2605.04569): pre-select salient context blocks, route the
sharpest queries to full attention and the rest to 0-th order Taylor (block-mean) attention.

One bidirectional attention layer over source + context tokens (synthetic ICL editing tokens
with planted segments, copies and distractors; and the shared vertical-slash generator, read
without a causal mask). Scored against float64 dense attention by the shared
``sparse_attention_metrics.measure``: relative output error and exact FLOP counts. The
paper's video-editing results (EditVerseBench, IVE-Bench, VIE-Bench) need LIVEditor-14B and are
declared not_run. The speed-up is judged at lossless quality (c4b): over an operating curve of
(rho, kappa) settings, the FLOP ratio of the lightest one whose error meets c3's bound.
"""
from __future__ import annotations

import math

import numpy as np

from claimbench.api import TIMING_RTOL
from claimbench.api import (Amendment, Benchmark, Claim, Grid, Headline, Metric, Paper, Premise,
                            cfg, output_metric, sweep)
from claimbench.baselines import block_sparse_attention as bsa
from claimbench.baselines import sparse_attention_metrics as sam
from claimbench.baselines.block_mean_attention import BlockMeanAttention
from claimbench.baselines.full_attention import FullAttention
from claimbench.baselines.sparse_attention_metrics import as_tensor, measure_metric, measured
from claimbench.checks import Better, Exact, NotRun, Value
from claimbench.datasets.attention_patterns import VerticalSlashAttention
from claimbench.datasets.in_context_editing_tokens import InContextEditingTokens
from claimbench.memo import LastOf
from claimbench.methods.isa_sparse_attn import InContextSparseAttention

BLOCK = 32  # ISA's block size and the dense reference's tiling (methods/isa_sparse_attn.py, Dev. 2)

ISA = "isa"
ISA_CURVE = "isa[curve]"  # ISA and its operating curve over the settings below
RANDOM_CURVE = "isa[curve,mutant=random_routing]"
RANDOM_ROUTING = "isa[mutant=random_routing]"
RANDOM_PRESELECT = "isa[mutant=random_preselect]"
TAYLOR = "block_mean_attention[critical_ratio=0.1]"  # Taylor sparse attention for every query
BLOCK_MEAN = "block_mean_attention"  # pure 0-th order Taylor (no critical blocks) for every query
FULL = "full_attention"

ICL = {"dataset": "in_context_editing_tokens"}

LOSSLESS = 0.01  # c3's bound on the relative error ("experimentally lossless")
FLOP_BUDGET = 0.4  # c4's bound: "~60% reduction"
# The settings of the operating curve (c4b), fixed before any run: rho in 0, 0.1, ..., 1 and
# kappa in 1/4, 1/2, 3/4, 1 (1 = no pruning; rho = 1 with kappa = 1 is dense attention).
CURVE_RHOS = tuple(round(0.1 * i, 1) for i in range(11))
CURVE_KEEPS = (0.25, 0.5, 0.75, 1.0)
VS = {"dataset": "vertical_slash_attention"}


def _measured(inst, out) -> dict:
    return measured(inst, out, causal=False, block_size=BLOCK)


def _get(key):
    return measure_metric(key, causal=False, block_size=BLOCK)


def _flop_ratio(inst, out):
    m = _measured(inst, out)
    return float(m["flops"] / m["dense_flops"])


def _curve_eval(inst, out) -> list:
    """(flop ratio, relative error) of every setting of the method: its own run, and each
    (rho, kappa) of its operating curve (methods/isa_sparse_attn.py, Deviation 6)."""
    if "_curve_eval" in out:
        return out["_curve_eval"]
    m = _measured(inst, out)
    pts = [(m["flops"] / m["dense_flops"], m["rel_error"])] if "flops" in m else []
    if out.get("curve"):
        torch = bsa._torch()
        q, k, v = _f64(inst)
        N = q.shape[1]
        # the float64 dense reference _measured just used (memoised on q, k, v)
        ref = sam._reference(q, k, v, *bsa.default_positions(N, N), False, (BLOCK, BLOCK), 512)[0]
        ref_norm = float(torch.linalg.norm(ref))
        for pt in out["curve"]:
            e_taylor = ((as_tensor(pt["taylor_out"], torch.float64) - ref) ** 2).sum(-1)  # (H, N)
            e_full = ((as_tensor(pt["full_out"], torch.float64) - ref) ** 2).sum(-1)  # (H, N)
            gain = torch.gather(e_full - e_taylor, 1, torch.as_tensor(pt["order"]))  # (H, N) routing order
            cum = torch.cat([torch.zeros(1, dtype=torch.float64), gain.sum(0).cumsum(0)])  # (N + 1,)
            for rho, f, o in zip(pt["rhos"], pt["flops"], pt["overhead_flops"]):
                n_full = min(N, math.ceil(rho * N - 1e-9))
                err2 = max(float(e_taylor.sum() + cum[n_full]), 0.0)
                pts.append(((f + o) / m["dense_flops"], math.sqrt(err2) / ref_norm))
    out["_curve_eval"] = pts
    return pts


def _lossless_flop_ratio(inst, out):
    """FLOP ratio of the lightest setting whose relative error meets c3's bound; 1 (dense
    attention, the lossless fallback) when none does."""
    pts = _curve_eval(inst, out)
    if not pts:
        return None
    return float(min([1.0] + [f for f, e in pts if e <= LOSSLESS]))


def _rel_error_at_budget(inst, out):
    """Lowest relative error among the settings within c4's FLOP budget (reported, no claim)."""
    errs = [e for f, e in _curve_eval(inst, out) if f <= FLOP_BUDGET]
    return float(min(errs)) if errs else None


_PER_INSTANCE = LastOf()  # the last instance's data-only values


def _per_instance(inst, name, compute):
    """``compute()`` once per instance: the metrics' data-only intermediates (the float64 q, k,
    v, the dense mass per key, dense references) are the same for every method of an instance,
    and the worker runs an instance's methods one after another, so each cell reuses what its
    instance's first cell computed, the same numbers (issue 27: CPU). Keyed on the instance's q
    array (claimbench.memo; one entry: the full grid's float64 copies and references are
    ~0.5 GB). Callers must not modify the values in place."""
    return _PER_INSTANCE.get((inst.data["q"],), name, compute)


def _f64(inst):
    torch = bsa._torch()
    return _per_instance(inst, "f64", lambda: tuple(
        as_tensor(inst.data[x], torch.float64) for x in ("q", "k", "v")))  # (H, N, d) each


def _sharpness_error_spearman(inst, out):
    """Mean over heads of Spearman(routing score, per-query error of the Taylor path), the error
    taken against dense attention over the same kept keys (the approximation alone)."""
    if "routing_score" not in out:
        return None
    from scipy.stats import spearmanr

    torch = bsa._torch()
    q, k, v = _f64(inst)
    kept = torch.as_tensor(np.asarray(out["kept_keys"]))  # (H, N)
    H = q.shape[0]
    idx = torch.nonzero(kept)[:, 1].view(H, -1)  # (H, N_kept)
    hi = torch.arange(H)[:, None]
    # the methods that keep the same keys share this reference (one per kept set)
    ref = _per_instance(inst, ("kept_ref", kept.numpy().tobytes()), lambda: bsa.dense_attention(
        q, k[hi, idx], v[hi, idx], causal=False))  # (H, N, dv)
    taylor = as_tensor(out["taylor_out"], torch.float64)  # (H, N, dv)
    err = torch.linalg.norm(taylor - ref, dim=-1).numpy()  # (H, N)
    score = np.asarray(out["routing_score"], dtype=np.float64)  # (H, N)
    return float(np.mean([spearmanr(score[h], err[h]).statistic for h in range(H)]))


def _source_rel_error(inst, out):
    """Relative error over the source queries only (the tokens an editing DiT outputs)."""
    ns = inst.data.get("n_source")
    if ns is None:
        return None
    q, k, v = _f64(inst)
    ref = _per_instance(inst, ("source_ref", ns), lambda: bsa.dense_attention(
        q[:, :ns], k, v, causal=False))  # (H, ns, dv)
    diff = as_tensor(out["out"], ref.dtype)[:, :ns] - ref
    return float(np.linalg.norm(diff.numpy()) / np.linalg.norm(ref.numpy()))


def _key_mass(inst, out) -> np.ndarray:
    """(H, N) dense softmax mass each key receives, summed over all queries (data only)."""
    if "_key_mass" not in out:
        out["_key_mass"] = _per_instance(inst, "key_mass", lambda: _dense_key_mass(inst))
    return out["_key_mass"]


def _dense_key_mass(inst) -> np.ndarray:
    torch = bsa._torch()
    q, k, _ = _f64(inst)
    mass = torch.zeros(k.shape[:2], dtype=torch.float64)
    for a in range(0, q.shape[1], 512):
        mass += bsa.attention_probs(q[:, a:a + 512], k, None, None, causal=False).sum(1)  # (H, N)
    return mass.numpy()


def _context_mass_retained(inst, out):
    """Share of the dense attention mass on context keys that falls on the kept context keys."""
    ns = inst.data.get("n_source")
    if "kept_keys" not in out or ns is None or ns >= inst.data["k"].shape[1]:
        return None
    mass = _key_mass(inst, out)[:, ns:]  # (H, N_ctx)
    kept = np.asarray(out["kept_keys"])[:, ns:]
    return float(np.mean((mass * kept).sum(1) / mass.sum(1)))


def _saliency_ratio(inst, out):
    """Mean dense mass per source key / per context key (Insight 1; a property of the data)."""
    ns = inst.data.get("n_source")
    if ns is None or ns >= inst.data["k"].shape[1]:
        return None
    mass = _key_mass(inst, out)
    return float(np.mean(mass[:, :ns].mean(1) / mass[:, ns:].mean(1)))


METRICS = (
    Metric("rel_error", _get("rel_error"), False,
           "||out - dense||_F / ||dense||_F, dense = float64 bidirectional attention"),
    Metric("source_rel_error", _source_rel_error, False,
           "rel_error over the source queries only (reported, no claim)"),
    Metric("flop_ratio", _flop_ratio, False,
           "(attention + selection/routing FLOPs) / dense attention FLOPs (exact counts)"),
    Metric("flop_speedup", _get("flop_speedup"), True, "dense FLOPs / method FLOPs"),
    Metric("sharpness_error_spearman", _sharpness_error_spearman, True,
           "Spearman(routing score, per-query 0-th order Taylor error over the kept keys), mean over heads"),
    Metric("context_mass_retained", _context_mass_retained, True,
           "dense attention mass on kept context keys / on all context keys (ICL data)"),
    Metric("saliency_ratio", _saliency_ratio, True,
           "mean dense mass received per source key / per context key (data property)"),
    Metric("lossless_flop_ratio", _lossless_flop_ratio, False,
           "FLOP ratio of the lightest setting (the run, or a (rho, kappa) of its operating curve) "
           "with rel_error <= 0.01; 1 (dense) when none"),
    Metric("rel_error_at_budget", _rel_error_at_budget, False,
           "lowest rel_error among the settings with FLOP ratio <= 0.4 (reported, no claim)"),
    output_metric("seconds", description="process CPU seconds of the method's attention (one run)"),
)


def _methods(extra: bool) -> tuple:
    core = (
        cfg(InContextSparseAttention, label=ISA),
        cfg(InContextSparseAttention, label=RANDOM_ROUTING, mutant="random_routing"),
        cfg(InContextSparseAttention, label=RANDOM_PRESELECT, mutant="random_preselect"),
        cfg(BlockMeanAttention, label=TAYLOR, block_size=BLOCK, critical_ratio=0.1),
        cfg(BlockMeanAttention, label=BLOCK_MEAN, block_size=BLOCK),
        cfg(FullAttention, label=FULL, causal=False, block_size=BLOCK),
        # the operating curve of c4b (the run itself is ISA's default setting)
        cfg(InContextSparseAttention, label=ISA_CURVE, curve_rhos=CURVE_RHOS,
            curve_keep_ratios=CURVE_KEEPS),
        cfg(InContextSparseAttention, label=RANDOM_CURVE, mutant="random_routing",
            curve_rhos=CURVE_RHOS, curve_keep_ratios=CURVE_KEEPS),
    )
    if not extra:
        return core
    # the operating curve: the share of queries routed to full attention, and no pruning
    return core + (
        cfg(InContextSparseAttention, label="isa[rho=0.1]", rho=0.1),
        cfg(InContextSparseAttention, label="isa[rho=0.5]", rho=0.5),
        cfg(InContextSparseAttention, label="isa[keep_ratio=1.0]", keep_ratio=1.0),
    )


_THRESH_NOTE = ("Threshold from the research note's plan (fixed before any run); the paper's "
                "own numbers for this statistic were not read.")
_CORR_NOTE = ("Bound 0: 'correlates' is a positive correlation (issue 28: the note's Spearman >= "
              "0.5 asked more than the words); the paper's own numbers for this statistic were "
              "not read.")
# The ICML abstract's words, quoted by the headlines.
_Q_LOSSLESS = "the first experimentally lossless sparse framework tailored for ICL video editing"
_Q_SALIENCY = "context tokens exhibit significantly lower saliency than source tokens"
_Q_SHARPNESS = "Query sharpness correlates with approximation error"
_Q_PRESELECT = "ISA implements an efficient pre-selection strategy to prune redundant context"
_Q_GROUPING = ("a dynamic query grouping mechanism that routes high-error queries to full "
               "attention and low-error ones to a computationally efficient 0-th order Taylor "
               "sparse attention")
_Q_LATENCY = "LIVEditor-14B achieves a ~60% reduction in latency"
_Q_SOTA = "surpassing state-of-the-art methods across EditVerseBench, IVE-Bench, and VIE-Bench"
_Q_NO_LOSS = ("delivering experimentally lossless acceleration without compromising visual "
              "fidelity")

CLAIMS = (
    Claim(id="c1_sharpness_predicts_error", where="abstract; Sec. 3 (Insight 2)",
          text="query sharpness correlates with the 0-th order Taylor approximation error",
          paper_value="\"we theoretically prove and empirically validate that Query sharpness "
                      "correlates with approximation error\" (abstract)",
          check=Value(method=ISA, metric="sharpness_error_spearman", lo=0.0, where=ICL),
          source="paper",
          foils=(RANDOM_ROUTING,),
          foil_note="A routing score that carries no sharpness (uniform random) must not "
                    "correlate with the error; the other baselines route nothing.",
          note="Spearman over the query tokens of each head between ISA's sharpness (max "
               "pooled-block probability, our reading) and ||Taylor_i - dense_i||, Taylor_i the "
               "Taylor sparse path (critical blocks exact, the rest by block means) and dense_i "
               "attention over the same kept keys; mean over heads > 0. " + _CORR_NOTE),
    Claim(id="c1b_sharpness_predicts_error_vs", where="abstract; Sec. 3 (Insight 2)",
          text="the same correlation on vertical-slash attention maps (no context split)",
          paper_value="\"we theoretically prove and empirically validate that Query sharpness "
                      "correlates with approximation error\" (abstract)",
          check=Value(method=ISA, metric="sharpness_error_spearman", lo=0.0, where=VS),
          source="paper",
          foils=(RANDOM_ROUTING,),
          foil_note="As c1.",
          note="Transfer check on the shared planted sink/vertical/window/slash generator read "
               "bidirectionally. " + _CORR_NOTE),
    Claim(id="c2_beats_random_routing", where="abstract (dynamic query grouping)",
          text="routing the sharpest queries to full attention beats random routing at equal FLOPs",
          paper_value="\"a dynamic query grouping mechanism that routes high-error queries to "
                      "full attention and low-error ones to a computationally efficient 0-th "
                      "order Taylor sparse attention\" (abstract; no number)",
          check=Better(method=ISA, baseline=RANDOM_ROUTING, metric="rel_error", where=ICL),
          source="paper",
          foils=(TAYLOR,),
          foil_note="Taylor sparse attention for every query (no routing, no pruning) must not "
                    "beat random routing. (Random routing itself, a former foil, is the "
                    "baseline: Y against Y.)",
          note="Same rho, kappa and block size: identical FLOPs by construction. The comparison "
               "is the research note's check of the paper's grouping rule."),
    Claim(id="c2b_beats_random_routing_vs", where="abstract (dynamic query grouping)",
          text="the same on vertical-slash attention maps",
          paper_value="\"a dynamic query grouping mechanism that routes high-error queries to "
                      "full attention and low-error ones to a computationally efficient 0-th "
                      "order Taylor sparse attention\" (abstract; no number)",
          check=Better(method=ISA, baseline=RANDOM_ROUTING, metric="rel_error", where=VS),
          source="paper",
          foils=(TAYLOR,),
          foil_note="As c2.",
          note="Transfer check; no context split, so no pruning (kappa has no effect)."),
    Claim(id="c3_near_lossless", where="abstract",
          text="ISA is experimentally lossless: relative output error below 1%",
          paper_value="\"delivering experimentally lossless acceleration without compromising "
                      "visual fidelity\" (abstract; arXiv v1: 'near-lossless')",
          check=Value(method=ISA, metric="rel_error", hi=0.01, where=ICL),
          source="paper",
          foils=(TAYLOR, RANDOM_ROUTING),
          foil_note="The Taylor sparse path for every query, and grouping without the sharpness rule, "
                    "are what the paper's grouping is designed to improve on: they must not be "
                    "near-lossless.",
          note="'Experimentally lossless' read as mean relative Frobenius error < 1% of one attention "
               "layer (the note's operationalisation), at our rho = 0.3, kappa = 0.5, c = 0.1, "
               "b = 32. "
               + _THRESH_NOTE),
    Claim(id="c4_flop_ratio", where="abstract",
          text="~60% less attention cost: FLOP ratio at most 0.4 of dense attention",
          paper_value="\"LIVEditor-14B achieves a ~60% reduction in latency\" (abstract)",
          check=Exact(method=ISA, metric="flop_ratio", hi=0.4, where=ICL),
          source="derived", basis="construction",
          foils=(FULL,),
          foil_note="Dense attention has ratio 1.",
          note="Latency on an H100-class GPU replaced by exact FLOP counts including "
               "pre-selection and sharpness overheads (CPU time is recorded as a metric only). "
               "Same configuration as c3, whatever its error (c4b reads the cost at c3's error "
               "bound). By construction: the FLOP "
               "ratio is an exact count fixed by our rho, kappa, critical ratio and block size "
               "(0.2998 in every cell, the random mutants alike), not a measurement of the "
               "paper's latency; hence Exact, derived."),
    Claim(id="c4b_flop_ratio_at_lossless", where="abstract",
          text="~60% less attention cost at lossless quality: the lightest of our (rho, kappa) "
               "settings whose relative error is at most 1% costs at most 0.4 of dense "
               "attention's FLOPs",
          paper_value="\"" + _Q_LATENCY + "\"; \"" + _Q_NO_LOSS + "\" (abstract; arXiv v1: "
                      "'~60% reduction in attention-module latency', 'near-lossless')",
          check=Value(method=ISA_CURVE, metric="lossless_flop_ratio", hi=FLOP_BUDGET, where=ICL),
          source="paper",
          foils=(FULL, TAYLOR, RANDOM_CURVE),
          foil_note="Dense attention is lossless at no saving (ratio 1); the Taylor sparse path for "
                    "every query is one cheap setting that must not be lossless; random routing "
                    "over the same (rho, kappa) settings is the grouping without the sharpness "
                    "rule, which the abstract's 'routes high-error queries to full attention' "
                    "must beat on cost at equal quality.",
          note="Issue 28: the speed-up is claimed *at* lossless quality, so the cost is judged at "
               "the lightest setting that meets c3's bound, not at our fixed rho = 0.3, kappa = "
               "0.5 (where c3 fails). Per cell: each (rho, kappa) of rho in {0, 0.1, ..., 1} x "
               "kappa in {0.25, 0.5, 0.75, 1} (c = 0.1, b = 32), plus the run itself; the FLOP "
               "ratio (as c4, overheads included) of the cheapest one with relative error <= "
               "0.01; 1 when none meets it (dense attention is the lossless fallback), so the "
               "claim fails then. 0.4 from '~60% reduction' (as c4), 0.01 from c3 (the "
               "research note's 'flops_ratio <= 0.4 at relative error < 1%'); settings, bounds "
               "and foils declared before any run. FLOPs stand in for latency."),
    Claim(id="c5_preselect_keeps_context_mass", where="abstract; Sec. 3 (Insight 1)",
          text="pre-selection keeps the salient context: the kept half of the context blocks "
               "holds at least 90% of the context attention mass",
          check=Value(method=ISA, metric="context_mass_retained", lo=0.9, where=ICL),
          paper_value="\"context tokens exhibit significantly lower saliency than source "
                      "tokens\"; \"ISA implements an efficient pre-selection strategy to prune "
                      "redundant context\" (abstract)",
          source="derived", basis="construction",
          foils=(RANDOM_PRESELECT,),
          foil_note="Keeping a random kappa of the context blocks retains about kappa of the mass.",
          note="Our consequence of 'context tokens exhibit significantly lower saliency' plus "
               "the pre-selection rule, at kappa = 0.5; 0.9 is ours, fixed before any run. By "
               "construction: our generator plants the low context saliency (distractor "
               "segments with a logit penalty, few relevant context segments), so the mass "
               "the kept blocks hold follows from parameters we set."),
    Claim(id="c6_video_editing_quality", where="abstract",
          text="about 60% lower attention latency with experimentally lossless editing quality",
          paper_value="\"LIVEditor-14B achieves a ~60% reduction in latency while surpassing "
                      "state-of-the-art methods across EditVerseBench, IVE-Bench, and "
                      "VIE-Bench, delivering experimentally lossless acceleration without "
                      "compromising visual fidelity\" (abstract)",
          check=NotRun(method=ISA, reason="needs the 14B LIVEditor video DiT, its curated editing "
                                          "data and the video-editing benchmarks"),
          source="paper"),
    Claim(id="c7_context_less_salient", where="abstract (Insight 1)",
          text="in ICL video editing, context tokens receive less attention than source tokens",
          paper_value="\"" + _Q_SALIENCY + "\" (abstract)",
          check=NotRun(method=ISA, reason=(
              "needs the attention maps of an ICL video-editing DiT (LIVEditor-14B); on our "
              "synthetic tokens the low context saliency is planted by the generator, so "
              "measuring it there tests our construction (it is premise "
              "p_context_less_salient, which gates c3 and c5)")),
          source="paper"),
)

HEADLINES = (
    Headline(quote=_Q_LOSSLESS, claims=("c3_near_lossless",)),
    Headline(quote=_Q_SALIENCY, claims=("c7_context_less_salient",)),
    Headline(quote=_Q_SHARPNESS, claims=("c1_sharpness_predicts_error",
                                         "c1b_sharpness_predicts_error_vs")),
    Headline(quote=_Q_PRESELECT, claims=("c5_preselect_keeps_context_mass",)),
    Headline(quote=_Q_GROUPING, claims=("c2_beats_random_routing", "c2b_beats_random_routing_vs")),
    Headline(quote=_Q_LATENCY, claims=("c4b_flop_ratio_at_lossless", "c6_video_editing_quality")),
    Headline(quote=_Q_SOTA, claims=("c6_video_editing_quality",)),
    Headline(quote=_Q_NO_LOSS, claims=("c3_near_lossless", "c4b_flop_ratio_at_lossless",
                                       "c6_video_editing_quality")),
)

PREMISES = (
    Premise(id="p_context_less_salient",
            text="the synthetic ICL tokens embody Insight 1: a source key receives more dense "
                 "attention mass than a context key (saliency ratio > 1)",
            check=Value(method=ISA, metric="saliency_ratio", lo=1.0, where=ICL),
            claims=("c3_near_lossless", "c5_preselect_keeps_context_mass"),
            note="Issue 28: the setting must embody the insight the pre-selection relies on; "
                 "pruning half of a context as salient as the source cannot be lossless, so a "
                 "failure of c3 or c5 there says nothing of the paper. Bound 1 ('lower "
                 "saliency') by definition. The metric is a property of the data, the same for "
                 "every method of a cell."),
)

_ICL_SMOKE = sweep(InContextEditingTokens, n_source=[128], n_context=[128], n_heads=[2], head_dim=[16],
                   value_dim=[16])
_VS_SMOKE = sweep(VerticalSlashAttention, context=[256], n_heads=[2], value_dim=[16])
_ICL_QUICK = sweep(InContextEditingTokens, n_source=[1024], n_context=[1024])
_VS_QUICK = sweep(VerticalSlashAttention, context=[1024], n_heads=[4], value_dim=[32])
_ICL_FULL = tuple(cfg(InContextEditingTokens, n_source=n, n_context=n, n_heads=8, head_dim=64, value_dim=64)
                  for n in (4096, 8192))
_VS_FULL = sweep(VerticalSlashAttention, context=[8192], n_heads=[8])

BENCHMARK = Benchmark(
    slug="isa_sparse_attn",
    paper=Paper(
        title="Lightning Unified Video Editing via In-Context Sparse Attention",
        arxiv="2605.04569",
        url="https://arxiv.org/abs/2605.04569",
        version="arXiv v1 (abstract and introduction; method section via third-party summaries)",
        authors="Haopeng Li, Lichen Bai, Shitong Shao, Wenliang Zhong, Yingwei Song, Zeke Xie, Zikai Zhou",
    ),
    area="attention",
    fidelity="proxy",
    fidelity_note=("The attention mechanism only, on one synthetic layer of 2K tokens (the paper: "
                   "LIVEditor-14B video DiT, 5K-50K tokens, video-editing benchmarks). The method "
                   "is our reconstruction from the abstract and summaries (the sharpness and "
                   "saliency statistics and all hyperparameters are ours); latency is replaced by "
                   "exact FLOP counts; quality by the output error of one layer."),
    methods=(InContextSparseAttention,),
    baselines=(BlockMeanAttention, FullAttention),
    datasets=(InContextEditingTokens, VerticalSlashAttention),
    metrics=METRICS,
    primary_metric="rel_error",
    cost_note=("36 CPU-s, under the share since the 2026-12-06 speed-up that shares each "
               "instance's float64 dense references across its metrics. About 31 s is the "
               "2048-token ICL dataset: 11 configs x 10 seeds of one attention layer and its "
               "float64 scoring; isa (12 s) feeds c1-c5, the two 44-point operating curves (10 s) "
               "only c4b_flop_ratio_at_lossless. isa[rho=0.1], isa[rho=0.5], isa[keep_ratio=1.0] "
               "and block_mean_attention (~5 s) are read by no claim or premise (tables only)."),
    nondeterministic={"seconds": TIMING_RTOL},
    claims=CLAIMS,
    headlines=HEADLINES,
    premises=PREMISES,
    grids={
        "smoke": Grid(datasets=_ICL_SMOKE + _VS_SMOKE, seeds=3, methods=_methods(False),
                      note="256 tokens, 2 heads: exercises every method, metric and claim"),
        "quick": Grid(datasets=_ICL_QUICK + _VS_QUICK, seeds=10, methods=_methods(True),
                      note="2048 ICL tokens (1024 source + 1024 context), 4 heads, d = 32; "
                           "1024 vertical-slash tokens; 10 seeds"),
        "full": Grid(datasets=_ICL_FULL + _VS_FULL, seeds=20, methods=_methods(True),
                     note="8K-16K tokens, 8 heads, d = 64 (the paper's lower range of 5K-50K); "
                          "roughly 5-10 CPU-hours, dominated by the float64 dense reference "
                          "(not run)"),
    },
    description=__doc__,
    amendments=(
        Amendment(date="2026-12-03",
                  claims=("c1_sharpness_predicts_error", "c1b_sharpness_predicts_error_vs",
                          "c2_beats_random_routing", "c2b_beats_random_routing_vs", "c3_near_lossless",
                          "c4_flop_ratio", "c5_preselect_keeps_context_mass"),
                  what="Claim declarations unchanged; the method under them changed after the first "
                       "smoke run: ISA's cheap path was pure block-mean (0-th order Taylor) attention "
                       "over every kept block; it became Taylor *sparse* attention (the ceil(0.1 m) "
                       "critical blocks of each query block exact, the rest by block means), and the "
                       "'Taylor for all queries' foil became the same path without routing "
                       "(block_mean_attention[critical_ratio=0.1]).",
                  why="On re-reading the method summary ('for non-critical blocks, the block's mean "
                      "K/V as the 0-th order Taylor approximation'), not to move a verdict. Smoke "
                      "results seen before: rel_error 0.46 (c3), Spearman 0.41 (c1), context mass "
                      "0.54 (c5); the dataset, thresholds and foils were not changed.",
                  results_seen=True),
        Amendment(date="2026-12-06", claims=("c1b_sharpness_predicts_error_vs",),
                  what="source derived -> paper",
                  why="placed in the abstract (Insight 2)",
                  results_seen=True, rule="issue 26: source by placement"),
        Amendment(date="2026-12-06",
                  claims=("c2_beats_random_routing", "c2b_beats_random_routing_vs"),
                  what="foil isa[mutant=random_routing] removed (the Taylor foil remains); "
                       "source derived -> paper",
                  why="random routing is the Better baseline (Y against Y); placed in the "
                      "abstract (dynamic query grouping)",
                  results_seen=True,
                  rule="issue 26: Y-vs-Y foil removed; source by placement"),
        Amendment(date="2026-12-06", claims=("c4_flop_ratio",),
                  what="Value(flop_ratio, mean <= 0.4) -> Exact(flop_ratio <= 0.4, tol 0); "
                       "source paper -> derived, basis construction",
                  why="the FLOP ratio is an exact count fixed by our parameters (0.2998 in "
                      "every cell, the random mutants alike): deterministic, and not evidence "
                      "of the paper's latency",
                  results_seen=True, rule="issue 26: exact kind; construction basis"),
        Amendment(date="2026-12-06", claims=("c5_preselect_keeps_context_mass",),
                  what="basis construction (stays derived)",
                  why="the low context saliency it relies on is planted by our generator's "
                      "parameters",
                  results_seen=True, rule="issue 26: construction basis"),
        Amendment(date="2026-12-06",
                  claims=("c1_sharpness_predicts_error", "c1b_sharpness_predicts_error_vs"),
                  what="lower bound on the mean Spearman 0.5 -> 0",
                  why="issue 28: 'correlates with approximation error' is a positive correlation; "
                      "the research note's 0.5 asked more than the paper's words",
                  results_seen=True),
        Amendment(date="2026-12-06", claims=("c7_context_less_salient", "p_context_less_salient"),
                  what="headlines declared (8 checkable statements of the ICML abstract); not_run "
                       "c7 (Insight 1 on real video-editing attention); premise "
                       "p_context_less_salient (saliency ratio > 1 on the ICL tokens) gates c3, c5",
                  why="issue 28: abstract statements with no claim are listed with their reason; "
                      "the synthetic context must embody Insight 1 before a lossless pre-selection "
                      "can be read; bound 1 by definition, not from results",
                  results_seen=True),
        Amendment(date="2026-12-06", claims=('c1_sharpness_predicts_error', 'c1b_sharpness_predicts_error_vs', 'c2_beats_random_routing', 'c2b_beats_random_routing_vs', 'c3_near_lossless', 'c4_flop_ratio', 'c5_preselect_keeps_context_mass', 'c6_video_editing_quality', 'c7_context_less_salient'),
                  what="baselines/sparse_attention_metrics.py: the float64 dense reference of an instance (and each query's dense mass per key block) is computed once and memoised on the content of q, k, v for the methods measured on it, the retained mass of a method that keeps keys in order read from the per-block mass instead of a second pass; baselines/block_sparse_attention.py: query blocks gathered 8 at a time, each group padded to its own largest block count instead of one global pad",
                  why="issue 27 item 5 (the quick suite in 30 minutes on 2 cores): pbs_attn's quick grid measured 291 -> about 131 CPU-s (same-process A/B on one seed, projected); the arithmetic of each output is the same up to summation order (retained mass within 4e-16 relative, relative error within 8e-10 relative in the A/B), checked on every quick cell by claimbench verify --from-store after the suite's re-run",
                  results_seen=True,
                  rule='issue 27: faster code, same experiment; every non-timing metric of the committed quick cells unchanged within 1e-6 relative (claimbench verify)'),
        Amendment(date="2026-12-06", claims=("c4b_flop_ratio_at_lossless",),
                  what="new claim: the FLOP ratio of the lightest (rho, kappa) setting whose "
                       "relative error meets c3's 1% bound is at most 0.4 (metric "
                       "lossless_flop_ratio over an operating curve rho in {0, 0.1, ..., 1} x "
                       "kappa in {0.25, 0.5, 0.75, 1}; 1 when no setting meets the bound); new "
                       "configs isa[curve] (subject) and isa[curve,mutant=random_routing] (foil, "
                       "with full_attention and the Taylor path); mapped to the latency and "
                       "lossless headlines",
                  why="issue 28: c4's ratio (0.2998, the same for the random mutants) is fixed "
                      "by our rho, kappa and c at a setting where c3 fails (29% error against "
                      "1%); the paper claims the speed-up at lossless quality, so the cost is "
                      "judged at the lightest setting that meets the error bound. Settings, "
                      "bounds and foils declared before any run of the curve",
                  results_seen=False),
        Amendment(date="2026-12-06",
                  claims=("c1_sharpness_predicts_error", "c1b_sharpness_predicts_error_vs",
                          "c2_beats_random_routing", "c2b_beats_random_routing_vs",
                          "c3_near_lossless", "c4_flop_ratio", "c5_preselect_keeps_context_mass",
                          "c6_video_editing_quality", "c7_context_less_salient"),
                  what="declarations, checks, thresholds, foils and their cells unchanged; the "
                       "files they read changed: methods/isa_sparse_attn.py gains the operating "
                       "curve (fields curve_rhos, curve_keep_ratios, off by default; steps "
                       "(2)-(4) and (6) moved into helpers, the same operations in the same "
                       "order), and this benchmark file gains c4b's metrics and configs",
                  why="issue 28 (c4b above); recorded because the lock hashes the source files "
                      "every claim reads",
                  results_seen=True,
                  rule="issue 28-30 review: a change these claims do not read (new configs, cells "
                       "or branches); every non-timing metric of the committed quick cells "
                       "unchanged (compared cell by cell with the fresh run: 180 cells, 0 "
                       "differences)"),
        Amendment(date="2026-12-06", claims=('c1_sharpness_predicts_error', 'c1b_sharpness_predicts_error_vs', 'c2_beats_random_routing', 'c2b_beats_random_routing_vs', 'c3_near_lossless', 'c4_flop_ratio', 'c4b_flop_ratio_at_lossless', 'c5_preselect_keeps_context_mass', 'c6_video_editing_quality', 'c7_context_less_salient'),
                  what="the benchmark's metrics share their data-only intermediates per instance (float64 q/k/v, dense key mass, source reference, one dense reference per kept key set), computed by the same code, in a one-entry cache that holds the instance's q array; methods, grids, seeds, checks and foils unchanged",
                  why='issue 27 item 5 (quick-suite CPU): 1470 values of the 220 quick cells compared with a fresh run: 0 differences; 0.51x the CPU on paired instance sweeps; the re-run of the grid, under load, took 44 CPU-s against the committed 119',
                  results_seen=True,
                  rule='issue 27: faster code, same experiment; every non-timing metric of the committed quick cells unchanged (compared cell by cell with a fresh run: 0 differences)'),
        Amendment(date="2026-12-06", claims=('c1_sharpness_predicts_error', 'c1b_sharpness_predicts_error_vs', 'c2_beats_random_routing', 'c2b_beats_random_routing_vs', 'c3_near_lossless', 'c4_flop_ratio', 'c4b_flop_ratio_at_lossless', 'c5_preselect_keeps_context_mass', 'c6_video_editing_quality', 'c7_context_less_salient'),
                  what='the one-entry identity caches of the issue 27 speed-up now use the shared claimbench.memo.LastOf instead of a copy of their own (the same values computed once per instance, cell or trace); grids, seeds, checks and foils unchanged',
                  why='review of issue 27: one helper instead of three copies; all 220 quick cells re-run: 1470 non-timing values compared with the committed cells, 0 differences',
                  results_seen=True,
                  rule='issue 27: faster code, same experiment; every non-timing metric of the committed quick cells unchanged (compared cell by cell with a fresh run: 0 differences)'),
        Amendment(date="2026-12-07", claims=('c1_sharpness_predicts_error', 'c1b_sharpness_predicts_error_vs', 'c2_beats_random_routing', 'c2b_beats_random_routing_vs', 'c3_near_lossless', 'c4_flop_ratio', 'c4b_flop_ratio_at_lossless', 'c5_preselect_keeps_context_mass', 'c6_video_editing_quality', 'c7_context_less_salient'),
                  what="baselines/block_sparse_attention.attention_probs masks and clears NaNs in place (no grad) and sparse_attention_metrics' dense reference skips a zero-width pad: the same arithmetic on the same values",
                  why='issue 27 item 5: the dense references of long contexts cost less (attention_probs 0.66x the CPU at 8k keys); 1470 values of the 220 quick cells compared with a fresh run: 0 differences',
                  results_seen=True,
                  rule='issue 27: faster code, same experiment; every non-timing metric of the committed quick cells unchanged (compared cell by cell with a fresh run: 0 differences)'),
    ),
)
