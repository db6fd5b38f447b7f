"""Small C "library kernels" written with x86 SSE intrinsics, to be migrated to another ISA.

Written here in the spirit of QM-LibBench's task format (github WisdomJoy/QM-LibBench, read, not
copied): each task has metadata (name, id, library, source and target architecture, the source
file, the entry point the target must provide, a description, the correctness command), the
source-ISA implementation, the library's portable C path, and a test driver. The driver is a
stand-alone ``main`` that draws seeded inputs (a 64-bit LCG, so native and emulated runs see the
same bytes), calls the entry point on lengths that include 0, 1, every remainder modulo the
vector width and random lengths, and prints one line per case (length and an FNV-1a hash of the
result). Inputs are chosen so that results are exact (small integers; floats that are multiples
of 1/8 times multiples of 1/4), so outputs compare byte for byte across ISAs and FMA contraction.

Reference overlays (hand-written target ports) live here too: NEON intrinsics for AArch64; for
RISC-V, GCC generic vectors (``vector_size(16)``), because Debian's riscv64 gcc 12 ships no RVV
intrinsics (``riscv_vector.h``). Tail loops of the references are fenced by ``/* TAIL */`` and
``/* END TAIL */`` so that a broken variant (tail dropped) can be derived mechanically.

The four tasks here have x86 sources and target AArch64 and RISC-V. One task has an ARM NEON
source and targets RISC-V only (the paper's libjpeg direction): ``simd_kernel_tasks_arm.py``,
merged into ``TASKS``; a task is made only for the targets it has a reference port for.
"""
from __future__ import annotations

from dataclasses import dataclass

from claimbench.datasets.simd_kernel_tasks_arm import ARM_TASKS

from claimbench.api import Dataset, Instance

ARCHES = ("riscv64", "aarch64")

_DRIVER_HEAD = r"""
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static uint64_t qm_state;
static uint32_t qm_rand(void) {
  qm_state = qm_state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (uint32_t)(qm_state >> 33);
}
static uint64_t qm_fnv(const void *p, size_t n) {
  const unsigned char *b = (const unsigned char *)p; uint64_t h = 1469598103934665603ULL;
  for (size_t i = 0; i < n; i++) { h ^= b[i]; h *= 1099511628211ULL; }
  return h;
}
static const size_t qm_fixed[] = {0, 1, 3, 7, 15, 16, 17, 31, 33, 63, 64, 65};
static size_t qm_len(int c) { return c < 12 ? qm_fixed[c] : 1 + qm_rand() % 700; }
"""

