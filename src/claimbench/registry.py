"""The registry: plain imports of the benchmark modules. Adding a paper adds one import here.

Benchmark modules import only numpy and claimbench at top level (see api.py), so loading
the whole registry stays fast and never imports torch.
"""
from __future__ import annotations

from types import ModuleType

from .api import Benchmark


def _modules() -> list[ModuleType]:
    from .benchmarks import (  # attention; games; privacy_estimation; optimization; tiny_lm
        a_memguard,
        action_space,
        adam_degenerate,
        analogverifier,
        atl_fgd_rna,
        autobidding_raic,
        bandit_ot,
        behavioral_abstraction,
        bimetric_nn,
        bottleneck_gcrl,
        care_recsys,
        continual_quadratic,
        cot_icgd,
        curve_scene_graph,
        diag_cfm,
        diasr_routing,
        dp_ridge,
        e3_tensor_uq,
        eefp_early_exit,
        embodiedact,
        eob_benchmark,
        fafo,
        ftrl_potential,
        gcf_layer,
        geneb,
        gnnmim,
        ibal_marl,
        ideal_attribution,
        inslen,
        isa_sparse_attn,
        kde_kernel_linalg,
        local_redundancy,
        metadistill,
        mp_moe,
        pbs_attn,
        picce_l2d,
        pisd,
        protot,
        puma,
        qk_symmetric,
        qm_libbench,
        rtinfer_sim,
        ruleplanner,
        sage_nas,
        sardi,
        sgg_dp,
        shapleig,
        snn_mmwave,
        softmax_power_law,
        spikenet,
        ssd_duality,
        ssn_prm,
        tilesparse,
        torus_graph,
        triplet_dimension,
        unimrg,
        wiener_chaos_no,
    )

    return [ssd_duality, ssn_prm, ftrl_potential, autobidding_raic, gcf_layer, bandit_ot,
            sgg_dp, dp_ridge, kde_kernel_linalg, shapleig, bimetric_nn,
            torus_graph, triplet_dimension, adam_degenerate,
            continual_quadratic, softmax_power_law, picce_l2d,
            local_redundancy, care_recsys, eefp_early_exit, metadistill, eob_benchmark,
            e3_tensor_uq, curve_scene_graph, gnnmim,
            protot, mp_moe, puma, fafo, cot_icgd, qk_symmetric,
            pbs_attn, tilesparse, isa_sparse_attn, diasr_routing, pisd, diag_cfm,
            snn_mmwave, spikenet, wiener_chaos_no,
            rtinfer_sim, action_space, bottleneck_gcrl, behavioral_abstraction, ibal_marl,
            ruleplanner,
            geneb,
            ideal_attribution,
            sardi,
            unimrg,
            a_memguard,
            atl_fgd_rna,
            qm_libbench,
            embodiedact,
            analogverifier,
            sage_nas,
            inslen]


_CACHE: dict[str, ModuleType] | None = None


def _load() -> dict[str, ModuleType]:
    global _CACHE
    if _CACHE is None:
        _CACHE = {m.BENCHMARK.slug: m for m in _modules()}
    return _CACHE


def benchmarks() -> dict[str, Benchmark]:
    return {slug: m.BENCHMARK for slug, m in _load().items()}


def module_of(slug: str) -> ModuleType:
    return _load()[slug]
