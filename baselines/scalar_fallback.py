"""Scalar fallback migration: instead of porting a SIMD kernel to the target ISA, the patch
forwards the kernel's entry point to the library's portable C path (the fallback every SIMD
library keeps for unsupported CPUs). Always correct if the C path is; never faster than it.

Used by QM-LibBench (``benchmarks/qm_libbench.py``) as a candidate its harness must score as a
pass; any migration benchmark whose tasks give the entry point and the portable symbol can
reuse it.
"""
from __future__ import annotations

from dataclasses import dataclass

from claimbench.methods.qm_libbench import ScoredCandidate, fallback_source


@dataclass
class ScalarFallback(ScoredCandidate):
    name = "scalar_fallback"

    def propose(self, data: dict, seed: int) -> tuple[str, dict]:
        md = data["metadata"]
        return fallback_source(data["portable"], md["entry_point"], md["portable_symbol"]), {}
