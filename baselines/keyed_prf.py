"""A keyed pseudorandom function on rows of small integers, vectorised with numpy (uint64).

``prf(key, cols)`` maps each row of ``cols`` (N, k) to a 64-bit value: a keyed chain of the
SplitMix64 finaliser (Steele, Lea, Flood 2014) over the row's entries. It is a statistical
stand-in for the HMAC/PRF that watermarking schemes assume (fast, well mixed, not
cryptographic): every keyed scheme here (green list, Gumbel-max, block-aligned codes) reads its
pseudorandomness from it, so only the key separates them from unkeyed text.
"""
from __future__ import annotations

import numpy as np

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


def _mix(x: np.ndarray) -> np.ndarray:
    """SplitMix64 finaliser on a uint64 array (wrapping arithmetic)."""
    x = x ^ (x >> np.uint64(30))
    x = x * _M1
    x = x ^ (x >> np.uint64(27))
    x = x * _M2
    return x ^ (x >> np.uint64(31))


def prf(key: int, cols: np.ndarray) -> np.ndarray:
    """Keyed 64-bit hash of each row of ``cols`` (N, k) non-negative ints -> (N,) uint64."""
    cols = np.asarray(cols, dtype=np.int64)
    if cols.ndim == 1:
        cols = cols[:, None]
    with np.errstate(over="ignore"):
        h = _mix(np.full(cols.shape[0], np.uint64(int(key) & (2 ** 64 - 1))) ^ _GOLDEN)  # (N,)
        for j in range(cols.shape[1]):
            step = cols[:, j].astype(np.uint64) + np.uint64(j + 1) * _GOLDEN  # (N,)
            h = _mix(h ^ step)
    return h


def prf_uniform(key: int, cols: np.ndarray) -> np.ndarray:
    """``prf`` mapped to uniforms in the open interval (0, 1) (53 bits) -> (N,) float64."""
    h = prf(key, cols)
    return ((h >> np.uint64(11)).astype(np.float64) + 0.5) / float(2 ** 53)


def top_bits_zero(h: np.ndarray, bits: int) -> np.ndarray:
    """Whether the top ``bits`` bits of each uint64 are zero (probability 2^-bits) -> (N,) bool."""
    if bits <= 0:
        return np.ones(h.shape, dtype=bool)
    return (h >> np.uint64(64 - bits)) == np.uint64(0)


def derive_key(seed: int, label: str = "watermark") -> int:
    """A secret key derived from a cell seed and a label (deterministic, local RNG)."""
    tag = int.from_bytes(label.encode()[:8].ljust(8, b"\0"), "little")
    return int(np.random.default_rng([int(seed) % (2 ** 63), tag]).integers(0, 2 ** 63))
