"""The 57 papers of the suite (slug, area, title, arXiv id), taken from the research notes' index.

This list lives in the project so that a clone without the notes can still list every paper.
"""
from __future__ import annotations

from typing import NamedTuple


class PaperEntry(NamedTuple):
    slug: str
    area: str
    title: str
    arxiv: str  # "" where the notes name no arXiv id


AREAS = {
    'attention': 'Attention and sequence-model algorithms',
    'tiny_lm': 'Tiny language models and transformers',
    'games': 'Games, auctions and online learning',
    'privacy_estimation': 'Privacy, estimation and data structures',
    'optimization': 'Optimization and training dynamics',
    'reliable_prediction': 'Reliable prediction and uncertainty',
    'generative_science': 'Generative and scientific ML',
    'rl_systems': 'RL, control and systems',
    'llm_agents': 'LLM, agent and multimodal systems',
}

PAPERS: tuple[PaperEntry, ...] = (
    PaperEntry('ssd_duality', 'attention', 'SSD for diagonal SSMs ("On Structured State-Space Duality")', '2510.04944'),
    PaperEntry('pbs_attn', 'attention', 'PBS-Attn — Permuted Block-Sparse Attention for long-context prefill', '2510.21270'),
    PaperEntry('tilesparse', 'attention', 'TileSparse: arithmetic-intensity-aware sparse attention for compute-bound MLA decoding', ''),
    PaperEntry('isa_sparse_attn', 'attention', 'ISA — In-context Sparse Attention for ICL video editing (LIVEditor-14B)', '2605.04569'),
    PaperEntry('diasr_routing', 'attention', 'DiasR — personalized multi-subject video generation', '2505.20292'),
    PaperEntry('protot', 'tiny_lm', 'ProtoT — Prototype Transformer (interpretable linear-cost LM)', '2602.11852'),
    PaperEntry('qk_symmetric', 'tiny_lm', 'Symmetric / skew-symmetric decomposition of QKᵀ (Hopfield view)', '2605.27476'),
    PaperEntry('mp_moe', 'tiny_lm', 'MP-MoE — Mahalanobis-Pruned Mixture-of-Experts routing', ''),
    PaperEntry('puma', 'tiny_lm', 'PUMA — Progressive UnMAsking for masked-diffusion training', '2602.10314'),
    PaperEntry('fafo', 'tiny_lm', 'FAFO: lossy KV-cache drafting with lossless n-gram verification', ''),
    PaperEntry('cot_icgd', 'tiny_lm', 'CoT enables in-context gradient descent for N-layer networks', ''),
    PaperEntry('ssn_prm', 'games', 'Semi-smooth Newton for two-player zero-sum games, hybrid with PRM+', '2512.12910'),
    PaperEntry('ftrl_potential', 'games', 'FTRL can take (doubly) exponential time in potential games', '2601.23248'),
    PaperEntry('autobidding_raic', 'games', 'RAIC / OAIC — incentive compatibility in auto-bidding', '2508.16823'),
    PaperEntry('gcf_layer', 'games', 'Differentiable layer for generalized convex functions (GCF): OT and multi-good auctions', '2509.04477'),
    PaperEntry('bandit_ot', 'games', 'Linear bandits beyond inner products — Bandit Optimal Transport', '2502.07397'),
    PaperEntry('sgg_dp', 'privacy_estimation', 'Spherical Generalized Gamma (SGG) DP mechanisms; asymptotic optimality of Gaussian noise', '2606.08681'),
    PaperEntry('dp_ridge', 'privacy_estimation', 'Decoupled regularisation for DP ridge regression / ERM', ''),
    PaperEntry('kde_kernel_linalg', 'privacy_estimation', 'Even faster kernel-matrix linear algebra via KDE', '2510.02540'),
    PaperEntry('shapleig', 'privacy_estimation', 'ShaplEIG — Bayesian experimental design for Shapley values', '2606.02247'),
    PaperEntry('torus_graph', 'privacy_estimation', 'Torus Graphs at scale: stochastic score matching, TG-HMM, AR-TG', '2606.00496'),
    PaperEntry('bimetric_nn', 'privacy_estimation', 'Bi-metric framework for nearest-neighbour search (DiskANN / Cover Tree)', '2406.02891'),
    PaperEntry('triplet_dimension', 'privacy_estimation', 'Accuracy collapse of triplet embeddings below the true dimension', '2605.03346'),
    PaperEntry('adam_degenerate', 'optimization', 'Adam auto-converges linearly on highly degenerate polynomials', '2603.09581'),
    PaperEntry('softmax_power_law', 'optimization', 'Softmax + cross-entropy ⇒ universal 1/3 loss exponent', '2602.03685'),
    PaperEntry('continual_quadratic', 'optimization', 'Continual learning theory: quadratic nets on XOR clusters', '2510.05573'),
    PaperEntry('local_redundancy', 'optimization', 'Local redundancy as a plasticity measure', ''),
    PaperEntry('metadistill', 'optimization', 'MetaDistill: distilling classical-optimizer trajectories into learnable BBO optimizers', ''),
    PaperEntry('eob_benchmark', 'optimization', 'EoB — Evolution of Benchmark for black-box optimisation (LLM program evolution)', '2601.21877'),
    PaperEntry('gnnmim', 'reliable_prediction', 'GNNmim — GNNs with missing node features', '2601.04855'),
    PaperEntry('curve_scene_graph', 'reliable_prediction', 'CURVE: causality-inspired uncertainty-guided regularization for scene graphs', '2601.20355'),
    PaperEntry('e3_tensor_uq', 'reliable_prediction', 'E(3)-equivariant uncertainty quantification for symmetric rank-2 tensors', ''),
    PaperEntry('care_recsys', 'reliable_prediction', 'CARE: adaptive calibration for reliable recommendation sets under drift', ''),
    PaperEntry('eefp_early_exit', 'reliable_prediction', 'Early-Exit Failure Prediction (EEFP): calibration is not enough for EENNs', '2508.21495'),
    PaperEntry('picce_l2d', 'reliable_prediction', 'PiCCE — multi-expert learning to defer', '2602.17144'),
    PaperEntry('diag_cfm', 'generative_science', 'Diag-CFM — Diagonal Flow Matching for inverse design with abstention', '2603.15925'),
    PaperEntry('spikenet', 'generative_science', 'SpikeNet — spiking point-cloud network (SVMT + DSSR)', '2502.15811'),
    PaperEntry('snn_mmwave', 'generative_science', 'Frequency matching in SNNs for mmWave sensing', '2605.09983'),
    PaperEntry('pisd', 'generative_science', 'PISD — physics-informed diffusion in spectral space', '2602.09708'),
    PaperEntry('wiener_chaos_no', 'generative_science', 'Wiener-chaos neural operators for SDEs/SPDEs', '2601.01021'),
    PaperEntry('rtinfer_sim', 'rl_systems', 'RTInfer — concurrent real-time DNN inference on edge GPUs', ''),
    PaperEntry('action_space', 'rl_systems', 'Action-space design for imitation-learned manipulation', '2602.23408'),
    PaperEntry('ruleplanner', 'rl_systems', 'RulePlanner — all-in-one RL for design rules in 3D floorplanning', '2601.22476'),
    PaperEntry('bottleneck_gcrl', 'rl_systems', 'Offline GCRL via Laplacian spectral bottlenecks ("Find the Bottleneck")', ''),
    PaperEntry('behavioral_abstraction', 'rl_systems', 'Compositional behavioral semantics and metrics under state abstraction (RL theory)', '2606.25357'),
    PaperEntry('ibal_marl', 'rl_systems', 'IBAL — interaction-breaking adversarial learning for robust MARL', '2605.18024'),
    PaperEntry('atl_fgd_rna', 'llm_agents', 'ATL-FGD — adaptive topology + FiLM-guided distillation for 3D-structure RNA design', ''),
    PaperEntry('ideal_attribution', 'llm_agents', 'Ideal attribution mechanisms and faithful watermarks', '2512.07038'),
    PaperEntry('sage_nas', 'llm_agents', 'SAGE-NAS: LLM semantic agent + graph-based ZCP evaluator for NAS', ''),
    PaperEntry('inslen', 'llm_agents', 'InsLen: Instruction Lens Score for object-hallucination detection in MLLMs', '2605.12258'),
    PaperEntry('embodiedact', 'llm_agents', 'EmbodiedAct: LLMs grounded in MATLAB via perception–execution loops', '2602.20639'),
    PaperEntry('analogverifier', 'llm_agents', 'AnalogVerifier: neuro-symbolic testbench generation for analog circuits', ''),
    PaperEntry('sardi', 'llm_agents', 'SARDI — Self-Augmenting Retrieval for Diffusion LMs', '2606.06474'),
    PaperEntry('qm_libbench', 'llm_agents', 'QM-LibBench — cross-architecture library-scale code migration', ''),
    PaperEntry('a_memguard', 'llm_agents', 'A-MemGuard — defending LLM-agent memory', '2510.02373'),
    PaperEntry('geneb', 'llm_agents', 'GENEB — why genomic models are hard to compare', '2606.04525'),
    PaperEntry('unimrg', 'llm_agents', 'UniMRG — generation improves understanding in unified multimodal models', '2601.21406'),
)
BY_SLUG = {p.slug: p for p in PAPERS}
