"""Source-intrinsic copy: the migration that keeps the source ISA's SIMD code unchanged (the
"surface pattern" failure of code-migration agents: the source's intrinsics header and calls are
carried over to a target that has neither). On a different target ISA it does not compile.

``rename_header=True`` is the slightly less naive variant that swaps the source ISA's header
(``immintrin.h`` or ``arm_neon.h``) for the target's (``arm_neon.h`` / none) but keeps the source
ISA's calls: it still does not compile.
"""
from __future__ import annotations

from dataclasses import dataclass

from claimbench.methods.qm_libbench import ScoredCandidate

TARGET_HEADER = {"aarch64": "#include <arm_neon.h>", "riscv64": ""}
SOURCE_HEADERS = ("#include <immintrin.h>", "#include <arm_neon.h>")


@dataclass
class IntrinsicCopy(ScoredCandidate):
    name = "intrinsic_copy"
    rename_header: bool = False  # swap the x86 intrinsics header for the target's

    def propose(self, data: dict, seed: int) -> tuple[str, dict]:
        src = data["source"]
        if self.rename_header:
            for header in SOURCE_HEADERS:
                src = src.replace(header, TARGET_HEADER.get(data["arch"], ""))
        return src, {}
