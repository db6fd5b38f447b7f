"""An ARM-source task for QM-LibBench's harness: a libjpeg-like kernel written with NEON
intrinsics, to be migrated to RISC-V (the paper's libjpeg direction, ARM -> RISC-V).

Written here (not copied) after the shape of libjpeg-turbo's NEON YCbCr -> RGB row conversion
(``jsimd_ycc_rgb_convert_neon``): the JFIF equations in fixed point, G - Y as a Q15
multiply-accumulate with rounding narrow, R - Y and B - Y as Q14 doubling high multiplies, 16
pixels a step, interleaved RGB stored with ``vst3q_u8``, a scalar tail. The portable C path does
the same integer arithmetic, so the NEON source, the RISC-V port and the scalar path agree byte
for byte (checked in tests/test_qm_libbench.py under qemu-aarch64 and qemu-riscv64). The RISC-V
reference uses GCC generic vectors (Debian's riscv64 gcc 12 has no RVV intrinsics,
``riscv_vector.h``); its tail loop is fenced by ``/* TAIL */`` like the other references.
Same format as ``simd_kernel_tasks.TASKS`` (which merges this dict); the driver omits the common
head (LCG, FNV-1a hash, lengths) that ``SimdKernelTask.make`` prepends.
"""
from __future__ import annotations