TASKS = {
    "saxpy_f32": {
        "metadata": {
            "name": "saxpy_f32", "task_id": 1, "repo": "qmlib", "module": "blas",
            "source_arch": "x86", "main_source_code_path": ["qmlib/simd/x86/saxpy-sse.c"],
            "entry_point": "void qm_saxpy_f32(size_t n, float a, const float *x, float *y)",
            "symbol": "qm_saxpy_f32", "portable_symbol": "qm_saxpy_f32_c",
            "operator_description": "y <- a*x + y on float32 arrays of any length (SSE, 4 lanes).",
            "correctness_test_commands": ["./test_saxpy_f32 SEED"],
        },
        "source": r"""
#include <immintrin.h>
#include <stddef.h>
void qm_saxpy_f32(size_t n, float a, const float *x, float *y) {
  __m128 va = _mm_set1_ps(a); size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    __m128 vy = _mm_add_ps(_mm_loadu_ps(y + i), _mm_mul_ps(va, _mm_loadu_ps(x + i)));
    _mm_storeu_ps(y + i, vy);
  }
  for (; i < n; i++) y[i] += a * x[i];
}
""",
        "portable": r"""
#include <stddef.h>
void qm_saxpy_f32_c(size_t n, float a, const float *x, float *y) {
  for (size_t i = 0; i < n; i++) y[i] += a * x[i];
}
""",
        "driver": r"""
void qm_saxpy_f32(size_t n, float a, const float *x, float *y);
int main(int argc, char **argv) {
  qm_state = strtoull(argv[1], 0, 10); int cases = atoi(argv[2]);
  static float x[1024], y[1024];
  for (int c = 0; c < cases; c++) {
    size_t n = qm_len(c); float a = (float)((int)(qm_rand() % 17) - 8) / 4.0f;
    for (size_t i = 0; i < n + 8; i++) {
      x[i] = (float)((int)(qm_rand() % 2049) - 1024) / 8.0f;
      y[i] = (float)((int)(qm_rand() % 2049) - 1024) / 8.0f;
    }
    qm_saxpy_f32(n, a, x, y);
    printf("%zu %016llx\n", n, (unsigned long long)qm_fnv(y, (n + 8) * sizeof(float)));
  }
  return 0;
}
""",
        "reference": {
            "aarch64": r"""
#include <arm_neon.h>
#include <stddef.h>
void qm_saxpy_f32(size_t n, float a, const float *x, float *y) {
  float32x4_t va = vdupq_n_f32(a); size_t i = 0;
  for (; i + 4 <= n; i += 4)
    vst1q_f32(y + i, vaddq_f32(vld1q_f32(y + i), vmulq_f32(va, vld1q_f32(x + i))));
  /* TAIL */
  for (; i < n; i++) y[i] += a * x[i];
  /* END TAIL */
}
""",
            "riscv64": r"""
#include <stddef.h>
#include <string.h>
typedef float qm_v4f __attribute__((vector_size(16)));
void qm_saxpy_f32(size_t n, float a, const float *x, float *y) {
  qm_v4f va = {a, a, a, a}; size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    qm_v4f vx, vy; memcpy(&vx, x + i, 16); memcpy(&vy, y + i, 16);
    vy = vy + va * vx; memcpy(y + i, &vy, 16);
  }
  /* TAIL */
  for (; i < n; i++) y[i] += a * x[i];
  /* END TAIL */
}
""",
        },
    },
    "dot_i16": {
        "metadata": {
            "name": "dot_i16", "task_id": 2, "repo": "qmlib", "module": "blas",
            "source_arch": "x86", "main_source_code_path": ["qmlib/simd/x86/dot-sse2.c"],
            "entry_point": "int64_t qm_dot_i16(size_t n, const int16_t *a, const int16_t *b)",
            "symbol": "qm_dot_i16", "portable_symbol": "qm_dot_i16_c",
            "operator_description": "Dot product of int16 arrays accumulated in int64 "
                                    "(SSE2 _mm_madd_epi16, 8 lanes).",
            "correctness_test_commands": ["./test_dot_i16 SEED"],
        },
        "source": r"""
#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>
int64_t qm_dot_i16(size_t n, const int16_t *a, const int16_t *b) {
  __m128i acc = _mm_setzero_si128(); size_t i = 0;
  for (; i + 8 <= n; i += 8)
    acc = _mm_add_epi32(acc, _mm_madd_epi16(_mm_loadu_si128((const __m128i *)(a + i)),
                                            _mm_loadu_si128((const __m128i *)(b + i))));
  int32_t lane[4]; _mm_storeu_si128((__m128i *)lane, acc);
  int64_t s = (int64_t)lane[0] + lane[1] + lane[2] + lane[3];
  for (; i < n; i++) s += (int32_t)a[i] * b[i];
  return s;
}
""",
        "portable": r"""
#include <stddef.h>
#include <stdint.h>
int64_t qm_dot_i16_c(size_t n, const int16_t *a, const int16_t *b) {
  int64_t s = 0;
  for (size_t i = 0; i < n; i++) s += (int32_t)a[i] * b[i];
  return s;
}
""",
        "driver": r"""
int64_t qm_dot_i16(size_t n, const int16_t *a, const int16_t *b);
int main(int argc, char **argv) {
  qm_state = strtoull(argv[1], 0, 10); int cases = atoi(argv[2]);
  static int16_t a[1024], b[1024];
  for (int c = 0; c < cases; c++) {
    size_t n = qm_len(c);
    for (size_t i = 0; i < n; i++) {
      a[i] = (int16_t)((int)(qm_rand() % 2047) - 1023);
      b[i] = (int16_t)((int)(qm_rand() % 2047) - 1023);
    }
    printf("%zu %lld\n", n, (long long)qm_dot_i16(n, a, b));
  }
  return 0;
}
""",
        "reference": {
            "aarch64": r"""
#include <arm_neon.h>
#include <stddef.h>
#include <stdint.h>
int64_t qm_dot_i16(size_t n, const int16_t *a, const int16_t *b) {
  int32x4_t acc = vdupq_n_s32(0); size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    int16x8_t va = vld1q_s16(a + i), vb = vld1q_s16(b + i);
    acc = vmlal_s16(acc, vget_low_s16(va), vget_low_s16(vb));
    acc = vmlal_high_s16(acc, va, vb);
  }
  int64_t s = vaddlvq_s32(acc);
  /* TAIL */
  for (; i < n; i++) s += (int32_t)a[i] * b[i];
  /* END TAIL */
  return s;
}
""",
            "riscv64": r"""
#include <stddef.h>
#include <stdint.h>
#include <string.h>
typedef int16_t qm_v8h __attribute__((vector_size(16)));
typedef int32_t qm_v8w __attribute__((vector_size(32)));
int64_t qm_dot_i16(size_t n, const int16_t *a, const int16_t *b) {
  qm_v8w acc = {0}; size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    qm_v8h va, vb; memcpy(&va, a + i, 16); memcpy(&vb, b + i, 16);
    acc += __builtin_convertvector(va, qm_v8w) * __builtin_convertvector(vb, qm_v8w);
  }
  int64_t s = 0;
  for (int k = 0; k < 8; k++) s += acc[k];
  /* TAIL */
  for (; i < n; i++) s += (int32_t)a[i] * b[i];
  /* END TAIL */
  return s;
}
""",
        },
    },
    "memchr_u8": {
        "metadata": {
            "name": "memchr_u8", "task_id": 3, "repo": "qmlib", "module": "string",
            "source_arch": "x86", "main_source_code_path": ["qmlib/simd/x86/memchr-sse2.c"],
            "entry_point": "size_t qm_memchr_u8(size_t n, const uint8_t *p, uint8_t c)",
            "symbol": "qm_memchr_u8", "portable_symbol": "qm_memchr_u8_c",
            "operator_description": "Index of the first byte equal to c, or n when absent "
                                    "(SSE2 compare + movemask, 16 lanes).",
            "correctness_test_commands": ["./test_memchr_u8 SEED"],
        },
        "source": r"""
#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>
size_t qm_memchr_u8(size_t n, const uint8_t *p, uint8_t c) {
  __m128i vc = _mm_set1_epi8((char)c); size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    int m = _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(p + i)), vc));
    if (m) return i + (size_t)__builtin_ctz((unsigned)m);
  }
  for (; i < n; i++) if (p[i] == c) return i;
  return n;
}
""",
        "portable": r"""
#include <stddef.h>
#include <stdint.h>
size_t qm_memchr_u8_c(size_t n, const uint8_t *p, uint8_t c) {
  for (size_t i = 0; i < n; i++) if (p[i] == c) return i;
  return n;
}
""",
        "driver": r"""
size_t qm_memchr_u8(size_t n, const uint8_t *p, uint8_t c);
int main(int argc, char **argv) {
  qm_state = strtoull(argv[1], 0, 10); int cases = atoi(argv[2]);
  static uint8_t p[1024];
  for (int c = 0; c < cases; c++) {
    size_t n = qm_len(c); uint8_t t = (uint8_t)(qm_rand() % 256);
    for (size_t i = 0; i < n; i++) { p[i] = (uint8_t)(qm_rand() % 256); if (p[i] == t) p[i] ^= 1; }
    /* plant the byte: absent, last position, or a random position */
    int mode = (int)(qm_rand() % 3);
    if (n > 0 && mode == 1) p[n - 1] = t;
    if (n > 0 && mode == 2) p[qm_rand() % n] = t;
    printf("%zu %zu\n", n, qm_memchr_u8(n, p, t));
  }
  return 0;
}
""",
        "reference": {
            "aarch64": r"""
#include <arm_neon.h>
#include <stddef.h>
#include <stdint.h>
size_t qm_memchr_u8(size_t n, const uint8_t *p, uint8_t c) {
  uint8x16_t vc = vdupq_n_u8(c); size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    uint8x16_t eq = vceqq_u8(vld1q_u8(p + i), vc);
    if (vmaxvq_u8(eq)) { for (size_t k = 0; k < 16; k++) if (p[i + k] == c) return i + k; }
  }
  /* TAIL */
  for (; i < n; i++) if (p[i] == c) return i;
  /* END TAIL */
  return n;
}
""",
            "riscv64": r"""
#include <stddef.h>
#include <stdint.h>
#include <string.h>
typedef uint8_t qm_v16b __attribute__((vector_size(16)));
typedef uint64_t qm_v2d __attribute__((vector_size(16)));
size_t qm_memchr_u8(size_t n, const uint8_t *p, uint8_t c) {
  qm_v16b vc; memset(&vc, c, 16); size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    qm_v16b v; memcpy(&v, p + i, 16);
    qm_v2d eq = (qm_v2d)(v == vc);
    if (eq[0] | eq[1]) { for (size_t k = 0; k < 16; k++) if (p[i + k] == c) return i + k; }
  }
  /* TAIL */
  for (; i < n; i++) if (p[i] == c) return i;
  /* END TAIL */
  return n;
}
""",
        },
    },
    "sad_u8": {
        "metadata": {
            "name": "sad_u8", "task_id": 4, "repo": "qmlib", "module": "imgproc",
            "source_arch": "x86", "main_source_code_path": ["qmlib/simd/x86/sad-sse2.c"],
            "entry_point": "uint64_t qm_sad_u8(size_t n, const uint8_t *a, const uint8_t *b)",
            "symbol": "qm_sad_u8", "portable_symbol": "qm_sad_u8_c",
            "operator_description": "Sum of absolute differences of two byte arrays "
                                    "(SSE2 _mm_sad_epu8, 16 lanes).",
            "correctness_test_commands": ["./test_sad_u8 SEED"],
        },
        "source": r"""
#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>
uint64_t qm_sad_u8(size_t n, const uint8_t *a, const uint8_t *b) {
  __m128i acc = _mm_setzero_si128(); size_t i = 0;
  for (; i + 16 <= n; i += 16)
    acc = _mm_add_epi64(acc, _mm_sad_epu8(_mm_loadu_si128((const __m128i *)(a + i)),
                                          _mm_loadu_si128((const __m128i *)(b + i))));
  uint64_t lane[2]; _mm_storeu_si128((__m128i *)lane, acc);
  uint64_t s = lane[0] + lane[1];
  for (; i < n; i++) s += a[i] > b[i] ? a[i] - b[i] : b[i] - a[i];
  return s;
}
""",
        "portable": r"""
#include <stddef.h>
#include <stdint.h>
uint64_t qm_sad_u8_c(size_t n, const uint8_t *a, const uint8_t *b) {
  uint64_t s = 0;
  for (size_t i = 0; i < n; i++) s += a[i] > b[i] ? a[i] - b[i] : b[i] - a[i];
  return s;
}
""",
        "driver": r"""
uint64_t qm_sad_u8(size_t n, const uint8_t *a, const uint8_t *b);
int main(int argc, char **argv) {
  qm_state = strtoull(argv[1], 0, 10); int cases = atoi(argv[2]);
  static uint8_t a[1024], b[1024];
  for (int c = 0; c < cases; c++) {
    size_t n = qm_len(c);
    for (size_t i = 0; i < n; i++) { a[i] = (uint8_t)qm_rand(); b[i] = (uint8_t)qm_rand(); }
    printf("%zu %llu\n", n, (unsigned long long)qm_sad_u8(n, a, b));
  }
  return 0;
}
""",
        "reference": {
            "aarch64": r"""
#include <arm_neon.h>
#include <stddef.h>
#include <stdint.h>
uint64_t qm_sad_u8(size_t n, const uint8_t *a, const uint8_t *b) {
  uint32x4_t acc = vdupq_n_u32(0); size_t i = 0;
  for (; i + 16 <= n; i += 16)
    acc = vpadalq_u16(acc, vpaddlq_u8(vabdq_u8(vld1q_u8(a + i), vld1q_u8(b + i))));
  uint64_t s = vaddlvq_u32(acc);
  /* TAIL */
  for (; i < n; i++) s += a[i] > b[i] ? a[i] - b[i] : b[i] - a[i];
  /* END TAIL */
  return s;
}
""",
            "riscv64": r"""
#include <stddef.h>
#include <stdint.h>
#include <string.h>
typedef uint8_t qm_v16b __attribute__((vector_size(16)));
uint64_t qm_sad_u8(size_t n, const uint8_t *a, const uint8_t *b) {
  uint64_t s = 0; size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    qm_v16b va, vb; memcpy(&va, a + i, 16); memcpy(&vb, b + i, 16);
    qm_v16b gt = (qm_v16b)(va > vb);
    qm_v16b d = ((va - vb) & gt) | ((vb - va) & ~gt);
    for (int k = 0; k < 16; k++) s += d[k];
  }
  /* TAIL */
  for (; i < n; i++) s += a[i] > b[i] ? a[i] - b[i] : b[i] - a[i];
  /* END TAIL */
  return s;
}
""",
        },
    },
}

