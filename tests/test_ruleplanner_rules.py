"""The extra (region) rule of claim c8 and the reward / evaluation mutants of claims c7, c8."""
import numpy as np

from claimbench.baselines.legal_placement import place_all
from claimbench.datasets.floorplan_rules import (RULES, FloorplanEnv, RuleFloorplan, add_region,
                                                 hpwl, order, sample_circuit,
                                                 violations)
from claimbench.methods.ruleplanner import N_CHANNELS, RulePlanner, torch_classes


def tiny() -> dict:
    """4 x 4 dies; module 0 pre-placed 2x2 at the corner of die 0; 1 and 2 aligned; 3 boundary;
    4 (1 x 1) fenced into the upper-right quadrant of die 1."""
    keep = np.zeros((2, 4, 4), bool)
    return dict(grid=4, sizes=np.array([[2, 2], [1, 1], [1, 1], [2, 1], [1, 1]]),
                nets=[np.array([0, 1]), np.array([1, 2, 3, 4])], keepout=keep,
                preplaced={0: (0, 0, 0)}, boundary={3}, align=[(1, 2)], cap_area=9,
                region={4: (1, 2, 2, 4, 4)})


def test_region_mask_and_violation_by_hand():
    c = tiny()
    assert order(c) == [4, 3, 1, 2]  # the fenced module first, then as without the rule
    env = FloorplanEnv(c)
    m = env.rule_masks()
    assert np.argwhere(m["region"]).tolist() == [[1, 2, 2], [1, 2, 3], [1, 3, 2], [1, 3, 3]]
    assert set(env.legal(m).nonzero()[0]) == {1}  # the default AND includes the extra rule
    assert not env.legal(m, RULES)[0].all() and env.legal(m, RULES)[0].any()  # without: die 0 too
    env.step(1, 3, 3)
    while not env.done:
        m = env.rule_masks()
        assert np.array_equal(m["region"], env.in_bounds())  # binds the fenced module only
        env.step(*(int(v) for v in np.argwhere(env.legal(m))[0]))
    place = np.array([[0, 0, 0], [0, 2, 0], [1, 2, 0], [0, 0, 2], [1, 3, 3]])
    assert violations(c, place)["region"] == 0
    place[4] = (1, 1, 3)  # one cell left of the fence
    assert violations(c, place)["region"] == 1
    place[4] = (0, 3, 3)  # right cell, wrong die
    assert violations(c, place)["region"] == 1
    del c["region"]
    assert "region" not in violations(c, place)  # circuits without the rule do not count it


def test_add_region_picks_a_free_module_and_a_feasible_quadrant():
    rng = np.random.default_rng(0)
    for _ in range(50):
        c = sample_circuit(rng, 8, 8)
        r = add_region(c, rng)
        (m, (d, x0, y0, x1, y1)), = r["region"].items()
        aligned = {k for p in c["align"] for k in p}
        assert m not in c["boundary"] | aligned | set(c["preplaced"])
        assert x1 - x0 == 4 and y1 - y0 == 4 and {x0, y0} <= {0, 4}
        assert "region" not in c  # a copy: the eval circuit itself is unchanged
        # some anchor inside the quadrant misses the keep-out and the pre-placed block
        w, h = c["sizes"][m]
        ok = [not c["keepout"][d, x:x + w, y:y + h].any()
              and not (d == 0 and x < 2 and y < 2)
              for x in range(x0, x1 - w + 1) for y in range(y0, y1 - h + 1)]
        assert any(ok)


def test_dataset_newrule_split_leaves_eval_and_transfer_draws_unchanged():
    inst = RuleFloorplan(n_eval=3).make(5)
    rng = np.random.default_rng(5)
    ref = [sample_circuit(rng, 8, 8) for _ in range(3)]
    ref_t = [sample_circuit(rng, 12, 10) for _ in range(3)]
    for got, want in zip(inst.data["eval"] + inst.data["transfer"], ref + ref_t):
        assert (got["sizes"] == want["sizes"]).all() and (got["keepout"] == want["keepout"]).all()
        assert "region" not in got
    for nr, ev in zip(inst.data["newrule"], inst.data["eval"]):
        assert nr["sizes"] is ev["sizes"] and len(nr["region"]) == 1


def test_greedy_respects_the_new_rule_and_ignoring_it_breaks_it():
    rng = np.random.default_rng(9)
    ok, broke = 0, 0
    for _ in range(20):
        c = add_region(sample_circuit(rng, 8, 8), rng)
        ok += violations(c, place_all(c, "greedy", rng))["region"] == 0
        bare = {k: v for k, v in c.items() if k != "region"}
        broke += violations(c, place_all(bare, "greedy", rng))["region"] > 0
    assert ok == 20 and broke >= 10


def test_no_new_rule_mask_and_shared_checkpoint(tmp_path, monkeypatch):
    env = FloorplanEnv(tiny())
    m = env.rule_masks()  # module 4, fenced into die 1
    assert not RulePlanner()._action_mask(env, m)[0].any()
    assert RulePlanner(mutant="no_new_rule")._action_mask(env, m)[0].any()
    monkeypatch.setenv("CLAIMBENCH_CHECKPOINTS", str(tmp_path))
    inst = RuleFloorplan(n_eval=2).make(1)
    a = RulePlanner(episodes=8, batch=8).run(inst.data, 0)
    b = RulePlanner(episodes=8, batch=8, mutant="no_new_rule").run(inst.data, 0)
    assert len(list(tmp_path.glob("*.safetensors"))) == 1  # evaluation-only: no retraining
    assert all((p == q).all() for p, q in zip(a["eval"], b["eval"]))
    assert len(a["newrule"]) == 2
    # the method's mask keeps the fenced module in its quadrant on every new-rule circuit; the
    # mutant (the same weights without the new matrix) is scored on the rule too
    assert [violations(c, p)["region"] for c, p in zip(inst.data["newrule"], a["newrule"])] == [0, 0]
    assert all("region" in violations(c, p) for c, p in zip(inst.data["newrule"], b["newrule"]))


def test_no_rule_reward_keeps_only_the_wirelength_term():
    # without a mask, an untrained policy breaks rules; with the same net and random stream the
    # two agents take the same actions, and the mutant's return is exactly -HPWL / G
    C = torch_classes()
    torch = C["torch"]
    torch.manual_seed(0)
    net = C["RulePolicy"](N_CHANNELS, 4)
    circs = [sample_circuit(np.random.default_rng(s), 8, 8) for s in range(3)]
    full = RulePlanner(mask=False)._rollout(net, circs, torch.Generator().manual_seed(1), False)
    mut = RulePlanner(mask=False, mutant="no_rule_reward")._rollout(
        net, circs, torch.Generator().manual_seed(1), False)
    assert torch.equal(full["a"], mut["a"])
    for k, (c, p) in enumerate(zip(circs, mut["place"])):
        assert float(mut["r"][:, k].sum()) == -hpwl(c, p) / 8
    assert bool((full["r"] <= mut["r"]).all()) and bool((full["r"] < mut["r"]).any())
