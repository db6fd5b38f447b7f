"""PUMA's progressive pool, the uniform MDM forward process, decoding and the Sudoku generator."""
from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from claimbench.baselines import masked_diffusion as md  # noqa: E402
from claimbench.datasets import sudoku  # noqa: E402
from claimbench.methods.puma import PUMA, ProgressivePool  # noqa: E402


# -- data ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [4, 6, 9])
def test_generated_solutions_and_puzzles_are_valid(n):
    rng = np.random.default_rng(0)
    assert sudoku.is_valid(sudoku.pattern_grid(n)[None]).all()
    sol = sudoku.random_solutions(n, 200, rng)
    assert sudoku.is_valid(sol).all()
    assert len({g.tobytes() for g in sol}) > 50  # scrambled, not one grid
    lo, hi = sudoku.Sudoku(size=n).blank_range()
    puz = sudoku.make_puzzles(sol, lo, hi, rng)
    blanks = (puz == 0).sum(axis=(1, 2))
    assert blanks.min() >= lo and blanks.max() <= hi
    assert sudoku.solved(puz, sol).all()


@pytest.mark.parametrize("n", [4, 6, 9])
def test_batched_solutions_equal_the_one_at_a_time_draws(n):
    # issue 27: random_solutions batches its permutations (rng.permuted); the grids and the rng
    # state after them must equal drawing each solution on its own with _grouped_perm
    def loop(count, rng):
        br, bc = sudoku.box_shape(n)
        out = np.empty((count, n, n), dtype=np.int64)
        for i in range(count):
            g = sudoku.pattern_grid(n)[sudoku._grouped_perm(rng, n // br, br)]
            g = g[:, sudoku._grouped_perm(rng, n // bc, bc)]  # (n, n)
            if br == bc and rng.random() < 0.5:
                g = g.T
            out[i] = np.concatenate([[0], rng.permutation(n) + 1])[g]
        return out

    r1, r2 = np.random.default_rng(5), np.random.default_rng(5)
    fast, slow = sudoku.random_solutions(n, 300, r1), loop(300, r2)
    assert fast.dtype == slow.dtype and np.array_equal(fast, slow)
    assert r1.random() == r2.random()  # same number of draws consumed


def test_validity_check_rejects_broken_grids_and_ignored_clues():
    sol = sudoku.pattern_grid(4)[None]  # (1, 4, 4)
    swapped = sol.copy()
    swapped[0, 0, [0, 1]] = swapped[0, 0, [1, 0]]  # rows stay permutations, columns break
    assert not sudoku.is_valid(swapped)[0]
    # a valid grid that disagrees with one clue is not a solution of that puzzle
    other = sol[:, :, [1, 0, 3, 2]]  # swap columns inside each stack: still valid
    assert sudoku.is_valid(other)[0]
    puz = np.where(np.arange(16).reshape(1, 4, 4) == 0, sol, 0)  # one clue: cell (0, 0)
    assert sudoku.solved(puz, sol)[0] and not sudoku.solved(puz, other)[0]


def test_cell_features_are_row_column_box_one_hots():
    f = sudoku.cell_features(6)  # (36, 18)
    assert f.shape == (36, 18) and np.all(f.sum(1) == 3)
    cell = 1 * 6 + 4  # row 1, column 4: box (0, 1) of 2 x 3 boxes -> box 1
    assert f[cell, 1] == 1 and f[cell, 6 + 4] == 1 and f[cell, 12 + 1] == 1


def test_dataset_is_seeded_and_hides_test_solutions():
    a, b = sudoku.Sudoku(n_train=50, n_test=10).make(3), sudoku.Sudoku(n_train=50, n_test=10).make(3)
    assert np.array_equal(a.data["train"], b.data["train"])
    assert "test_solutions" not in a.data and a.truth["test_solutions"].shape == (10, 16)
    assert np.array_equal(a.data["train_prompt"].sum(1) >= 16 - 11, np.ones(50, bool))


def test_explicit_blank_range_gives_harder_puzzles_with_the_clues_as_prompt():
    # The quick grid's 13-14 of 16 blanks: every count in range, both ends drawn, the prompt is
    # exactly the clue cells, and the generator's solution still completes every puzzle.
    inst = sudoku.Sudoku(size=4, n_train=400, n_test=100, min_blank=13, max_blank=14).make(5)
    assert sudoku.Sudoku(size=4, min_blank=13, max_blank=14).blank_range() == (13, 14)
    blanks = (inst.data["test_puzzles"] == 0).sum(1)  # (100,)
    assert set(blanks.tolist()) == {13, 14}
    assert set((~inst.data["train_prompt"]).sum(1).tolist()) == {13, 14}
    puz, sol = inst.data["test_puzzles"], inst.truth["test_solutions"]
    assert np.array_equal(np.where(puz != 0, sol, 0), puz)
    assert sudoku.solved(puz.reshape(-1, 4, 4), sol.reshape(-1, 4, 4)).all()


# -- loss and forward process -------------------------------------------------------------------
def test_masked_nll_is_per_sequence_mean_over_masked_positions():
    g = torch.Generator().manual_seed(0)
    lp = torch.randn(2, 5, 3, generator=g).log_softmax(-1)
    x0 = torch.tensor([[0, 1, 2, 0, 1], [2, 2, 1, 0, 0]])
    m = torch.tensor([[1, 0, 1, 0, 0], [1, 1, 1, 1, 0]], dtype=torch.bool)
    want = np.mean([(-lp[0, 0, 0] - lp[0, 2, 2]).item() / 2,
                    (-lp[1, 0, 2] - lp[1, 1, 2] - lp[1, 2, 1] - lp[1, 3, 0]).item() / 4])
    assert md.masked_nll(lp, x0, m).item() == pytest.approx(want, rel=1e-6)


def test_uniform_masking_masks_only_answers_with_uniform_counts():
    train = np.tile(np.arange(1, 11), (50, 1))  # (50, 10)
    prompt = np.zeros((50, 10), bool)
    prompt[:, :4] = True  # L_eff = 6
    U = md.UniformMasking(train, prompt, 11, 6000)
    xt, x0, masked = U.batch_fn(0, torch.Generator().manual_seed(1))
    assert not masked[:, :4].any() and torch.equal(xt[~masked], x0[~masked])
    assert torch.all(xt[masked] == 11)
    counts = np.bincount(masked.sum(1).numpy(), minlength=7)  # m ~ U{1..6}
    assert counts[0] == 0 and np.all(np.abs(counts[1:] / 6000 - 1 / 6) < 0.02)
    # positions are uniform among the answer cells
    per_pos = masked[:, 4:].float().mean(0)
    assert torch.all((per_pos - per_pos.mean()).abs() < 0.03)


# -- decoding -----------------------------------------------------------------------------------
class _Oracle(torch.nn.Module):
    """Logits that favour the solution, most strongly at the cells listed first in ``order``."""

    def __init__(self, sol, order, V=6):
        super().__init__()
        T = sol.shape[1]
        self.sol, self.V = torch.as_tensor(sol), V
        strength = torch.zeros(T)
        strength[torch.as_tensor(order)] = torch.linspace(5.0, 1.0, len(order))
        self.strength = strength
        self.calls = []

    def forward(self, x, embeds=None):
        self.calls.append(x.clone())
        logits = torch.zeros(x.shape[0], x.shape[1], self.V)
        logits.scatter_(2, self.sol[: x.shape[0], :, None], self.strength[None, :, None].expand(
            x.shape[0], -1, 1).contiguous())
        return logits


def test_confidence_decoding_reveals_most_confident_cell_first_and_solves():
    inst = sudoku.Sudoku(n_train=1, n_test=3).make(5)
    puz, sol = inst.data["test_puzzles"], inst.truth["test_solutions"]
    order = list(range(16))[::-1]  # the last cell is the most confident
    oracle = _Oracle(sol, order)
    out = md.decode(oracle, puz, 5, "confidence", per_step=1)
    assert np.array_equal(out, sol)
    blanks = np.flatnonzero(puz[0] == 0)
    first = (oracle.calls[1][0] != 5).numpy() & (puz[0] == 0)  # revealed after one pass
    assert np.flatnonzero(first).tolist() == [blanks.max()]
    assert len(oracle.calls) == (puz == 0).sum(1).max()  # one cell per forward pass


def test_random_order_decoding_and_per_step():
    inst = sudoku.Sudoku(n_train=1, n_test=2).make(6)
    puz, sol = inst.data["test_puzzles"], inst.truth["test_solutions"]
    oracle = _Oracle(sol, list(range(16)))
    assert np.array_equal(md.decode(oracle, puz, 5, "random", per_step=3, seed=1), sol)
    assert len(oracle.calls) == -(-(puz == 0).sum(1).max() // 3)
    assert md.solved_fraction(puz, sol, 4) == 1.0


def test_steps_to_target():
    assert md.steps_to_target([50, 100, 150], [0.1, 0.5, 0.9], 0.45, 200) == (100, True)
    assert md.steps_to_target([50, 100], [0.1, 0.2], 0.45, 150) == (150, False)


# -- PUMA's pool --------------------------------------------------------------------------------
def _pool(mutant="", B=16, K=8, n_train=200, seed=0):
    d = sudoku.Sudoku(size=6, n_train=n_train, n_test=1).make(seed).data
    return ProgressivePool(d["train"], d["train_prompt"], 7, B, K, mutant), d


def test_pool_phases_follow_the_stage_intervals_and_refill_after_K():
    P, _ = _pool()
    g = torch.Generator().manual_seed(0)
    xt, x0, masked = P.batch_fn(0, g)
    assert sorted(P.phase.tolist()) == sorted(list(range(8)) * 2)
    for step in range(1, 20):
        P.pending = torch.randn(16, 36, 8, generator=g).log_softmax(-1)
        before = P.x0.clone(), P.phase.clone()
        xt, x0, masked = P.batch_fn(step, g)
        L_eff = (~P.prompt).sum(1)
        shown = L_eff - masked.sum(1)
        j = P.phase
        # u = min(round(r L_eff), L_eff - 1), r in [j/K, (j+1)/K): monotone reveal within a run
        lo = torch.floor(j.float() / 8 * L_eff.float() + 0.5 - 1e-6)
        hi = torch.minimum(torch.ceil((j + 1).float() / 8 * L_eff.float()), L_eff - 1)
        assert torch.all(shown <= hi) and torch.all((shown >= lo) | (j > 0))
        assert torch.all(masked.sum(1) >= 1) and not (masked & P.prompt).any()
        assert torch.equal(xt[~masked], x0[~masked])  # revealed tokens are the true ones
        assert torch.equal(j, (before[1] + 1) % 8)
        kept = j != 0
        assert torch.equal(P.x0[kept], before[0][kept])  # only finished slots are refilled


def test_pool_reveals_the_most_confident_masked_cells():
    P, _ = _pool(B=4)
    g = torch.Generator().manual_seed(1)
    P.batch_fn(0, g)
    P.phase = torch.tensor([2, 3, 4, 5])
    conf = torch.randn(4, 36, generator=g)
    lp = torch.full((4, 36, 8), -20.0)
    lp[..., 1] = conf  # max log-prob = conf (-20 elsewhere)
    was_mask = P.xt == 7
    P.pending = lp
    xt, _, masked = P.batch_fn(1, g)
    opened = was_mask & ~masked
    for b in range(4):
        k = int(opened[b].sum())
        assert k > 0
        cand = conf[b].masked_fill(~was_mask[b], float("-inf"))
        assert set(cand.topk(k).indices.tolist()) == set(torch.nonzero(opened[b]).flatten().tolist())


@pytest.mark.parametrize("mutant", ["random_reveal", "anti_confidence"])
def test_mutants_reveal_other_cells_than_puma(mutant):
    outs = {}
    for m in ("", mutant):
        P, _ = _pool(mutant=m, B=8)
        g = torch.Generator().manual_seed(2)
        P.batch_fn(0, g)
        P.phase = torch.full((8,), 3)
        lp = torch.full((8, 36, 8), -20.0)
        lp[..., 1] = torch.linspace(-3, 0, 36)  # later cells more confident
        P.pending = lp
        P.batch_fn(1, g)
        outs[m] = P.xt.clone()
    assert not torch.equal(outs[""], outs[mutant])
    if mutant == "anti_confidence":  # least confident = earliest masked cells revealed
        P, _ = _pool(mutant=mutant, B=8)
        g = torch.Generator().manual_seed(2)
        P.batch_fn(0, g)
        was = P.xt == 7
        P.phase = torch.full((8,), 3)
        P.pending = lp
        P.batch_fn(1, g)
        opened = was & (P.xt != 7)
        assert opened.any()
        for b in range(8):  # slots already past stage 4's count open nothing
            idx = torch.nonzero(opened[b]).flatten()
            rest = torch.nonzero(was[b] & ~opened[b]).flatten()
            assert len(idx) == 0 or idx.max() < rest.min()


def test_bad_mutant_is_rejected():
    with pytest.raises(ValueError):
        _pool(mutant="nope")


# -- end to end (tiny) --------------------------------------------------------------------------
def test_methods_train_share_the_reference_and_report_outputs():
    data = sudoku.Sudoku(n_train=300, n_test=16).make(0).data
    kw = dict(steps=12, eval_every=6, n_eval=8, warmup=2, d_model=32)
    base = md.MaskedDiffusion(**kw).run(data, 7)
    puma = PUMA(**kw).run(data, 7)
    assert puma["ref_final_curve_acc"] == base["curve_final_acc"]
    assert puma["target_acc"] == pytest.approx(0.9 * base["curve_final_acc"])
    assert base["traces"]["acc"]["x"] == [6, 12]
    for out in (base, puma):
        assert out["answers"].shape == (16, 16) and 0 <= out["final_acc"] <= 1
        assert out["steps_to_target"] in (6.0, 12.0, 18.0)
    again = PUMA(**kw).run(data, 7)
    assert again["cache_hit"] == 1.0 and np.array_equal(again["answers"], puma["answers"])
    # the mutant trains a different model from the same seed
    mut = PUMA(mutant="random_reveal", **kw).run(data, 7)
    assert mut["train_loss_last"] != puma["train_loss_last"]