ARM_TASKS = {
    "ycc_rgb_u8": {
        "metadata": {
            "name": "ycc_rgb_u8", "task_id": 5, "repo": "qmjpeg", "module": "color",
            "source_arch": "aarch64", "main_source_code_path": ["qmjpeg/simd/arm/jdcolor-neon.c"],
            "entry_point": "void qm_ycc_rgb_u8(size_t n, const uint8_t *y, const uint8_t *cb, "
                           "const uint8_t *cr, uint8_t *rgb)",
            "symbol": "qm_ycc_rgb_u8", "portable_symbol": "qm_ycc_rgb_u8_c",
            "operator_description": "One row of YCbCr -> interleaved RGB (JFIF equations in Q15 "
                                    "/ Q14 fixed point, saturated to 0..255; NEON, 16 pixels "
                                    "a step).",
            "correctness_test_commands": ["./test_ycc_rgb_u8 SEED"],
        },
        "source": r"""
#include <arm_neon.h>
#include <stddef.h>
#include <stdint.h>
/* -0.34414, 0.71414 in Q15 and 1.40200, 1.77200 in Q14: the JFIF YCbCr -> RGB equations */
static const int16_t qm_ycc_consts[4] = {-11277, 23401, 22971, 29033};
void qm_ycc_rgb_u8(size_t n, const uint8_t *y, const uint8_t *cb, const uint8_t *cr,
                   uint8_t *rgb) {
  const int16x4_t k = vld1_s16(qm_ycc_consts); const int16x8_t c128 = vdupq_n_s16(128);
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    uint8x16_t vy = vld1q_u8(y + i), vcb = vld1q_u8(cb + i), vcr = vld1q_u8(cr + i);
    int16x8_t cb_l = vsubq_s16(vreinterpretq_s16_u16(vmovl_u8(vget_low_u8(vcb))), c128);
    int16x8_t cb_h = vsubq_s16(vreinterpretq_s16_u16(vmovl_high_u8(vcb)), c128);
    int16x8_t cr_l = vsubq_s16(vreinterpretq_s16_u16(vmovl_u8(vget_low_u8(vcr))), c128);
    int16x8_t cr_h = vsubq_s16(vreinterpretq_s16_u16(vmovl_high_u8(vcr)), c128);
    /* G - Y = -0.34414 (Cb - 128) - 0.71414 (Cr - 128), Q15, rounded */
    int32x4_t g0 = vmlsl_lane_s16(vmull_lane_s16(vget_low_s16(cb_l), k, 0),
                                  vget_low_s16(cr_l), k, 1);
    int32x4_t g1 = vmlsl_lane_s16(vmull_lane_s16(vget_high_s16(cb_l), k, 0),
                                  vget_high_s16(cr_l), k, 1);
    int32x4_t g2 = vmlsl_lane_s16(vmull_lane_s16(vget_low_s16(cb_h), k, 0),
                                  vget_low_s16(cr_h), k, 1);
    int32x4_t g3 = vmlsl_lane_s16(vmull_lane_s16(vget_high_s16(cb_h), k, 0),
                                  vget_high_s16(cr_h), k, 1);
    int16x8_t gy_l = vcombine_s16(vrshrn_n_s32(g0, 15), vrshrn_n_s32(g1, 15));
    int16x8_t gy_h = vcombine_s16(vrshrn_n_s32(g2, 15), vrshrn_n_s32(g3, 15));
    /* R - Y = 1.40200 (Cr - 128), B - Y = 1.77200 (Cb - 128): Q14 via a doubling high multiply */
    int16x8_t ry_l = vqrdmulhq_lane_s16(vshlq_n_s16(cr_l, 1), k, 2);
    int16x8_t ry_h = vqrdmulhq_lane_s16(vshlq_n_s16(cr_h, 1), k, 2);
    int16x8_t by_l = vqrdmulhq_lane_s16(vshlq_n_s16(cb_l, 1), k, 3);
    int16x8_t by_h = vqrdmulhq_lane_s16(vshlq_n_s16(cb_h, 1), k, 3);
    int16x8_t y_l = vreinterpretq_s16_u16(vmovl_u8(vget_low_u8(vy)));
    int16x8_t y_h = vreinterpretq_s16_u16(vmovl_high_u8(vy));
    uint8x16x3_t out;
    out.val[0] = vcombine_u8(vqmovun_s16(vaddq_s16(y_l, ry_l)), vqmovun_s16(vaddq_s16(y_h, ry_h)));
    out.val[1] = vcombine_u8(vqmovun_s16(vaddq_s16(y_l, gy_l)), vqmovun_s16(vaddq_s16(y_h, gy_h)));
    out.val[2] = vcombine_u8(vqmovun_s16(vaddq_s16(y_l, by_l)), vqmovun_s16(vaddq_s16(y_h, by_h)));
    vst3q_u8(rgb + 3 * i, out);
  }
  for (; i < n; i++) {
    int32_t u = (int32_t)cb[i] - 128, v = (int32_t)cr[i] - 128, yy = y[i];
    int32_t r = yy + ((4 * v * 22971 + 32768) >> 16);
    int32_t g = yy + ((-11277 * u - 23401 * v + 16384) >> 15);
    int32_t b = yy + ((4 * u * 29033 + 32768) >> 16);
    rgb[3 * i] = (uint8_t)(r < 0 ? 0 : r > 255 ? 255 : r);
    rgb[3 * i + 1] = (uint8_t)(g < 0 ? 0 : g > 255 ? 255 : g);
    rgb[3 * i + 2] = (uint8_t)(b < 0 ? 0 : b > 255 ? 255 : b);
  }
}
""",
        "portable": r"""
#include <stddef.h>
#include <stdint.h>
static uint8_t qm_clamp_u8(int32_t v) { return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v); }
void qm_ycc_rgb_u8_c(size_t n, const uint8_t *y, const uint8_t *cb, const uint8_t *cr,
                     uint8_t *rgb) {
  for (size_t i = 0; i < n; i++) {
    int32_t u = (int32_t)cb[i] - 128, v = (int32_t)cr[i] - 128, yy = y[i];
    rgb[3 * i] = qm_clamp_u8(yy + ((4 * v * 22971 + 32768) >> 16));
    rgb[3 * i + 1] = qm_clamp_u8(yy + ((-11277 * u - 23401 * v + 16384) >> 15));
    rgb[3 * i + 2] = qm_clamp_u8(yy + ((4 * u * 29033 + 32768) >> 16));
  }
}
""",
        "driver": r"""
void qm_ycc_rgb_u8(size_t n, const uint8_t *y, const uint8_t *cb, const uint8_t *cr,
                   uint8_t *rgb);
int main(int argc, char **argv) {
  qm_state = strtoull(argv[1], 0, 10); int cases = atoi(argv[2]);
  static uint8_t y[1024], cb[1024], cr[1024], rgb[3 * 1024];
  for (int c = 0; c < cases; c++) {
    size_t n = qm_len(c);
    for (size_t i = 0; i < n; i++) {
      y[i] = (uint8_t)qm_rand(); cb[i] = (uint8_t)qm_rand(); cr[i] = (uint8_t)qm_rand();
    }
    memset(rgb, 0xA5, 3 * (n + 8));  /* a write past the row changes the hash */
    qm_ycc_rgb_u8(n, y, cb, cr, rgb);
    printf("%zu %016llx\n", n, (unsigned long long)qm_fnv(rgb, 3 * (n + 8)));
  }
  return 0;
}
""",
        "reference": {
            "riscv64": r"""
#include <stddef.h>
#include <stdint.h>
#include <string.h>
typedef uint8_t qm_v16b __attribute__((vector_size(16)));
typedef int32_t qm_v16w __attribute__((vector_size(64)));
void qm_ycc_rgb_u8(size_t n, const uint8_t *y, const uint8_t *cb, const uint8_t *cr,
                   uint8_t *rgb) {
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    qm_v16b vy, vcb, vcr;
    memcpy(&vy, y + i, 16); memcpy(&vcb, cb + i, 16); memcpy(&vcr, cr + i, 16);
    qm_v16w yy = __builtin_convertvector(vy, qm_v16w);
    qm_v16w u = __builtin_convertvector(vcb, qm_v16w) - 128;
    qm_v16w v = __builtin_convertvector(vcr, qm_v16w) - 128;
    qm_v16w ch[3] = {yy + ((4 * 22971 * v + 32768) >> 16),
                     yy + ((-11277 * u - 23401 * v + 16384) >> 15),
                     yy + ((4 * 29033 * u + 32768) >> 16)};
    for (int c = 0; c < 3; c++) {
      qm_v16w x = ch[c];
      x &= ~(qm_v16w)(x < 0);                 /* clamp below at 0 */
      x = (x & ~(qm_v16w)(x > 255)) | (255 & (qm_v16w)(x > 255));  /* and above at 255 */
      for (int k = 0; k < 16; k++) rgb[3 * (i + k) + c] = (uint8_t)x[k];
    }
  }
  /* TAIL */
  for (; i < n; i++) {
    int32_t u = (int32_t)cb[i] - 128, v = (int32_t)cr[i] - 128, yy = y[i];
    int32_t r = yy + ((4 * v * 22971 + 32768) >> 16);
    int32_t g = yy + ((-11277 * u - 23401 * v + 16384) >> 15);
    int32_t b = yy + ((4 * u * 29033 + 32768) >> 16);
    rgb[3 * i] = (uint8_t)(r < 0 ? 0 : r > 255 ? 255 : r);
    rgb[3 * i + 1] = (uint8_t)(g < 0 ? 0 : g > 255 ? 255 : g);
    rgb[3 * i + 2] = (uint8_t)(b < 0 ? 0 : b > 255 ? 255 : b);
  }
  /* END TAIL */
}
""",
        },
    },
}