TASKS.update(ARM_TASKS)  # the NEON-source task (ARM -> RISC-V)

PROMPT = ("Migrate the {name} operator of library {repo} from {source_arch} SIMD intrinsics "
          "({path}) to {target_arch}. {description} Keep the entry point `{entry}` with the same "
          "behaviour for every length, including tails. Answer with one complete C file in a "
          "```c block.")


def task_prompt(task: dict, arch: str) -> str:
    md = task["metadata"]
    return PROMPT.format(name=md["name"], repo=md["repo"], source_arch=md["source_arch"],
                         path=md["main_source_code_path"][0], target_arch=arch,
                         description=md["operator_description"], entry=md["entry_point"])


@dataclass
class SimdKernelTask(Dataset):
    """One migration task (a kernel and a target ISA); the seed draws the test inputs."""

    name = "simd_kernel_tasks"
    task: str = "saxpy_f32"  # one of TASKS
    arch: str = "aarch64"  # target ISA: "aarch64" or "riscv64" (ycc_rgb_u8: riscv64 only)
    n_cases: int = 16  # test cases per run: the 12 fixed lengths, then random ones (ours)
    timed: bool = True  # also time the scalar path under qemu for the (meaningless) ratio (ours)

    def make(self, seed: int) -> Instance:
        if self.task not in TASKS:
            raise ValueError(f"unknown task {self.task!r}; known: {sorted(TASKS)}")
        if self.arch not in ARCHES:
            raise ValueError(f"unknown arch {self.arch!r}; known: {ARCHES}")
        t = TASKS[self.task]
        if self.arch not in t["reference"]:  # the source ISA itself is not a migration target
            raise ValueError(f"task {self.task!r} has no {self.arch} target; its targets: "
                             f"{sorted(t['reference'])}")
        metadata = dict(t["metadata"], target_arch=self.arch)
        data = {"task": self.task, "arch": self.arch, "metadata": metadata,
                "prompt": task_prompt(t, self.arch), "source": t["source"],
                "portable": t["portable"], "driver": _DRIVER_HEAD + t["driver"],
                "test_seed": int(seed) % (2 ** 63), "n_cases": int(self.n_cases),
                "timed": bool(self.timed)}
        # the scalar reference the harness compares against is the library's portable path
        return Instance(data=data, truth={"reference_c": t["portable"]})
