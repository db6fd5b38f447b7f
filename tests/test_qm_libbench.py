"""QM-LibBench harness: known answers, the cross toolchains and qemu-user, and the mutants."""
from __future__ import annotations

import numpy as np
import pytest

from claimbench.baselines.intrinsic_copy import IntrinsicCopy
from claimbench.baselines.scalar_fallback import ScalarFallback
from claimbench.datasets.simd_kernel_tasks import TASKS, SimdKernelTask
from claimbench.methods.qm_libbench import (LLMMigration, ReferenceOverlay, drop_tail,
                                            extract_code, fallback_source, native_expected,
                                            score)
from claimbench.tools import MissingTool, require_tool

MASK = (1 << 64) - 1


class _Lcg:
    """The driver's generator, independently in Python."""

    def __init__(self, seed: int) -> None:
        self.s = seed

    def __call__(self) -> int:
        self.s = (self.s * 6364136223846793005 + 1442695040888963407) & MASK
        return self.s >> 33


FIXED = [0, 1, 3, 7, 15, 16, 17, 31, 33, 63, 64, 65]


def _lengths_and(rng: _Lcg, c: int) -> int:
    return FIXED[c] if c < 12 else 1 + rng() % 700


def _expected_dot(seed: int, cases: int) -> list[str]:
    rng, lines = _Lcg(seed), []
    for c in range(cases):
        n = _lengths_and(rng, c)
        ab = np.array([rng() % 2047 - 1023 for _ in range(2 * n)], dtype=np.int64).reshape(n, 2)
        lines.append(f"{n} {int(ab[:, 0] @ ab[:, 1]) if n else 0}")  # (n, 2): a, b interleaved
    return lines


def _expected_sad(seed: int, cases: int) -> list[str]:
    rng, lines = _Lcg(seed), []
    for c in range(cases):
        n = _lengths_and(rng, c)
        ab = np.array([rng() & 0xFF for _ in range(2 * n)], dtype=np.int64).reshape(n, 2)
        lines.append(f"{n} {int(np.abs(ab[:, 0] - ab[:, 1]).sum())}")  # (n, 2)
    return lines


@pytest.mark.parametrize("task,closed_form", [("dot_i16", _expected_dot),
                                              ("sad_u8", _expected_sad)])
def test_native_scalar_reference_matches_an_independent_computation(task, closed_form):
    inst = SimdKernelTask(task=task, n_cases=14).make(12345)
    md = inst.data["metadata"]
    got = native_expected(inst.truth["reference_c"], inst.data["driver"], md["symbol"],
                          md["portable_symbol"], inst.data["test_seed"], 14)
    assert got == closed_form(12345, 14)


def test_fallback_source_forwards_the_entry_point():
    md = TASKS["dot_i16"]["metadata"]
    src = fallback_source(TASKS["dot_i16"]["portable"], md["entry_point"], md["portable_symbol"])
    assert "return qm_dot_i16_c(n, a, b);" in src
    md = TASKS["saxpy_f32"]["metadata"]
    src = fallback_source(TASKS["saxpy_f32"]["portable"], md["entry_point"],
                          md["portable_symbol"])
    assert "  qm_saxpy_f32_c(n, a, x, y);" in src and "return qm_saxpy" not in src


def test_drop_tail_removes_only_the_tail_loop():
    for task in TASKS.values():
        for src in task["reference"].values():
            broken = drop_tail(src)
            assert "TAIL" not in broken and len(broken) < len(src)
            assert broken.count("for (") == src.count("for (") - 1


def test_extract_code():
    assert extract_code("hi\n```c\nint x;\n```\nbye") == ("int x;\n", True)
    assert extract_code("```\nint y;\n") == ("int y;\n", True)
    assert extract_code("no code") == ("no code", False)
    assert extract_code("") == ("", False)


@pytest.mark.parametrize("arch", ["aarch64", "riscv64"])
def test_harness_scores_the_candidates_on_each_target(arch):
    """Exercises aarch64-/riscv64-linux-gnu-gcc, qemu-aarch64/qemu-riscv64 and native gcc."""
    inst = SimdKernelTask(task="memchr_u8", arch=arch, n_cases=16).make(7)

    def run(m):
        out = m.run(inst.data, 7)
        return score(out["candidate"], inst.data, inst.truth["reference_c"], out["harness"],
                     time_ratio=False)

    ref = run(ReferenceOverlay())
    assert (ref["status"], ref["compiled"], ref["passed"]) == ("passed", 1.0, 1.0)
    fb = run(ScalarFallback())
    assert (fb["status"], fb["passed"]) == ("passed", 1.0)
    broken = run(ReferenceOverlay(mutant="tail_bug"))
    assert (broken["status"], broken["compiled"], broken["passed"]) == ("wrong_output", 1.0, 0.0)
    assert 0.0 < broken["case_rate"] < 1.0
    copy = run(IntrinsicCopy())
    assert (copy["status"], copy["compiled"], copy["passed"]) == ("compile_failed", 0.0, 0.0)
    assert run(IntrinsicCopy(rename_header=True))["compiled"] == 0.0
    # the harness mutants are fooled by the broken patch, as designed
    assert run(ReferenceOverlay(mutant="tail_bug", harness="compile_only"))["passed"] == 1.0
    assert run(ReferenceOverlay(mutant="tail_bug", harness="aligned_only"))["passed"] == 1.0


def test_empty_patch_and_bad_harness():
    inst = SimdKernelTask(task="sad_u8", arch="riscv64").make(1)
    res = score("   ", inst.data, inst.truth["reference_c"])
    assert res["status"] == "empty_patch" and res["compiled"] == 0.0
    with pytest.raises(ValueError):
        score("int x;", inst.data, inst.truth["reference_c"], harness="nope")
    with pytest.raises(ValueError):
        ReferenceOverlay(mutant="nope").run(inst.data, 1)


def test_tiny_llm_runs_end_to_end_and_fails_to_compile():
    inst = SimdKernelTask(task="saxpy_f32", arch="aarch64").make(3)
    out = LLMMigration(max_tokens=24).run(inst.data, 3)
    assert isinstance(out["candidate"], str) and out["fenced"] in (0.0, 1.0)
    res = score(out["candidate"], inst.data, inst.truth["reference_c"], time_ratio=False)
    assert res["passed"] == 0.0 and res["compiled"] == 0.0


def test_missing_tool_names_the_debian_package():
    with pytest.raises(MissingTool, match="gcc-loongarch64-linux-gnu"):
        require_tool("loongarch64-linux-gnu-gcc-does-not-exist", "gcc-loongarch64-linux-gnu")


def test_dataset_is_seeded_and_checked():
    a, b = SimdKernelTask(task="dot_i16").make(5), SimdKernelTask(task="dot_i16").make(5)
    assert a.data == b.data and a.data["test_seed"] == 5
    assert "reference_c" not in a.data and a.data["metadata"]["target_arch"] == "aarch64"
    with pytest.raises(ValueError):
        SimdKernelTask(task="nope").make(0)
