"""Rendered toy scenes with exact depth and segmentation maps, and spatial questions about them.

Each scene is a small RGB image (``side`` x ``side``, default 32) of 2-3 flat shapes (discs or
squares) of distinct colours, placed at random image positions and random depths z in
[z_near, z_far). A pinhole-style rendering gives the image its depth cues: a shape's apparent
size is R / z (R drawn per object, so size alone is ambiguous), its brightness is attenuated by
exp(-fog (z - z_near)) ("atmospheric" cue, times a random albedo), and nearer shapes occlude
farther ones (painter's algorithm). Because the renderer is ours, the depth map (z of the
visible surface, background at ``z_bg``) and the segmentation map (colour class of the visible
surface, 0 = background) are exact.

Questions (one of each type per scene), answered from a 4-way vocabulary
(0 "no", 1 "yes", 2 "two", 3 "three"):

* ``closer``  "is the <a> shape closer than the <b> shape?" (depth-related)
* ``left``    "is the <a> shape left of the <b> shape?"     (2-D spatial)
* ``above``   "is the <a> shape above the <b> shape?"       (2-D spatial)
* ``count``   "how many shapes are there?"                  (counting)

A question is encoded as a 12-vector: one-hot type (4), one-hot colour a (4), one-hot colour
b (4; zero for ``count``). Pairs are drawn so that the answer is unambiguous (depths differ by
at least ``min_dz``, centres by at least ``min_dxy`` pixels) and every object keeps at least
``min_visible`` visible pixels.

``data`` holds the training scenes with their questions, answers and the exact depth and
segmentation maps (the auxiliary generation targets a method may train on), plus the test
images and questions. ``truth`` holds the test answers and the test depth/segmentation maps.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Dataset, Instance

COLOURS = np.array([[1.0, 0.15, 0.15],   # red
                    [0.15, 1.0, 0.15],   # green
                    [0.2, 0.35, 1.0],    # blue
                    [1.0, 1.0, 0.15]])   # yellow
QTYPES = ("closer", "left", "above", "count")
N_ANSWERS = 4  # no, yes, two, three
Q_DIM = 4 + 2 * len(COLOURS)


@functools.cache
def _pixel_centres(side: int) -> np.ndarray:
    """(2, s, s) row and column coordinates of the pixel centres (read-only, once per side)."""
    yx = np.mgrid[0:side, 0:side] + 0.5
    yx.flags.writeable = False
    return yx


def _render_one(rng: np.random.Generator, side: int, n_obj: int, z_near: float, z_far: float,
                z_bg: float, fog: float, noise: float, min_dz: float, min_dxy: float,
                min_visible: int):
    """One scene; returns (img (3,s,s), depth (s,s), seg (s,s) int, objs) or None to resample."""
    # the two queried shapes are always red and blue; the others are distractors
    cols = np.concatenate([[0, 2], rng.choice([1, 3], size=n_obj - 2, replace=False)])
    z = rng.uniform(z_near, z_far, size=n_obj)
    if n_obj > 1 and np.min(np.diff(np.sort(z))) < min_dz:
        return None
    R = rng.uniform(7.0, 10.0, size=n_obj)  # physical size; apparent radius R / z
    r = R / z
    cx = rng.uniform(r, side - r)
    cy = rng.uniform(r, side - r)
    for i in range(n_obj):
        for j in range(i + 1, n_obj):
            if abs(cx[i] - cx[j]) < min_dxy or abs(cy[i] - cy[j]) < min_dxy:
                return None
    shape = rng.integers(0, 2, size=n_obj)  # 0 disc, 1 square
    albedo = rng.uniform(0.85, 1.0, size=n_obj)
    yy, xx = _pixel_centres(side)  # (s, s) each
    depth = np.full((side, side), z_bg)
    seg = np.zeros((side, side), dtype=np.int64)
    img = np.full((3, side, side), 0.08)
    for i in np.argsort(-z):  # far to near: nearer shapes overwrite (occlude)
        if shape[i] == 0:
            m = (xx - cx[i]) ** 2 + (yy - cy[i]) ** 2 <= r[i] ** 2
        else:
            m = (np.abs(xx - cx[i]) <= r[i] * 0.886) & (np.abs(yy - cy[i]) <= r[i] * 0.886)
        depth[m] = z[i]
        seg[m] = cols[i] + 1
        shade = albedo[i] * np.exp(-fog * (z[i] - z_near))
        img[:, m] = (COLOURS[cols[i]] * shade)[:, None]
    for i in range(n_obj):
        if np.sum(seg == cols[i] + 1) < min_visible:
            return None
    img = img + rng.normal(0.0, noise, size=img.shape)
    return img, depth, seg, dict(col=cols, z=z, cx=cx, cy=cy)


def _questions(rng: np.random.Generator, objs: dict):
    """One question per type: (4, Q_DIM) encodings and (4,) answers."""
    n = len(objs["col"])
    q = np.zeros((len(QTYPES), Q_DIM), dtype=np.float32)
    a = np.zeros(len(QTYPES), dtype=np.int64)
    for t, name in enumerate(QTYPES):
        q[t, t] = 1.0
        if name == "count":
            a[t] = 2 if n == 2 else 3
            continue
        i, j = rng.permutation(2)  # red vs blue, in random order
        q[t, 4 + objs["col"][i]] = 1.0
        q[t, 4 + len(COLOURS) + objs["col"][j]] = 1.0
        if name == "closer":
            a[t] = int(objs["z"][i] < objs["z"][j])
        elif name == "left":
            a[t] = int(objs["cx"][i] < objs["cx"][j])
        else:  # above: smaller row coordinate
            a[t] = int(objs["cy"][i] < objs["cy"][j])
    return q, a


def render_scenes(rng: np.random.Generator, n: int, side: int = 32, z_near: float = 1.0,
                  z_far: float = 3.0, z_bg: float = 3.5, fog: float = 0.45, noise: float = 0.03,
                  min_dz: float = 0.25, min_dxy: float = 2.0, min_visible: int = 4) -> dict:
    """``n`` scenes with 2 or 3 objects: images (n,3,s,s) float32, depth (n,s,s) normalised to
    [0,1] by (z - z_near)/(z_bg - z_near), seg (n,s,s) int64, questions (n,4,Q_DIM), answers
    (n,4)."""
    imgs, depths, segs, qs, ans = [], [], [], [], []
    while len(imgs) < n:
        n_obj = int(rng.integers(2, 4))
        out = _render_one(rng, side, n_obj, z_near, z_far, z_bg, fog, noise, min_dz, min_dxy,
                          min_visible)
        if out is None:
            continue
        img, depth, seg, objs = out
        q, a = _questions(rng, objs)
        imgs.append(img)
        depths.append((depth - z_near) / (z_bg - z_near))
        segs.append(seg)
        qs.append(q)
        ans.append(a)
    return dict(images=np.asarray(imgs, np.float32), depth=np.asarray(depths, np.float32),
                seg=np.asarray(segs, np.int64), questions=np.asarray(qs, np.float32),
                answers=np.asarray(ans, np.int64))


@dataclass
class DepthScenes(Dataset):
    """Seeded train/test scenes with spatial questions and exact depth/segmentation maps."""

    name: ClassVar[str] = "depth_scenes"
    n_train: int = 600  # training scenes (ours: small, so that the QA loss alone underfits)
    n_test: int = 500  # held-out scenes, one question of each type per scene (ours)
    side: int = 32  # image side (issue: 32 x 32)
    fog: float = 0.45  # brightness attenuation per unit depth (ours)
    noise: float = 0.03  # pixel noise (ours)

    def make(self, seed: int) -> Instance:
        rng = np.random.default_rng(seed)
        kw = dict(side=self.side, fog=self.fog, noise=self.noise)
        tr = render_scenes(rng, self.n_train, **kw)
        te = render_scenes(rng, self.n_test, **kw)
        data = dict(train=tr, test=dict(images=te["images"], questions=te["questions"]),
                    qtypes=QTYPES, n_answers=N_ANSWERS, n_seg_classes=len(COLOURS) + 1)
        truth = dict(answers=te["answers"], depth=te["depth"], seg=te["seg"],
                     images=te["images"])
        return Instance(data=data, truth=truth)
