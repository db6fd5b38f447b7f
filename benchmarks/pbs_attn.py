"""PBS-Attn (arXiv 2510.21270): does permuting keys inside segments make block-sparse prefill sparser?

PBS-Attn sorts the keys of every 256-token segment by the attention they get from the last
query block, then keeps, per query block, the fewest mean-pooled key blocks whose pooled mass
reaches tau, plus the sink block and the whole diagonal segment. It is compared at equal tau
with the same selection without permutation (MeanPooling), XAttention's antidiagonal selection,
an oracle that selects blocks by their true dense mass, full attention, three mutants of PBS
(no permutation, a random in-segment permutation, no diagonal segment) and PBS at tau = 1 (it
skips nothing: the speed-up claims' foil), at the authors' block 128 and segment 256, on
synthetic block-sparse q/k/v (sinks, a local window and 32 scattered heavy keys shared by all
queries) at 2k-8k tokens and on one layer of a small character LM (trained at 256 characters,
then on at 2048) reading held-out text; PBS with and without the permutation (and with a random
one) is also compared at equal retained mass (0.95, tau calibrated per instance against dense
attention).
Block density, output error, retained attention mass and exact FLOP counts are measured against
float64 dense attention (``baselines/sparse_attention_metrics.measure``).
"""
from __future__ import annotations

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
from claimbench.baselines.full_attention import FullAttention
from claimbench.baselines.mean_pooling_block_selection import MeanPoolingBlockSelection
from claimbench.baselines.oracle_block_selection import OracleBlockSelection
from claimbench.baselines.sparse_attention_metrics import measure_metric, measured
from claimbench.baselines.xattention_block_selection import XAttentionBlockSelection
from claimbench.checks import Better, NotRun, Ratio, Slope, Value
from claimbench.datasets.sink_local_retrieval_attention import SinkLocalRetrievalAttention
from claimbench.datasets.lm_attention_activations import DEFAULT_LM, LMAttentionActivations
from claimbench.methods.pbs_attn import PBSAttention


BLOCK = 128  # every method's block and the dense reference's tiling (the code's eval configs)


def _measured(inst, out) -> dict:
    return measured(inst, out, causal=True, block_size=BLOCK)


def _metric(key: str):
    return measure_metric(key, causal=True, block_size=BLOCK)


METRICS = (
    Metric("density", _metric("density"), False,
           "computed blocks holding a causally visible pair / blocks of a dense causal kernel "
           "(128 x 128 tiles); > 1 when a permuted diagonal segment costs more than the dense triangle"),
    Metric("rel_error", _metric("rel_error"), False,
           "||out - dense||_F / ||dense||_F against float64 dense causal attention"),
    Metric("retained_mass", _metric("retained_mass"), True,
           "mean over queries of the dense softmax mass on the (query, key) pairs computed"),
    Metric("flop_speedup", _metric("flop_speedup"), True,
           "dense causal FLOPs / (selected-block FLOPs + selection and permutation FLOPs)"),
    Metric("flops", _metric("flops"), False, "selected-block FLOPs + overhead_flops"),
    output_metric("seconds", description="CPU process time of selection + attention (torch, one "
                  "thread; reported only, no claim uses it)"),
)

PBS = "pbs_attn"
MEANPOOL = "mean_pooling"
ORACLE = "oracle_block_topk"
FULL = "full_attention"
NO_PERM = "pbs_attn[mutant=no_permutation]"
RAND_PERM = "pbs_attn[mutant=random_permutation]"
NO_DIAG = "pbs_attn[mutant=no_segment_diagonal]"
# Equal-quality arms (issue 28): tau chosen per instance so that the retained dense mass reaches
# MATCH, the research note's highest tau (0.95) read as a coverage level.
MATCH = 0.95
PBS_EQ = f"pbs_attn[match_mass={MATCH}]"
NO_PERM_EQ = f"pbs_attn[mutant=no_permutation,match_mass={MATCH}]"
RAND_PERM_EQ = f"pbs_attn[mutant=random_permutation,match_mass={MATCH}]"
# Foil of the speed-up claims (c6, c7; round 6 of issue 28): PBS at tau = 1, the code's
# threshold == 1 path: it permutes and runs the permuted kernel (paying the permutation scores and
# the pooled selection) on every allowed block, the sink and the whole diagonal segment: it skips
# nothing.
SELECT_ALL = "pbs_attn[tau=1.0]"

VS = {"dataset": "sink_local_retrieval_attention"}
LM = {"dataset": "lm_attention_activations"}

