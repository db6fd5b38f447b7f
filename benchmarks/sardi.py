"""SARDI (re-querying retrieval during masked-diffusion denoising) on generated 2-hop questions.

A generated knowledge base of one-fact passages and 2-hop questions whose answer sits in the
passage of a bridge entity the question never names. One small masked-diffusion reader is
trained once (checkpoint cache) on questions with passages in context; the arms differ only at
inference in which passages enter the context: none, BM25 on the question once (single-shot),
SARDI's BM25 re-query with question + partially denoised response after every step, and the
gold passages (oracle). Mutants of SARDI (committed tokens only, random draft, random passages,
a perfect retriever) are the foils. Checked: SARDI beats single-shot retrieval, stays below the
oracle, surfaces the bridge entity in its query after the first step, and commits more tokens
per forward pass than decoding without evidence.
"""
from __future__ import annotations

import numpy as np

from claimbench.api import TIMING_RTOL
from claimbench.api import (Amendment, Benchmark, Claim, Grid, Headline, Metric, Paper, cfg,
                            output_metric, sweep)
from claimbench.baselines.single_shot_rag import SingleShotRAG
from claimbench.checks import Better, NotRun
from claimbench.datasets.bridge_entity_kb import BridgeEntityKB
from claimbench.methods.sardi import SARDI

SARDI_ = "sardi"
STATIC = "rag_static"
NONE = "no_retrieval"
ORACLE = "oracle_rag"
COMMITTED = "sardi[tau_q=1]"
RAND_DRAFT = "sardi[mutant=random_draft]"
RAND_PASS = "sardi[mutant=random_passages]"
SARDI_ORACLE = "sardi[retriever=oracle]"


def _em(inst, out):
    return float(np.mean(np.asarray(out["answers"]) == inst.truth["answers"]))


def _bridge_in_query(step: int):
    def fn(inst, out):
        return float(np.mean([f"t{int(b)}" in q[min(step, len(q) - 1)]
                              for b, q in zip(inst.truth["bridges"], out["queries"])]))
    return fn


def _hop2_in_context(index: int):
    def fn(inst, out):
        return float(np.mean([g[1] in c[min(index, len(c) - 1)]
                              for g, c in zip(inst.truth["gold"], out["contexts"])]))
    return fn


def _trace_bridge(inst, out):
    return float(np.mean(np.asarray(out["responses"])[:, 2] == inst.truth["bridges"]))


METRICS = (
    Metric("em", _em, True, "exact match of the answer token (response position 6)"),
    Metric("bridge_in_query_step1", _bridge_in_query(1), True,
           "fraction of questions whose retrieval query after the first denoising step contains "
           "the bridge entity (static: the question; no retrieval: no query, 0)"),
    Metric("bridge_in_query_step2", _bridge_in_query(2), True, "as above, after step 2"),
    Metric("hop2_in_context_pass2", _hop2_in_context(1), True,
           "fraction of questions whose context at the second forward pass holds the second-hop "
           "passage (at the last pass when decoding took one)"),
    Metric("hop2_in_context_final", _hop2_in_context(-1), True,
           "second-hop passage in the context of the last forward pass"),
    Metric("trace_bridge_acc", _trace_bridge, True,
           "the reasoning trace names the right bridge entity (response position 2)"),
    output_metric("forward_passes", False, "denoising steps (forward passes) per question"),
    output_metric("tokens_per_pass", True, "response tokens committed per forward pass (7 / "
                  "passes), the parallelism of confidence-threshold decoding"),
    output_metric("retrievals", False, "BM25 calls per question (unchanged queries re-use)"),
    output_metric("cpu_s", False, "process CPU seconds of the cell (reader training if not cached)"),
)


def _methods(**reader) -> tuple:
    return (cfg(SARDI, label=SARDI_, **reader),
            cfg(SingleShotRAG, label=STATIC, retrieval="question", **reader),
            cfg(SingleShotRAG, label=NONE, retrieval="none", **reader),
            cfg(SingleShotRAG, label=ORACLE, retrieval="oracle", **reader),
            cfg(SARDI, label=COMMITTED, tau_q=1.0, **reader),
            cfg(SARDI, label=RAND_DRAFT, mutant="random_draft", **reader),
            cfg(SARDI, label=RAND_PASS, mutant="random_passages", **reader),
            cfg(SARDI, label=SARDI_ORACLE, retriever="oracle", **reader))


