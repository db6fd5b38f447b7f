"""QM-LibBench harness: known answers, the cross toolchains and qemu-user, and the mutants."""
from __future__ import annotations

import numpy as np
import pytest
from claimbench.baselines.intrinsic_copy import IntrinsicCopy
from claimbench.baselines.scalar_fallback import ScalarFallback
from claimbench.datasets.simd_kernel_tasks import TASKS, SimdKernelTask
from claimbench.methods.qm_libbench import (
    LLMMigration,
    ReferenceOverlay,
    cross_run,
    drop_tail,
    extract_code,
    fallback_source,
    native_expected,
    score,
)

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


# --- the ARM NEON -> RISC-V task (issue 30) ---------------------------------------------------

def _fnv(buf: bytes) -> int:
    h = 1469598103934665603
    for byte in buf:
        h = ((h ^ byte) * 1099511628211) & MASK
    return h


def _expected_ycc(seed: int, cases: int) -> list[str]:
    """The driver's YCbCr -> RGB row, recomputed in numpy from the JFIF equations in fixed point
    (floor shifts, saturation), with the 0xA5 guard bytes past the row."""
    rng, lines = _Lcg(seed), []
    for c in range(cases):
        n = _lengths_and(rng, c)
        ycc = np.array([rng() & 0xFF for _ in range(3 * n)], dtype=np.int64).reshape(n, 3)
        y, u, v = ycc[:, 0], ycc[:, 1] - 128, ycc[:, 2] - 128  # (n,) each
        rgb = np.stack([y + ((4 * 22971 * v + 32768) >> 16),
                        y + ((-11277 * u - 23401 * v + 16384) >> 15),
                        y + ((4 * 29033 * u + 32768) >> 16)], axis=1)  # (n, 3)
        buf = np.clip(rgb, 0, 255).astype(np.uint8).tobytes() + b"\xa5" * 24
        lines.append(f"{n} {_fnv(buf):016x}")
    return lines


def test_ycc_fixed_point_rounds_the_jfif_conversion():
    # rounding (0.5) plus the constants' quantisation (|u| <= 128 times < 4e-5)
    u = np.arange(256) - 128  # (256,)
    assert np.abs(((4 * 22971 * u + 32768) >> 16) - 1.402 * u).max() <= 0.51
    assert np.abs(((4 * 29033 * u + 32768) >> 16) - 1.772 * u).max() <= 0.51
    uu, vv = np.meshgrid(u, u)  # (256, 256)
    g = (-11277 * uu - 23401 * vv + 16384) >> 15
    assert np.abs(g - (-0.34414 * uu - 0.71414 * vv)).max() <= 0.51


def test_ycc_native_reference_matches_an_independent_computation():
    inst = SimdKernelTask(task="ycc_rgb_u8", arch="riscv64", n_cases=14).make(2024)
    md = inst.data["metadata"]
    got = native_expected(inst.truth["reference_c"], inst.data["driver"], md["symbol"],
                          md["portable_symbol"], inst.data["test_seed"], 14)
    assert got == _expected_ycc(2024, 14)


def test_ycc_neon_source_is_correct_on_aarch64():
    """The task's source is a working NEON kernel (qemu-aarch64), so the task migrates correct
    code: its output equals the scalar path's in every case, tails included."""
    inst = SimdKernelTask(task="ycc_rgb_u8", arch="riscv64", n_cases=20).make(11)
    compiled, lines, _ = cross_run(inst.data["source"], inst.data["driver"], "aarch64", 11, 20)
    assert compiled and lines == _expected_ycc(11, 20)


def test_harness_scores_the_candidates_on_the_neon_to_riscv_task():
    inst = SimdKernelTask(task="ycc_rgb_u8", arch="riscv64", n_cases=16).make(5)

    def run(m):
        out = m.run(inst.data, 5)
        return score(out["candidate"], inst.data, inst.truth["reference_c"], out["harness"],
                     time_ratio=False)

    assert run(ReferenceOverlay())["status"] == "passed"
    assert run(ScalarFallback())["status"] == "passed"
    broken = run(ReferenceOverlay(mutant="tail_bug"))
    assert (broken["status"], broken["compiled"]) == ("wrong_output", 1.0)
    assert run(IntrinsicCopy())["status"] == "compile_failed"
    renamed = IntrinsicCopy(rename_header=True).run(inst.data, 5)["candidate"]
    assert "arm_neon.h" not in renamed and "vld1q_u8" in renamed
    assert run(IntrinsicCopy(rename_header=True))["status"] == "compile_failed"
    assert run(ReferenceOverlay(mutant="tail_bug", harness="compile_only"))["passed"] == 1.0
    assert run(ReferenceOverlay(mutant="tail_bug", harness="aligned_only"))["passed"] == 1.0


def test_neon_task_has_no_aarch64_target():
    with pytest.raises(ValueError, match="no aarch64 target"):
        SimdKernelTask(task="ycc_rgb_u8", arch="aarch64").make(0)
    assert TASKS["ycc_rgb_u8"]["metadata"]["source_arch"] == "aarch64"


def test_neon_task_cells_without_the_tools_are_tool_missing(store, tmp_path, monkeypatch):
    """As the other tasks (tests/test_tools.py): a bare PATH stores tool_missing, never error."""
    from claimbench.methods import qm_libbench

    from claimbench import registry
    from claimbench.runner import execute_plan, plan, select_cells

    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(qm_libbench, "_MEMO", {})
    bench = registry.benchmarks()["qm_libbench"]
    label = next(c.label for c in bench.grids["quick"].datasets
                 if c.params["task"] == "ycc_rgb_u8")
    cells = select_cells(bench, "quick", methods=("reference_overlay", "intrinsic_copy"),
                         datasets=(label,), seeds=1)
    planned = plan(store, {"qm_libbench": registry.module_of("qm_libbench")}, cells, False)
    execute_plan(store, {"qm_libbench": bench}, planned, jobs=1, timeout=300, executor="inline")
    rows = store.rows("qm_libbench")
    # the class names select every candidate built on them (4 ReferenceOverlay, 2 IntrinsicCopy)
    assert len(rows) == 6 and {r["status"] for r in rows} == {"tool_missing"}
    assert all("gcc-riscv64-linux-gnu" in r["error"] for r in rows)