_METHODS = (
    cfg(FullAttention, label=FULL, block_size=BLOCK),
    cfg(MeanPoolingBlockSelection, label=MEANPOOL, block_size=BLOCK),
    cfg(OracleBlockSelection, label=ORACLE, block_size=BLOCK),
    cfg(XAttentionBlockSelection, label="xattention", block_size=BLOCK),
    cfg(PBSAttention, label=PBS, block_size=BLOCK),
    cfg(PBSAttention, label=NO_PERM, block_size=BLOCK, mutant="no_permutation"),
    cfg(PBSAttention, label=RAND_PERM, block_size=BLOCK, mutant="random_permutation"),
    cfg(PBSAttention, label=NO_DIAG, block_size=BLOCK, mutant="no_segment_diagonal"),
    cfg(PBSAttention, label=PBS_EQ, block_size=BLOCK, match_mass=MATCH),
    cfg(PBSAttention, label=NO_PERM_EQ, block_size=BLOCK, mutant="no_permutation",
        match_mass=MATCH),
    cfg(PBSAttention, label=RAND_PERM_EQ, block_size=BLOCK, mutant="random_permutation",
        match_mass=MATCH),
    cfg(PBSAttention, label=SELECT_ALL, block_size=BLOCK, tau=1.0),
)
# the research note's tau table, full grid only (no claim reads it)
_TAU_SWEEP = tuple(cfg(c, label=f"{lab}[tau={t}]", tau=t, block_size=BLOCK)
                   for t in (0.8, 0.95)
                   for c, lab in ((PBSAttention, PBS), (MeanPoolingBlockSelection, MEANPOOL),
                                  (OracleBlockSelection, ORACLE)))
_TAU_SWEEP += tuple(cfg(PBSAttention, label=f"pbs_attn[mutant=no_permutation,tau={t}]", tau=t, block_size=BLOCK,
                        mutant="no_permutation") for t in (0.8, 0.95))

_TINY_LM = {"d_model": 32, "layers": 2, "heads": 2, "steps": 20, "batch": 4, "context": 128}
# The quick/full LM (round 6 of issue 28): the default character LM (400 steps on windows of 256)
# trained on for 64 steps on single windows of 2048 characters (peak lr 1e-3, a third of the
# pre-training peak), so the T = 2048 maps are read within its training context, not by RoPE
# extrapolation. Fixed before any run; a from-scratch model at 2048 (~450 CPU-s) does not fit.
LM_SPEC = {**DEFAULT_LM, "extend_steps": 64, "extend_context": 2048, "extend_lr": 1e-3}


def _lm_cells(contexts):
    return tuple(cfg(LMAttentionActivations, label=f"lm_attention_activations[context={t},"
                                                    f"layer={layer},extend=2048x64]",
                     context=t, layer=layer, lm=LM_SPEC)
                 for t in contexts for layer in (0, 1, 2))

_FOIL_PERM = ("The claim is that the attention-guided permutation lowers density: the same "
              "selection without permutation, a random in-segment permutation (permutation "
              "without the last-block order) and full attention must fail it.")

_FOIL_PERM_VS_MUTANT = (
    "The claim is that the attention-guided permutation lowers density: a random in-segment "
    "permutation (permutation without the last-block order) and full attention must fail it. "
    "The no-permutation mutant is the comparison itself, so it is no foil.")
XATT = "xattention"
# The abstract's words (the ICML text), quoted by the headlines and the claims placed there.
_Q_SPARSITY = ("leverages the permutation properties of attention to increase block-level "
               "sparsity")
_Q_EFFICIENCY = "enhance the computational efficiency of LLM prefilling"
_Q_OUTPERFORMS = ("PBS-Attn consistently outperforms existing block-sparse attention methods in "
                  "model accuracy")
_Q_MATCHES_FULL = "closely matches the full attention baseline"
_Q_SPEEDUP = "PBS-Attn achieves an end-to-end speedup of up to"
# "well below" (issue 28's words for a block-sparse map) read as the research note's effect size,
# 1.3x fewer blocks (c2): a map on which even the exact-mass oracle is not 1.3x sparser than
# MeanPooling leaves no room for the effect the claims look for.
_WELL_BELOW = 1 / 1.3