_TABLE1 = ("README Table 1 (EM x 100, DREAM-7B RAG-fine-tuned, BM25 K = 7): SARDI tau_c = 0.9 vs "
           "DLM ret@static: 2WikiMultiHopQA 57.8 vs 43.7, HotpotQA 48.3 vs 39.9, CofCA 45.3 vs "
           "43.4, MuSiQue 20.5 vs 11.1, SynthWorlds-SM 21.1 vs 14.4")
_BEAT_FOILS = (NONE, RAND_PASS)
_BEAT_NOTE = ("Decoding without evidence, and SARDI's loop fed random passages (grounding "
              "removed), must not beat single-shot question retrieval.")

BENCHMARK = Benchmark(
    slug="sardi",
    paper=Paper(
        title="Self-Augmenting Retrieval for Diffusion Language Models",
        arxiv="2606.06474",
        url="https://arxiv.org/abs/2606.06474",
        version="arXiv v1 abstract and introduction, ICML abstract; method and settings from "
                "the official code pauljngr/SARDI (generate.py, config.py, README Table 1)",
        authors="Paul Jünger, Justin Lovelace, Linxi Zhao, Dongyoung Go, Kilian Q. Weinberger",
    ),
    area="llm_agents",
    fidelity="proxy",
    fidelity_note=("The retrieval loop follows the official code (query = question + proxy "
                   "response with tau_q = 0, commit threshold tau_c = 0.9, K = 7, re-query "
                   "after every step, word de-duplication), but the reader is a 3-layer d = 64 "
                   "masked-diffusion transformer trained here on a generated knowledge base of "
                   "3-token facts with a fixed 7-token reasoning trace, not a RAG-fine-tuned "
                   "DREAM-7B on Wikipedia multi-hop QA; only directions compare, never numbers."),
    methods=(SARDI,),
    baselines=(SingleShotRAG,),
    datasets=(BridgeEntityKB,),
    metrics=METRICS,
    primary_metric="em",
    nondeterministic={"cpu_s": TIMING_RTOL},
    claims=(
        Claim(id="c1_beats_single_shot", where="Table 1 (code README); abstract",
              text="SARDI outperforms single-shot (question-only) retrieval with the same "
                   "diffusion model",
              paper_value=("\"Across five multi-hop QA benchmarks, SARDI outperforms current "
                           "training-free diffusion and autoregressive retrieval baselines\" "
                           "(abstract); " + _TABLE1),
              check=Better(method=SARDI_, baseline=STATIC, metric="em", margin=0.0),
              source="paper", foils=_BEAT_FOILS, foil_note=_BEAT_NOTE,
              note="Paired by test world (seed); one reader for all arms."),
        Claim(id="c2_gain_at_least_10_points", where="research note plan (Table 1: +14.1 on "
                                                     "2Wiki, +1.9 to +14.1 overall)",
              text="SARDI's EM exceeds single-shot retrieval's by at least 10 points",
              paper_value=_TABLE1,
              check=Better(method=SARDI_, baseline=STATIC, metric="em", margin=0.10),
              source="derived", foils=_BEAT_FOILS, foil_note=_BEAT_NOTE,
              note="The research note's threshold (10 EM points), about the paper's 2Wiki gap."),
        Claim(id="c3_below_oracle", where="issue (oracle-passage arm); Fig. 1 motivation",
              text="SARDI with BM25 stays below the oracle-passage reader",
              paper_value="not in the paper: the issue's sanity bound (retrieval misses remain)",
              check=Better(method=ORACLE, baseline=SARDI_, metric="em", margin=0.0),
              subject=SARDI_, source="derived", foils=(SARDI_ORACLE,),
              foil_note="SARDI's loop with a perfect retriever has the gold passages in every "
                        "context, so it must not stay below the oracle: the gap is BM25's.",
              note="Oracle = gold passages first, the other slots by question BM25."),
        Claim(id="c4_bridge_surfaces_early", where="abstract; Fig. 1",
              text="lookahead tokens surface the bridge entity early in the denoising "
                   "trajectory",
              paper_value="\"even low-confidence tokens often surface salient entities early "
                          "in the denoising trajectory\" (abstract; no number read)",
              check=Better(method=SARDI_, baseline=COMMITTED, metric="bridge_in_query_step1",
                           margin=0.0),
              source="paper", foils=(RAND_DRAFT, RAND_PASS),
              foil_note="Random tokens in the lookahead positions (the self-augmentation signal "
                        "removed) must not surface the bridge more often than committed-only "
                        "querying; nor may SARDI fed random passages, which cannot read the "
                        "bridge from its first context. Question-only retrieval (a foil until "
                        "issue 30) is 0 by definition here (the question never names the "
                        "bridge), so it could not pass and is dropped.",
              note="Fraction of questions whose query after step 1 (of up to 7) names the "
                   "bridge, SARDI (lookahead tokens in the query, tau_q = 0) against the same "
                   "loop querying with committed tokens only (tau_q = 1), paired by test world. "
                   "Until issue 30 the check was an absolute level >= 0.5, the research note's "
                   "threshold for the abstract's 'often', which the paper does not give."),
        Claim(id="c5_lookahead_helps", where="code README flags (tau_q = 0 'best-performing'); "
                                             "abstract",
              text="exposing uncommitted lookahead tokens to the retriever (tau_q = 0) beats "
                   "querying with committed tokens only (tau_q = 1)",
              paper_value="\"We show that the discarded tokens are in fact a useful lookahead "
                          "signal for retrieval-augmented generation\" (abstract); the code "
                          "README calls tau_q = 0 'the default and best-performing setting' "
                          "(no number read)",
              check=Better(method=SARDI_, baseline=COMMITTED, metric="em", margin=0.0),
              source="paper", foils=(RAND_DRAFT, RAND_PASS),
              foil_note="The same positions filled with random tokens, or SARDI fed random "
                        "passages, must not beat committed-only querying.",
              note="Only a difference when the bridge is not committed at the first step."),
        Claim(id="c6_more_parallel_with_evidence",
              where="research note (its reading of Sec. 1, a side finding; not verified)",
              text="grounding generation in retrieved evidence sharply reduces inter-token "
                   "dependence, so more tokens are committed per step",
              paper_value="RAG grounding lowers inter-token dependence, so more tokens can be "
                          "committed per step (Sec. 1, per research note; not verified; the "
                          "ICML abstract does not say it)",
              check=Better(method=SARDI_, baseline=NONE, metric="tokens_per_pass", margin=0.0),
              source="derived", foils=(RAND_PASS,),
              foil_note="With random passages the reader is ungrounded and must not commit "
                        "more tokens per pass than with no passages.",
              note="Confidence-threshold decoding (tau_c = 0.9) commits every token at least "
                   "that confident, so tokens per pass measures how many are jointly certain."),
        Claim(id="c7_beats_ar_dynamic_rag_faster", where="abstract; Table 1",
              text="SARDI outperforms training-free autoregressive dynamic retrieval baselines "
                   "at up to 8x higher throughput",
              paper_value="\"SARDI outperforms current training-free diffusion and "
                          "autoregressive retrieval baselines at up to 8× higher throughput\" "
                          "(abstract)",
              check=NotRun(method=SARDI_, reason="needs a 7B autoregressive LM with FLARE/"
                           "DRAGIN-style retrieval and GPU wall-clock throughput; a tiny "
                           "reader's CPU timings say nothing about it"),
              source="paper"),
        Claim(id="c8_table1_scale", where="Table 1",
              text="EM gains on five multi-hop QA benchmarks with DREAM-7B",
              paper_value=_TABLE1,
              check=NotRun(method=SARDI_, reason="needs DREAM-7B (RAG-fine-tuned) and the "
                           "Wikipedia-scale BM25 indexes of 2Wiki, HotpotQA, MuSiQue, CofCA, "
                           "SynthWorlds"),
              source="paper"),
        Claim(id="c9_retriever_agnostic", where="abstract",
              text="SARDI works with any retriever",
              paper_value="\"SARDI is training-free, retriever-agnostic, and applicable to any "
                          "reasoning-capable discrete diffusion language model\" (abstract)",
              check=NotRun(method=SARDI_, reason="only BM25 (and an oracle retriever for a "
                           "foil) is implemented; not built yet (issue 30): c1 (SARDI against "
                           "single-shot retrieval, EM) with a dense retriever in BM25's place"),
              source="paper"),
        Claim(id="c10_any_diffusion_lm", where="abstract",
              text="SARDI applies to any reasoning-capable discrete diffusion language model",
              paper_value="\"applicable to any reasoning-capable discrete diffusion language "
                          "model\" (abstract)",
              check=NotRun(method=SARDI_, reason="each grid reads one small reader trained "
                           "here (DREAM-7B and LLaDA do not run); not built yet (issue 30): c1 "
                           "with readers of two architectures in one grid"),
              source="paper"),
        Claim(id="c11_stronger_evidence_early", where="abstract",
              text="lookahead tokens enable retrieval of stronger evidence before the output "
                   "is finalized",
              paper_value="\"enabling retrieval of stronger evidence before the output is "
                          "finalized\" (abstract)",
              check=NotRun(method=SARDI_, reason="not built yet (issue 30): the second-hop "
                           "passage in the context at the second forward pass "
                           "(hop2_in_context_pass2), SARDI against committed-only querying "
                           "(sardi[tau_q=1])"),
              source="paper"),
    ),
    headlines=(
        Headline(quote="the discarded tokens are in fact a useful lookahead signal for "
                       "retrieval-augmented generation",
                 claims=("c5_lookahead_helps",)),
        Headline(quote="even low-confidence tokens often surface salient entities early in the "
                       "denoising trajectory",
                 claims=("c4_bridge_surfaces_early",)),
        Headline(quote="enabling retrieval of stronger evidence before the output is finalized",
                 claims=("c11_stronger_evidence_early",)),
        Headline(quote="retriever-agnostic", claims=("c9_retriever_agnostic",)),
        Headline(quote="applicable to any reasoning-capable discrete diffusion language model",
                 claims=("c10_any_diffusion_lm",)),
        Headline(quote="Across five multi-hop QA benchmarks, SARDI outperforms current "
                       "training-free diffusion and autoregressive retrieval baselines",
                 claims=("c1_beats_single_shot", "c8_table1_scale",
                         "c7_beats_ar_dynamic_rag_faster")),
        Headline(quote="at up to 8× higher throughput",
                 claims=("c7_beats_ar_dynamic_rag_faster",)),
    ),
    amendments=(
        Amendment(date="2026-12-06", claims=("c6_more_parallel_with_evidence",),
                  what="source paper -> derived; where names the research note's reading of "
                       "Sec. 1; check and foil unchanged",
                  why="issue 30: c6's sentence is not in the abstract and the body was not read "
                      "to verify it; it is the research note's reading",
                  results_seen=True,
                  rule="issue 26: source by placement (a research note's reading the abstract "
                       "does not state is derived)"),
        Amendment(date="2026-12-06", claims=("c4_bridge_surfaces_early",),
                  what="Value(bridge_in_query_step1 >= 0.5) -> Better(sardi over sardi[tau_q=1] "
                       "on bridge_in_query_step1, margin 0); foils rag_static, "
                       "sardi[mutant=random_passages] -> sardi[mutant=random_draft], "
                       "sardi[mutant=random_passages]",
                  why="issue 30: the 0.5 level was the research note's (the paper says 'often') "
                      "and alone made c4 fail; the abstract's point is that lookahead tokens "
                      "surface the entity, so the contrast is with committed-only retrieval; "
                      "question-only retrieval is 0 by definition on this metric and could not "
                      "pass, random lookahead tokens are the foil the wording calls for",
                  results_seen=True),
        Amendment(date="2026-12-06",
                  claims=("c9_retriever_agnostic", "c10_any_diffusion_lm",
                          "c11_stronger_evidence_early"),
                  what="not_run paper claims added for 'retriever-agnostic', 'applicable to any "
                       "reasoning-capable discrete diffusion language model' and 'retrieval of "
                       "stronger evidence before the output is finalized'; headlines declared "
                       "(7 statements of the ICML abstract)",
                  why="issue 30: every checkable statement of the abstract is mapped to a claim",
                  results_seen=True),
        Amendment(date="2026-12-06", claims=('c10_any_diffusion_lm', 'c11_stronger_evidence_early', 'c1_beats_single_shot', 'c2_gain_at_least_10_points', 'c3_below_oracle', 'c4_bridge_surfaces_early', 'c5_lookahead_helps', 'c6_more_parallel_with_evidence', 'c7_beats_ar_dynamic_rag_faster', 'c8_table1_scale', 'c9_retriever_agnostic'),
                  what="baselines/bm25_retrieval.py scores with a term-frequency table built once from BM25Okapi's own index and the package's formula in the same operations and order (a new test checks it against get_scores exactly on 1000 random queries); grids, seeds, steps, checks and foils unchanged",
                  why='issue 27 item 5 (quick-suite CPU): 720 values of the 80 quick cells compared with a fresh run: 0 differences; building the training set about 0.5x (about 2 % of the benchmark)',
                  results_seen=True,
                  rule='issue 27: faster code, same experiment; every non-timing metric of the committed quick cells unchanged (compared cell by cell with a fresh run: 0 differences)'),
        Amendment(date="2026-12-06", claims=('c10_any_diffusion_lm', 'c11_stronger_evidence_early', 'c1_beats_single_shot', 'c2_gain_at_least_10_points', 'c3_below_oracle', 'c4_bridge_surfaces_early', 'c5_lookahead_helps', 'c6_more_parallel_with_evidence', 'c7_beats_ar_dynamic_rag_faster', 'c8_table1_scale', 'c9_retriever_agnostic'),
                  what="the masked-diffusion reader trains with foreach Adam/AdamW (one call per step for the parameter list, the per-tensor loop's arithmetic)",
                  why='issue 27 item 5: the quick suite must fit 30 minutes on 2 cores; this cuts CPU without changing what any cell computes',
                  results_seen=True,
                  rule='issue 27: faster code, same experiment; every non-timing metric of the committed quick cells unchanged (compared cell by cell with a fresh run: 0 differences)'),
        Amendment(date="2026-12-07", claims=('c10_any_diffusion_lm', 'c11_stronger_evidence_early', 'c1_beats_single_shot', 'c2_gain_at_least_10_points', 'c3_below_oracle', 'c4_bridge_surfaces_early', 'c5_lookahead_helps', 'c6_more_parallel_with_evidence', 'c7_beats_ar_dynamic_rag_faster', 'c8_table1_scale', 'c9_retriever_agnostic'),
                  what="datasets/sudoku.py, imported by the shared baselines/masked_diffusion.py for its solved() check, draws PUMA's puzzles with one permuted call per run of equal lengths (the same random draws, the same grids bit for bit; tests/test_puma.py compares it with the old loop); sardi's cells do not draw Sudoku puzzles",
                  why="issue 27 item 5 (puma's data generation 3.3 -> 0.9 CPU-s); sardi's source hashes include the file through the import; its 80 quick cells re-run in the timed make report of this change and compared value by value with the committed cells",
                  results_seen=True,
                  rule='issue 27: faster code, same experiment; every non-timing metric of the committed quick cells unchanged (compared cell by cell with a fresh run: 0 differences)'),
    ),
    grids={
        "smoke": Grid(datasets=sweep(BridgeEntityKB, n_test=[20], n_train=[2000]), seeds=2,
                      methods=_methods(train_steps=150, batch_size=32),
                      note="a 150-step reader: plumbing only, no claim can be decided"),
        "quick": Grid(datasets=sweep(BridgeEntityKB, n_test=[100]), seeds=10,
                      methods=_methods(),
                      note="one reader (trained once, cached) read on 10 fresh worlds of 60 "
                           "entities, 100 questions each"),
        "full": Grid(datasets=sweep(BridgeEntityKB, n_kb=[500], n_test=[1000],
                                    n_train=[200000], n_entities=[2000]), seeds=20,
                     methods=_methods(d_model=256, n_layers=6, n_heads=8, train_steps=20000,
                                      batch_size=128, lr=5e-4),
                     note="a 6-layer d = 256 reader for 20k steps on larger worlds: GPU scale"),
    },
    cost_note=("One cell (sardi, one seed) trains the reader every arm shares, a 3-layer d = 64 "
               "masked-diffusion transformer, for 2000 steps (~106 CPU-s, then cached); the other "
               "79 cells only decode with it (~10 s in all). c1_beats_single_shot and "
               "c5_lookahead_helps, both reproduced, read this reader; fewer steps were not "
               "tried, and profiling judged that halving them could flip those verdicts. No cell "
               "feeds tables only."),
    description=__doc__.split("\n\n")[1].replace("\n", " "),
)
