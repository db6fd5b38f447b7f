"""The optimiser recipe of round 6 (Harmon's training configuration): schedule, clipping,
decoupled weight decay, and the plain-Adam recipe it replaced."""
import math

import pytest

from claimbench.baselines.auxiliary_dense_decoding import (RECIPES, UnderstandingOnly,
                                                           lr_factor, make_optimizer,
                                                           optimizer_step)
from claimbench.methods.unimrg import UniMRG


def test_harmon_schedule_warmup_then_cosine():
    r = RECIPES["harmon"]
    # 400 steps: 1 % = 4 warm-up steps from 1e-5 to 1, then cosine from 1 to 0 over 396 steps
    assert lr_factor(0, 400, r) == pytest.approx(1e-5)
    assert lr_factor(2, 400, r) == pytest.approx(1e-5 + (1 - 1e-5) * 0.5)
    assert lr_factor(4, 400, r) == pytest.approx(1.0)
    assert lr_factor(4 + 198, 400, r) == pytest.approx(0.5)
    assert lr_factor(399, 400, r) == pytest.approx(0.5 * (1 + math.cos(math.pi * 395 / 396)))
    # a 5-step smoke run still warms up for one step
    assert lr_factor(0, 5, r) == pytest.approx(1e-5) and lr_factor(1, 5, r) == pytest.approx(1.0)


def test_default_recipe_warms_up_over_a_tenth_then_holds_the_lr():
    r = RECIPES["warm10_const"]
    assert lr_factor(0, 800, r) == pytest.approx(1e-5)
    assert lr_factor(40, 800, r) == pytest.approx(1e-5 + (1 - 1e-5) * 0.5)
    assert all(lr_factor(s, 800, r) == 1.0 for s in (80, 400, 799))
    assert r.clip == 1.0 and r.weight_decay == 0.02 and r.betas == (0.9, 0.95)
    # Harmon's own schedule with the same warm-up decays after it
    assert lr_factor(80 + 360, 800, RECIPES["harmon_warm10"]) == pytest.approx(0.5)


def test_adam_recipe_is_constant_lr():
    assert all(lr_factor(s, 400, RECIPES["adam"]) == 1.0 for s in (0, 3, 200, 399))


def _one_step(recipe, grad: float, steps: int = 400, step: int = 10):
    import torch

    p = torch.nn.Parameter(torch.tensor([1.0]))
    opt = make_optimizer([p], 0.1, recipe)
    p.grad = torch.tensor([grad])
    optimizer_step(opt, [p], 0.1, step, steps, recipe)
    return float(p.grad[0]), float(p.detach()[0]), opt


def test_harmon_clips_and_decays_weights():
    g, p, opt = _one_step(RECIPES["harmon"], 10.0)
    assert g == pytest.approx(1.0, rel=1e-5)  # clipped to norm 1
    assert type(opt).__name__ == "AdamW" and opt.param_groups[0]["betas"] == (0.9, 0.95)
    lr_t = 0.1 * lr_factor(10, 400, RECIPES["harmon"])
    # first AdamW step: p (1 - lr wd) - lr m_hat / (sqrt(v_hat) + eps), m_hat / sqrt(v_hat) = 1
    assert p == pytest.approx(1.0 * (1 - lr_t * 0.02) - lr_t * 1.0 / (1.0 + 1e-8), rel=1e-6)


def test_adam_recipe_neither_clips_nor_decays():
    g, p, opt = _one_step(RECIPES["adam"], 10.0)
    assert g == 10.0 and type(opt).__name__ == "Adam"
    assert p == pytest.approx(1.0 - 0.1 * 10.0 / (10.0 + 1e-8), rel=1e-6)


def test_every_arm_trains_with_the_same_recipe():
    assert UnderstandingOnly().recipe == "warm10_const" == UniMRG().recipe
    with pytest.raises(KeyError, match="sgd"):  # the recipe lookup, before any data is read
        UniMRG(recipe="sgd", steps=0).run({}, 0)