BENCHMARK = Benchmark(
    slug="pbs_attn",
    paper=Paper(
        title="Sparser Block-Sparse Attention via Token Permutation",
        arxiv="2510.21270",
        url="https://arxiv.org/abs/2510.21270",
        version="arXiv v1 abstract + code xinghaow99/pbs-attn (body not read)",
        authors="Xinghao Wang, Pengyu Wang, Dong Zhang, Chenkun Tan, Shaojun Zhou, Zhaoxiang Liu, "
                "Shiguo Lian, Fangxu Liu, Kai Song, Xipeng Qiu",
    ),
    area="attention",
    fidelity="scaled_down",
    fidelity_note=("The algorithm follows the authors' code (block 128, segment 256, tau 0.9, "
                   "sink block, diagonal segment); contexts 2k-8k instead of 8k-128k, synthetic "
                   "block-sparse maps (sinks, local window, scattered heavy keys) and a 3-layer "
                   "character LM (trained at 256, then on at 2048 characters) instead of "
                   "Llama-3.1-8B / Qwen2.5-7B-1M, and no LongBench "
                   "accuracy: output "
                   "error and retained mass against float64 dense attention stand in. Speed is "
                   "exact FLOP counts, not GPU latency. Units are cells (context, seed; for the "
                   "LM also the layer, three maps of one text window)."),
    methods=(PBSAttention,),
    baselines=(FullAttention, MeanPoolingBlockSelection, OracleBlockSelection,
               XAttentionBlockSelection),
    datasets=(SinkLocalRetrievalAttention, LMAttentionActivations),
    metrics=METRICS,
    primary_metric="density",
    nondeterministic={"seconds": TIMING_RTOL},
    claims=(
        Claim(id="c1_sparser_than_meanpooling_synthetic", where="abstract; Sec. 3 (method)",
              text="at equal tau, permutation lowers the block density of the same selection",
              paper_value="\"a plug-and-play method that leverages the permutation properties of "
                          "attention to increase block-level sparsity\" (abstract)",
              check=Better(method=PBS, baseline=NO_PERM, metric="density", where=VS),
              source="paper", foils=(RAND_PERM, FULL), foil_note=_FOIL_PERM_VS_MUTANT,
              note="tau = 0.9 for both (the code's eval configs). The comparison is PBS with "
                   "the permutation removed (pi = identity; the sink block and the whole "
                   "diagonal segment forced as in PBS), so that only the permutation differs "
                   "(issue 28); MeanPooling, which forces the current block only, is c2's. "
                   "Synthetic block-sparse q/k/v at T = 2k, 4k, 8k, block 128."),
        Claim(id="c2_density_ratio_synthetic", where="research note (plan)",
              text="PBS density <= MeanPooling density / 1.3 at equal tau",
              check=Ratio(numerator=PBS, denominator=MEANPOOL, metric="density",
                          at_most=1 / 1.3, where=VS),
              source="derived", foils=(NO_PERM, RAND_PERM, FULL), foil_note=_FOIL_PERM,
              note="The note's proposed effect size (1.3x fewer blocks); geometric mean over cells."),
        Claim(id="c3_sparser_than_meanpooling_lm", where="abstract; Sec. 3 (method)",
              text="at equal tau, permutation lowers block density on real LM attention",
              paper_value="\"a plug-and-play method that leverages the permutation properties of "
                          "attention to increase block-level sparsity\" (abstract)",
              check=Better(method=PBS, baseline=NO_PERM, metric="density", where=LM),
              source="paper", foils=(RAND_PERM, FULL), foil_note=_FOIL_PERM_VS_MUTANT,
              note="Layers 0-2 of the toolkit's character LM at T = 2048: since round 6 of "
                   "issue 28 the LM (400 steps on windows of 256) is trained on for 64 steps on "
                   "windows of 2048, so the maps are read within its training context (before: "
                   "beyond it, by RoPE extrapolation). Compared with PBS without the "
                   "permutation, as c1 (issue 28). If p_oracle_sparse_lm still fails, the next "
                   "scale is an LM trained from scratch at 2048 (~450 CPU-s here for 400 steps "
                   "of one window) or a larger model."),
        Claim(id="c4_error_not_larger", where="research note (plan); abstract (accuracy)",
              text="at equal tau, PBS's output error is no larger than MeanPooling's",
              paper_value="\"PBS-Attn consistently outperforms existing block-sparse attention methods "
                          "in model accuracy and closely matches the full attention baseline\" "
                          "(abstract)",
              check=Better(method=PBS, baseline=MEANPOOL, metric="rel_error", margin=-0.01),
              source="paper", foils=(NO_DIAG,),
              foil_note="Dropping the diagonal segment loses the local window: its error must "
                        "exceed MeanPooling's by more than the margin.",
              note="Non-inferiority: rel_error(PBS) - rel_error(MeanPooling) < 0.01 (absolute; "
                   "ours, about a tenth of a typical tau = 0.9 error), both datasets pooled. The "
                   "paper's accuracy claim is LongBench scores close to full attention; relative "
                   "output error is our stand-in. Issue 26: placed in the abstract, so the paper's "
                   "claim; the margin and the stand-in are ours."),
        Claim(id="c5_density_falls_with_context", where="research note (plan)",
              text="PBS's block density falls as the context grows",
              check=Slope(method=PBS, metric="density", x="context", hi=-0.05, where=VS),
              source="derived", foils=(),
              foil_note="No foil. Dense attention's density is 1 at every length by definition "
                        "(its blocks over the dense kernel's blocks), a statistic fixed by "
                        "definition (issue 26); the wording, PBS's density falls, rules out no "
                        "other method of the grid.",
              note="Log-log slope of density against T over 2k-8k, upper bound -0.05 (ours: "
                   "excludes a flat density)."),
        Claim(id="c6_speedup_grows_with_context",
              where="our extrapolation (the paper's body could not be read here)",
              text="the speed-up over dense attention grows with context length",
              check=Slope(method=PBS, metric="flop_speedup", x="context", lo=0.05, where=VS),
              source="derived", foils=(SELECT_ALL,),
              foil_note="The words presuppose a speed-up that comes from work skipped, growing "
                        "as longer contexts let more blocks be skipped: PBS at tau = 1 (the "
                        "code's threshold-1 path), which permutes and pays the permutation and "
                        "selection cost but computes every block (the dense block count), must "
                        "not pass. Its FLOP ratio is data-independent arithmetic, about "
                        "(nb+1)/(nb+3) for nb blocks (0.895, 0.943, 0.970 at 2k, 4k, 8k): a "
                        "log-log slope near 0.058, above the bound, from the O(T) permutation "
                        "cost amortised against O(T^2) dense work alone (worked out when the "
                        "foil was chosen, before the run). Dense attention (speed-up exactly 1, "
                        "Y against Y) is no foil (issue 26).",
              note="Attention FLOP ratio (selected blocks + selection/permutation cost) instead "
                   "of GPU end-to-end latency; log-log slope over 2k-8k, lower bound 0.05 (ours). "
                   "The abstract states a speed-up 'up to 2.75x', not its growth with length, "
                   "and the paper's body could not be read here (the stored arXiv HTML v1 gives "
                   "the abstract and the start of the introduction only): our extrapolation from "
                   "'the attention matrix is often sparse, particularly for long sequences' "
                   "(abstract), not the paper's claim. The 2.75x is c10. c5 (PBS's density "
                   "against T) is the check that isolates sparsity growing with length; this "
                   "slope also grows from overhead amortisation (see the foil)."),
        Claim(id="c7_speedup_at_longest_context", where="abstract",
              text="PBS-Attn computes fewer FLOPs than dense attention at the longest context",
              paper_value="\"Powered by our custom permuted-FlashAttention kernels, PBS-Attn achieves an "
                          "end-to-end speedup of up to $\\mathbf{2.75\\times}$ in long-context "
                          "prefilling\" (abstract)",
              check=Value(method=PBS, metric="flop_speedup", lo=1.0,
                          where={**VS, "context": 8192}),
              source="paper", foils=(SELECT_ALL,),
              foil_note="The abstract credits the speed-up to block-sparse attention, which "
                        "'skips computation for a subset of these blocks', run by the "
                        "permuted-FlashAttention kernels: PBS at tau = 1 (the code's threshold-1 "
                        "path), which permutes, pays the permutation and selection cost and runs "
                        "the permuted kernel but skips no block, must fail 'fewer FLOPs than "
                        "dense attention'. Its FLOP ratio is data-independent arithmetic (about "
                        "(nb+1)/(nb+3), 0.970 at 8k): it checks that the count charges the "
                        "overhead and the permuted diagonal squares, not PBS's sparsity on the "
                        "data. The wording rules out no sparse method (any that skips blocks "
                        "may pass), and dense attention (exactly 1, Y against Y) is no foil "
                        "(issue 26).",
              note="Mean FLOP speed-up at T = 8192 above 1 (ours: any speed-up; the paper's "
                   "2.75x is end-to-end at 128k-512k tokens on a GPU)."),
        Claim(id="c8_error_vs_xattention", where="abstract",
              text="at equal tau, PBS's output error is lower than XAttention's",
              paper_value="\"" + _Q_OUTPERFORMS + "\" (abstract)",
              check=Better(method=PBS, baseline=XATT, metric="rel_error"),
              source="paper", foils=(NO_DIAG,),
              foil_note="Dropping the diagonal segment loses the local window: it must not "
                        "beat XAttention's error.",
              note="'Existing block-sparse methods' include XAttention, which is in the grid "
                   "(issue 28: c4 compares with MeanPooling only). Margin 0: 'outperforms'. "
                   "Relative output error against float64 dense attention stands in for model "
                   "accuracy; both datasets pooled."),
        Claim(id="c9_accuracy_close_to_full", where="abstract",
              text="PBS-Attn's model accuracy closely matches full attention's",
              paper_value="\"" + _Q_OUTPERFORMS + " and " + _Q_MATCHES_FULL + "\" (abstract)",
              check=NotRun(method=PBS, reason=(
                  "not built yet (issue 28): a downstream accuracy compared with full "
                  "attention's within a stated margin (LongBench on an 8B model cannot run here; "
                  "needle retrieval or next-token agreement of the character LM could); the "
                  "output-error stand-in has no accuracy scale on which to read 'closely "
                  "matches'")),
              source="paper"),
        Claim(id="c10_end_to_end_speedup_2_75x", where="abstract",
              text="up to 2.75x end-to-end speed-up in long-context prefilling",
              paper_value="\"Powered by our custom permuted-FlashAttention kernels, PBS-Attn "
                          "achieves an end-to-end speedup of up to $\\mathbf{2.75\\times}$ in "
                          "long-context prefilling\" (abstract)",
              check=NotRun(method=PBS, reason=(
                  "needs the authors' permuted-FlashAttention Triton kernels and an 8B model "
                  "prefilling 128k+ tokens on a GPU; here cost is an exact FLOP count of "
                  "attention alone on a CPU at 2k-8k tokens (c7)")),
              source="paper"),
        Claim(id="c11_no_quality_cost_synthetic", where="our derivation (issue 28: compare at "
                                                         "equal quality as well as equal tau)",
              text="at equal tau, PBS retains no less dense attention mass than the same "
                   "selection without permutation (within 0.01)",
              check=Better(method=PBS, baseline=NO_PERM, metric="retained_mass", margin=-0.01,
                           where=VS),
              source="derived", foils=(NO_DIAG,),
              foil_note="Dropping the diagonal segment loses the local window, part of each "
                        "query's mass: it must retain less than the unpermuted selection.",
              note="Equal tau is not equal quality (issue 28: on the old maps PBS retained 0.972 "
                   "of the mass against 0.936 at 2k). Read with c1: if c1 holds (fewer blocks) "
                   "and so does this (no less mass), PBS is sparser at equal or better quality; "
                   "if PBS is denser but retains more, equal tau does not decide it and the "
                   "full grid's tau sweep (PBS with and without the permutation at tau 0.8, "
                   "0.9, 0.95) gives the density-mass frontier. Margin 0.01 as c4's (ours)."),
        Claim(id="c12_sparser_at_equal_mass_synthetic", where="abstract; Sec. 3 (method)",
              text="at equal retained attention mass, permutation lowers the block density of "
                   "the same selection",
              paper_value="\"a plug-and-play method that leverages the permutation properties of "
                          "attention to increase block-level sparsity\" (abstract)",
              check=Better(method=PBS_EQ, baseline=NO_PERM_EQ, metric="density", where=VS),
              source="paper", foils=(RAND_PERM_EQ,),
              foil_note="The claim is that the attention-guided permutation lowers density at "
                        "equal quality: a random in-segment permutation calibrated to the same "
                        "retained mass (permutation without the last-block order) must fail it.",
              note="c1 at equal quality instead of equal tau (issue 28): each arm's tau is the "
                   "smallest (bisection on [0, 1], 12 steps) whose mean retained dense mass "
                   "reaches 0.95 on the instance (methods/pbs_attn.py, match_mass: reads dense "
                   "attention, an analysis device, not a deployable method). 0.95 = the note's "
                   "highest tau read as a coverage level; margin 0. Synthetic block-sparse q/k/v "
                   "at T = 2k, 4k, 8k, block 128."),
    ),
    headlines=(
        Headline(quote=_Q_SPARSITY, claims=("c1_sparser_than_meanpooling_synthetic",
                                            "c3_sparser_than_meanpooling_lm",
                                            "c12_sparser_at_equal_mass_synthetic")),
        Headline(quote=_Q_EFFICIENCY, claims=("c7_speedup_at_longest_context",)),
        Headline(quote=_Q_OUTPERFORMS, claims=("c4_error_not_larger", "c8_error_vs_xattention")),
        Headline(quote=_Q_MATCHES_FULL, claims=("c9_accuracy_close_to_full",)),
        Headline(quote=_Q_SPEEDUP, claims=("c7_speedup_at_longest_context",
                                           "c10_end_to_end_speedup_2_75x")),
    ),
    premises=(
        Premise(id="p_oracle_sparse_synthetic",
                text="the synthetic maps are block-sparse: the exact-mass oracle's block density "
                     "is well below MeanPooling's (at most 1/1.3 of it) at equal tau",
                check=Ratio(numerator=ORACLE, denominator=MEANPOOL, metric="density",
                            at_most=_WELL_BELOW, where=VS),
                claims=("c1_sparser_than_meanpooling_synthetic", "c2_density_ratio_synthetic",
                        "c11_no_quality_cost_synthetic", "c12_sparser_at_equal_mass_synthetic"),
                note="Issue 28: real long-context attention is block-sparse; a map where the "
                     "true-mass selection is not much sparser than the pooled estimate has no "
                     "sparsity for a permutation to expose. Bound: the note's effect size (c2)."),
        Premise(id="p_oracle_sparse_lm",
                text="the LM's attention maps are block-sparse: the exact-mass oracle's block "
                     "density is well below MeanPooling's (at most 1/1.3 of it) at equal tau",
                check=Ratio(numerator=ORACLE, denominator=MEANPOOL, metric="density",
                            at_most=_WELL_BELOW, where=LM),
                claims=("c3_sparser_than_meanpooling_lm",),
                note="As p_oracle_sparse_synthetic, on the character LM's layers."),
        Premise(id="p_oracle_density_falls",
                text="the synthetic maps grow sparser with length: the oracle's block density "
                     "falls with the context (log-log slope < 0)",
                check=Slope(method=ORACLE, metric="density", x="context", hi=0.0, where=VS),
                claims=("c5_density_falls_with_context", "c6_speedup_grows_with_context"),
                note="Issue 28: attention is sparser for longer sequences (the abstract's "
                     "'particularly for long sequences'); if even the exact-mass selection does "
                     "not thin out with T, PBS's density and speed-up cannot be read against "
                     "length. 'Falls' = slope < 0 by definition."),
    ),
    grids={
        "smoke": Grid(datasets=(sweep(SinkLocalRetrievalAttention, context=[512, 1024])
                                + (cfg(LMAttentionActivations, context=512, lm=_TINY_LM),)),
                      seeds=1, methods=_METHODS,
                      note="T > segment 256 so PBS permutes; a 20-step LM keeps training short"),
        "quick": Grid(datasets=(sweep(SinkLocalRetrievalAttention, context=[2048, 4096, 8192])
                                + _lm_cells([2048])),
                      seeds=3, methods=_METHODS,
                      note="block 128 (the authors'); synthetic maps at 2k-8k (8k: the authors' "
                           "shortest eval length), LM read at T = 2048, layers 0-2, within its "
                           "training context (400 steps at 256, then 64 at 2048); the LM is "
                           "trained once (then cached)"),
        "full": Grid(datasets=(sweep(SinkLocalRetrievalAttention, context=[2048, 4096, 8192])
                               + _lm_cells([2048, 4096])),
                     seeds=10, methods=_METHODS + _TAU_SWEEP,
                     note="the quick grid at 10 seeds, LM also at 4k (beyond its 2048 "
                          "training context), and the tau sweep 0.8 / "
                          "0.95 of the note's table (8 more arms, PBS with and without the "
                          "permutation among them: density against retained mass at several "
                          "tau); not measured, about 1.5 CPU-hours"),
    },
    amendments=(
        Amendment(date="2026-12-06", claims=("c5_density_falls_with_context",
                                             "c6_speedup_grows_with_context",
                                             "c7_speedup_at_longest_context"),
                  what="foil full_attention removed; no foil left",
                  why="full attention's density and FLOP speed-up are 1 at every length by "
                      "definition (dense attention measured against itself): a foil whose "
                      "statistic is fixed by definition gives no evidence",
                  results_seen=True, rule="issue 26: Y-vs-Y foils removed"),
        Amendment(date="2026-12-06", claims=("c4_error_not_larger",),
                  what="source derived -> paper; paper_value quotes the abstract's accuracy sentence",
                  why="placed in the abstract (accuracy close to full attention, better than "
                      "block-sparse methods), so filed as the paper's claim",
                  results_seen=True, rule="issue 26: source by placement"),
        Amendment(date="2026-12-06", claims=("c6_speedup_grows_with_context",),
                  what="source paper -> derived; where 'abstract; efficiency evaluation' -> the "
                       "research note and our derivation; the abstract quote dropped",
                  why="the abstract states a speed-up of up to 2.75x, not that it grows with "
                      "context (issue 28): a check the abstract does not state is ours",
                  results_seen=True, rule="issue 26: source by placement"),
        Amendment(date="2026-12-06", claims=("c1_sparser_than_meanpooling_synthetic",
                                             "c3_sparser_than_meanpooling_lm"),
                  what="c1, c3: comparison MeanPooling -> PBS with the permutation removed "
                       "(pbs_attn[mutant=no_permutation]), removed from the foils; foils "
                       "random_permutation and full_attention kept",
                  why="issue 28: the claim is about the permutation, and MeanPooling also "
                      "differs from PBS in the forced diagonal segment (which dominates density "
                      "at S/b = 4); only the mutant isolates the permutation",
                  results_seen=True),
        Amendment(date="2026-12-06",
                  claims=("c8_error_vs_xattention", "c9_accuracy_close_to_full",
                          "c10_end_to_end_speedup_2_75x"),
                  what="headlines declared (5 checkable statements of the ICML abstract); new "
                       "claims: c8 (PBS's output error below XAttention's, margin 0), not_run c9 "
                       "(accuracy close to full attention) and c10 (the 2.75x end-to-end "
                       "speed-up)",
                  why="issue 28: 'outperforms existing block-sparse methods' was tested against "
                      "MeanPooling only though XAttention is in the grid; abstract statements "
                      "with no claim are listed as not_run with their reason",
                  results_seen=True),
        Amendment(date="2026-12-06",
                  claims=("p_oracle_sparse_synthetic", "p_oracle_sparse_lm",
                          "p_oracle_density_falls"),
                  what="premises: the maps are block-sparse (oracle density at most 1/1.3 of "
                       "MeanPooling's, synthetic and LM) and grow sparser with length (oracle "
                       "density slope < 0)",
                  why="issue 28: the density claims were judged on maps that are not "
                      "block-sparse (oracle density 0.48-0.78); the bounds are the note's "
                      "effect size and the definition of 'falls', not results",
                  results_seen=True),
        Amendment(date="2026-12-06", claims=('c10_end_to_end_speedup_2_75x', 'c1_sparser_than_meanpooling_synthetic', 'c2_density_ratio_synthetic', 'c3_sparser_than_meanpooling_lm', 'c4_error_not_larger', 'c5_density_falls_with_context', 'c6_speedup_grows_with_context', 'c7_speedup_at_longest_context', 'c8_error_vs_xattention', 'c9_accuracy_close_to_full'),
                  what="baselines/sparse_attention_metrics.py: the float64 dense reference of an instance (and each query's dense mass per key block) is computed once and memoised on the content of q, k, v for the methods measured on it, the retained mass of a method that keeps keys in order read from the per-block mass instead of a second pass; baselines/block_sparse_attention.py: query blocks gathered 8 at a time, each group padded to its own largest block count instead of one global pad",
                  why="issue 27 item 5 (the quick suite in 30 minutes on 2 cores): pbs_attn's quick grid measured 291 -> about 131 CPU-s (same-process A/B on one seed, projected); the arithmetic of each output is the same up to summation order (retained mass within 4e-16 relative, relative error within 8e-10 relative in the A/B), checked on every quick cell by claimbench verify --from-store after the suite's re-run",
                  results_seen=True,
                  rule='issue 27: faster code, same experiment; every non-timing metric of the committed quick cells unchanged within 1e-6 relative (claimbench verify)'),
        Amendment(date="2026-12-06",
                  claims=("c1_sparser_than_meanpooling_synthetic", "c2_density_ratio_synthetic",
                          "c3_sparser_than_meanpooling_lm", "c4_error_not_larger",
                          "c5_density_falls_with_context", "c6_speedup_grows_with_context",
                          "c7_speedup_at_longest_context", "c8_error_vs_xattention",
                          "c9_accuracy_close_to_full",
                          "c10_end_to_end_speedup_2_75x", "p_oracle_sparse_synthetic",
                          "p_oracle_sparse_lm", "p_oracle_density_falls"),
                  what="setting: (a) the synthetic maps vertical_slash_attention (1k-4k) -> "
                       "sink_local_retrieval_attention at 2k, 4k, 8k (new file: 4 sinks, a "
                       "local window, 32 heavy keys per head shared by all queries and scattered "
                       "uniformly, the rest holding an expected 5% of each query's mass; the "
                       "boosts, window and noise of the old maps; 2 heads); (b) block 64 -> 128 "
                       "for every method and the reference tiling (segment 256 kept), the LM "
                       "included; (c) c7 read at T = 8192 (the longest) instead of 4096; (d) "
                       "the full grid's tau sweep adds the no-permutation mutant; no threshold, "
                       "premise bound or foil changed",
                  why="issue 28 and the round-4 brief: the premise 'real long-context attention "
                      "is block-sparse' failed on the old maps (oracle density 0.48-0.78, "
                      "MeanPooling near 0.7 at every length: i.i.d. noise over a rate of heavy "
                      "keys that grows with T spreads the mass); the new maps put most mass on "
                      "sinks, a window and a fixed set of heavy keys ('the attention matrix is "
                      "often sparse, particularly for long sequences'; MInference, H2O, "
                      "StreamingLLM), so they grow sparser with T; the authors run block 128 / "
                      "segment 256 at >= 8k in every eval config. The parameters were fixed "
                      "before PBS or its mutants were run on the new maps; only the oracle's "
                      "and MeanPooling's density (the premise's arms) were probed, on one seed "
                      "at 2k and 8k (0.58 / 0.85 and 0.32 / 0.85)",
                  results_seen=True),
        Amendment(date="2026-12-06", claims=("c11_no_quality_cost_synthetic",),
                  what="new derived claim: at equal tau PBS retains no less dense mass than the "
                       "unpermuted selection (non-inferiority, margin 0.01; foil: no diagonal "
                       "segment), gated by p_oracle_sparse_synthetic",
                  why="issue 28: compare at equal quality as well as at equal tau (at equal tau "
                      "PBS sat at a higher-quality point on the old maps); with c1 it says "
                      "whether PBS is sparser at no loss of retained mass",
                  results_seen=False),
        Amendment(date="2026-12-06", claims=("c12_sparser_at_equal_mass_synthetic",),
                  what="new paper claim: at equal retained dense mass (0.95, tau calibrated per "
                       "instance by bisection: methods/pbs_attn.py match_mass), PBS's block "
                       "density is below the unpermuted selection's; foil: the random "
                       "permutation calibrated the same way; three new arms; gated by "
                       "p_oracle_sparse_synthetic; the abstract's sparsity headline maps to it",
                  why="issue 28: compare at equal quality as well as at equal tau. Declared "
                      "before these arms were run; the equal-tau results of c1 and c11 on the "
                      "new maps had been seen (PBS denser by 0.04, retaining 0.004 more mass)",
                  results_seen=False),
        Amendment(date="2026-12-06",
                  claims=("c1_sparser_than_meanpooling_synthetic", "c2_density_ratio_synthetic",
                          "c3_sparser_than_meanpooling_lm", "c4_error_not_larger",
                          "c5_density_falls_with_context", "c6_speedup_grows_with_context",
                          "c7_speedup_at_longest_context", "c8_error_vs_xattention",
                          "c9_accuracy_close_to_full", "c10_end_to_end_speedup_2_75x",
                          "c11_no_quality_cost_synthetic", "c12_sparser_at_equal_mass_synthetic"),
                  what="methods/pbs_attn.py permuted_block_mass (the equal-mass arms' tau "
                       "calibration): each 512-query chunk reads only the permuted key rows up "
                       "to the last one holding a key in the chunk's past (the later rows are "
                       "causally masked for the whole chunk: probability exactly 0, nothing "
                       "added); the same float32 probabilities and float64 block sums bit for "
                       "bit (unit test against the full-width pass)",
                  why="issue 27 item 5: quick grid CPU 178 -> about 164 CPU-s (the three "
                      "match_mass arms at T = 8192: 18.4 -> 14.7 CPU-s a seed in a same-process "
                      "A/B, 4096: 3.9 -> 3.4, 2048: 0.70 -> 0.66; the rest unchanged)",
                  results_seen=True,
                  rule="issue 27: faster code, same experiment; every non-timing metric of the "
                       "committed quick cells unchanged (compared cell by cell with a fresh run: "
                       "0 differences)"),
        Amendment(date="2026-12-07", claims=('c10_end_to_end_speedup_2_75x', 'c11_no_quality_cost_synthetic', 'c12_sparser_at_equal_mass_synthetic', 'c1_sparser_than_meanpooling_synthetic', 'c2_density_ratio_synthetic', 'c3_sparser_than_meanpooling_lm', 'c4_error_not_larger', 'c5_density_falls_with_context', 'c6_speedup_grows_with_context', 'c7_speedup_at_longest_context', 'c8_error_vs_xattention', 'c9_accuracy_close_to_full'),
                  what="baselines/block_sparse_attention.attention_probs masks and clears NaNs in place (no grad) and sparse_attention_metrics' dense reference skips a zero-width pad: the same arithmetic on the same values; the retained mass of permuted masks (sparse_attention_metrics._retained_mass) reads only the causally visible keys of each query chunk (the others have probability exactly 0) and multiplies the chunk's probabilities by the cover in place",
                  why='issue 27 item 5: quick grid 115 -> 95 CPU-s with the character LM cached (run on busy cores); 990 values of the 198 quick cells compared with a fresh run: 27 retained_mass values differ by at most 3.5e-16 relative (the sum runs over fewer exact zeros, so its order changes), every other value equal',
                  results_seen=True,
                  rule='issue 27: faster code, same experiment; every non-timing metric of the committed quick cells unchanged to within 3.5e-16 relative (evaluation arithmetic reordered; compared cell by cell with a fresh run)'),
        Amendment(date="2026-12-07",
                  claims=("c6_speedup_grows_with_context", "c7_speedup_at_longest_context",
                          "c9_accuracy_close_to_full", "c10_end_to_end_speedup_2_75x"),
                  what="foil pbs_attn[tau=1.0] added to c6 and c7 (a new arm in every grid: PBS "
                       "at tau = 1, the code's threshold-1 path: permutation and selection paid, "
                       "every block computed); c6's where 'research note (plan: ...); our "
                       "derivation' -> 'our extrapolation (the paper's body could not be read "
                       "here)' and its note says so; checks and bounds unchanged. c9 and c10 "
                       "(not_run) are named because their design spans every arm of the grid",
                  why="issue 28: c6/c7 had no foil (dense attention, speed-up exactly 1, was "
                      "removed as Y against Y); their words presuppose a speed-up from skipped "
                      "blocks, so a PBS that skips nothing must fail them. The foil's FLOP ratio "
                      "is data-independent arithmetic, worked out when it was chosen and before "
                      "the run: ~(nb+1)/(nb+3), refuted for c7 (0.970 < 1 at 8k) but a slope of "
                      "~0.058 for c6, above its 0.05 bound (overhead amortisation), so c6 was "
                      "expected to stay not_discriminating, now because its foil passes. The "
                      "research note proposes 'density falls as T grows', not a growing "
                      "speed-up; the paper's body is not in the stored pages (arXiv HTML v1: "
                      "abstract and the start of the introduction only)",
                  results_seen=True),
        Amendment(date="2026-12-07",
                  claims=("c3_sparser_than_meanpooling_lm", "p_oracle_sparse_lm",
                          "c4_error_not_larger", "c8_error_vs_xattention"),
                  what="setting: the LM of the quick and full grids is trained on for 64 steps "
                       "on single windows of 2048 characters (peak lr 1e-3, warm-up 8, cosine; "
                       "datasets/lm_attention_activations.py: optional extend_* keys of the lm "
                       "spec, checkpoint-cached) after its 400 steps at 256; LM cells relabelled "
                       "'...,extend=2048x64]'; premise bound unchanged. c4 and c8 pool the LM "
                       "cells, so they move with it",
                  why="issue 28: c3's premise (the LM's maps are block-sparse) was judged at T = "
                      "2048 on a model trained at 256, by RoPE extrapolation, which is no fair "
                      "test of long-context attention. A model trained from scratch at 2048 "
                      "costs ~450 CPU-s (measured, 10 steps); continued training at the long "
                      "context (how long-context LLMs are made) fits the +60 CPU-s allowed. "
                      "Steps, lr and window fixed before any run (plan written first); no pilot",
                  results_seen=True),
    ),
    cost_note=("Measured on the quick grid (216 cells since round 6 of issue 28, one process, "
               "2-core machine shared by 8 jobs; two runs): 161-169 CPU-s for the cells with the base "
               "character LM cached (its training, ~50-57 CPU-s, runs once in the first LM "
               "cell from empty checkpoints), i.e. ~220 CPU-s from empty checkpoints on that "
               "loaded machine (~185 at the committed run's speed: the synthetic cells, "
               "identical in value, took 85 CPU-s against 68 committed). The T = 8192 "
               "synthetic cells take 71-74 CPU-s (12 arms x 3 seeds), 4096 ~15, 2048 ~5, the LM "
               "cells ~17 plus the LM's training. Round 6 added: (a) the LM's 64 continued "
               "steps on windows of 2048 (54-58 CPU-s measured here, ~45 at the committed "
               "speed; once, then cached): c3_sparser_than_meanpooling_lm and "
               "p_oracle_sparse_lm need maps read within the LM's training context (c4, c8 "
               "pool the LM cells); (b) the foil arm pbs_attn[tau=1.0] (9-10 CPU-s, a dense "
               "pass per cell): c6 and c7. Before round 4 of issue 28: ~57 CPU-s plus the LM "
               "training. Round 4's increase is what issue 28 asks for: the authors' block 128 "
               "at 8k tokens (feeds c1, c2, c5, c6, c7, c11, c12 and p_oracle_sparse_synthetic, "
               "p_oracle_density_falls) and the three equal-mass arms (50-64 CPU-s, mostly at "
               "8k: they compute dense attention to calibrate tau; they feed c12 only). The "
               "next LM scale (from scratch at 2048, ~450 CPU-s for 400 steps of one window) "
               "is not run. No arm feeds tables only."),
    description=__doc__.split("\n\n")[1].replace("\n", " "),
)
