import numpy as np
import pytest

from claimbench.baselines.legal_placement import LegalPlacement, place_all
from claimbench.datasets.floorplan_rules import (FloorplanEnv, RuleFloorplan, _box_any,
                                                 hpwl, order, sample_circuit,
                                                 violations)
from claimbench.methods.ruleplanner import N_CHANNELS, RulePlanner, torch_classes


def tiny() -> dict:
    """4 x 4 dies; module 0 pre-placed 2x2 at the corner of die 0; 1 and 2 aligned; 3 boundary."""
    keep = np.zeros((2, 4, 4), bool)
    keep[1, 3, 3] = True
    return dict(grid=4, sizes=np.array([[2, 2], [1, 1], [1, 1], [2, 1]]),
                nets=[np.array([0, 1]), np.array([1, 2, 3])], keepout=keep,
                preplaced={0: (0, 0, 0)}, boundary={3}, align=[(1, 2)], cap_area=8)


def test_box_any_matches_brute_force():
    a = np.random.default_rng(0).random((2, 6, 6)) < 0.3
    for w, h in [(1, 1), (2, 3), (3, 1)]:
        b = _box_any(a, w, h)
        for d, x, y in np.ndindex(2, 6, 6):
            ref = True if x + w > 6 or y + h > 6 else a[d, x:x + w, y:y + h].any()
            assert b[d, x, y] == ref
        assert np.array_equal(_box_any(a[0], w, h), b[0])  # one die, (G, G), too


def test_hpwl_and_violations_by_hand():
    c = tiny()
    # known-legal placement: 1 on die 0 beside the block, 2 above it on die 1, 3 on the edge
    place = np.array([[0, 0, 0], [0, 2, 0], [1, 2, 0], [0, 0, 2]])
    v = violations(c, place)
    assert sum(v.values()) == 0, v
    # centres: 0 (1,1), 1 (2.5,.5), 2 (2.5,.5), 3 (1,2.5); net0 1.5+.5; net1 1.5+2
    assert hpwl(c, place) == pytest.approx(2.0 + 3.5)
    bad = np.array([[0, 0, 0], [0, 1, 1], [0, 2, 0], [1, 1, 1]])
    v = violations(c, bad)
    assert v["overlap"] == 1 and v["align"] == 1 and v["boundary"] == 1
    assert v["util"] == 0 and v["keepout"] == 0


def test_rule_masks_of_tiny_instance():
    c = tiny()
    env = FloorplanEnv(c)
    assert order(c)[:3] == [3, 1, 2]  # largest first, aligned pair back to back
    m = env.rule_masks()  # module 3 (2x1, boundary)
    assert not m["overlap"][0, 0, 0] and m["overlap"][0, 2, 0]
    assert not m["boundary"][0, 1, 1] and m["boundary"][0, 1, 0]
    assert not m["overlap"][0, 3, 0]  # out of the canvas (width 2)
    env.step(0, 0, 2)
    m = env.rule_masks()  # module 1, first of the aligned pair
    assert not m["keepout"][1, 3, 3] and m["keepout"][1, 2, 3]
    env.step(0, 2, 0)
    m = env.rule_masks()  # module 2 must sit over module 1 on die 1
    assert np.argwhere(m["align"]).tolist() == [[1, 2, 0]]
    # HPWL increase at the aligned anchor: net1 has 1 at (2.5,.5) and 3 at (1,2.5): inside
    assert env.wire_delta()[2, 0] == 0.0


def test_utilisation_cap_masks_full_die():
    c = tiny()
    c["cap_area"] = 4  # die 0 is full with the pre-placed block
    env = FloorplanEnv(c)
    m = env.rule_masks()
    assert not m["util"][0].any() and m["util"][1].any()


def test_legal_placers_are_legal_on_generated_circuits():
    rng = np.random.default_rng(3)
    ok = {"greedy": 0, "random": 0}
    hp = {"greedy": 0.0, "random": 0.0}
    for _ in range(20):
        c = sample_circuit(rng, 8, 8)
        for rule in ok:
            p = place_all(c, rule, rng)
            ok[rule] += sum(violations(c, p).values()) == 0
            hp[rule] += hpwl(c, p)
    assert ok["greedy"] >= 18 and ok["random"] >= 16
    assert hp["greedy"] < hp["random"]


def test_dataset_and_method_outputs():
    inst = RuleFloorplan(n_eval=2).make(0)
    assert len(inst.data["eval"]) == 2 and inst.data["transfer"][0]["grid"] == 10
    out = LegalPlacement(rule="greedy").run(inst.data, 0)
    assert out["eval"][0].shape == (8, 3) and out["transfer"][0].shape == (12, 3)


def test_masked_agent_beats_penalty_only_and_mutant_differs():
    inst = RuleFloorplan(n_eval=4).make(1)

    def vfree(out):
        return np.mean([sum(violations(c, p).values()) == 0
                        for c, p in zip(inst.data["eval"], out["eval"])])

    rp = RulePlanner(episodes=32).run(inst.data, 0)
    pen = RulePlanner(episodes=32, mask=False).run(inst.data, 0)
    assert vfree(rp) >= 0.75 > vfree(pen)
    mut = RulePlanner(episodes=32, mutant="no_align_mask").run(inst.data, 0)
    assert any((a != b).any() for a, b in zip(rp["eval"], mut["eval"]))
    with pytest.raises(ValueError):
        RulePlanner(mutant="bogus").run(inst.data, 0)


def test_wire_delta_equals_per_net_accumulation():
    # wire_delta sums per axis over nets (exact: coordinates are multiples of 1/2); it must
    # equal the plain per-net (G, G) accumulation bit for bit, which the policy and greedy read
    rng = np.random.default_rng(5)
    for n_mod, G in ((8, 8), (12, 10)):
        for _ in range(20):
            c = sample_circuit(rng, n_mod, G)
            env = FloorplanEnv(c)
            while not env.done:
                i = env.module
                w, h = c["sizes"][i]
                cx, cy = np.arange(G)[:, None] + w / 2.0, np.arange(G)[None, :] + h / 2.0
                cen = env.place[:, 1:3] + c["sizes"] / 2.0
                ref = np.zeros((G, G))
                for net in c["nets"]:
                    p = [k for k in net if env.place[k, 0] >= 0 and k != i]
                    if i in net and p:
                        ref += np.maximum(0, cen[p, 0].min() - cx) \
                            + np.maximum(0, cx - cen[p, 0].max()) \
                            + np.maximum(0, cen[p, 1].min() - cy) \
                            + np.maximum(0, cy - cen[p, 1].max())
                assert env.wire_delta().tobytes() == ref.tobytes()
                legal = np.argwhere(env.legal(env.rule_masks()))
                env.step(*(int(v) for v in legal[rng.integers(len(legal))]))


def test_gae_with_lambda_one_is_reward_to_go_minus_value():
    torch = torch_classes()["torch"]
    r = torch.tensor([[1.0, 0.0], [2.0, -1.0], [3.0, 4.0]])  # (T=3, B=2)
    v = torch.tensor([[0.5, 1.0], [0.0, 2.0], [1.0, -1.0]])
    adv, ret = RulePlanner(gae_lambda=1.0)._gae(r, v)
    rtg = torch.tensor([[6.0, 3.0], [5.0, 3.0], [3.0, 4.0]])  # undiscounted returns to go
    assert torch.allclose(ret, rtg) and torch.allclose(adv, rtg - v)
    adv0, _ = RulePlanner(gae_lambda=0.0)._gae(r, v)  # one-step TD errors
    td = torch.tensor([[1.0 + 0.0 - 0.5, 0.0 + 2.0 - 1.0], [2.0 + 1.0 - 0.0, -1.0 - 1.0 - 2.0],
                       [3.0 - 1.0, 4.0 + 1.0]])
    assert torch.allclose(adv0, td)


def test_wire_gain_alone_places_like_greedy():
    # trunk silenced and a large wire gain: the arg max policy is greedy minimum-HPWL placement
    # under the mask, so every step it picks an anchor of least HPWL increase among legal ones
    C = torch_classes()
    torch = C["torch"]
    net = C["RulePolicy"](N_CHANNELS, 4)
    with torch.no_grad():
        for p in net.parameters():
            p.zero_()
        net.wire_gain.fill_(50.0)
    rp = RulePlanner()
    c = sample_circuit(np.random.default_rng(7), 8, 8)
    place = rp._rollout(net, [c], None, greedy=True)["place"][0]
    env = FloorplanEnv(c)
    while not env.done:
        legal = env.legal(env.rule_masks())
        cost = np.where(legal, env.wire_delta()[None], np.inf)
        d, x, y = place[env.module]
        assert legal[d, x, y] and cost[d, x, y] == cost.min()
        env.step(int(d), int(x), int(y))


def test_rollout_shapes_and_cached_training(tmp_path, monkeypatch):
    monkeypatch.setenv("CLAIMBENCH_CHECKPOINTS", str(tmp_path))
    inst = RuleFloorplan(n_eval=3).make(2)
    rp = RulePlanner(episodes=16, batch=8)
    C = torch_classes()
    ro = rp._rollout(C["RulePolicy"](N_CHANNELS, 4), inst.data["eval"],
                     C["torch"].Generator().manual_seed(0), greedy=False)
    assert ro["s"].shape == (7, 3, N_CHANNELS, 8, 8) and ro["r"].shape == (7, 3)
    assert ro["mask"].shape == (7, 3, 128) and bool(ro["mask"].gather(
        2, ro["a"][..., None]).all())  # every sampled anchor was allowed by the mask
    a = rp.run(inst.data, 3)
    assert len(list(tmp_path.glob("*.safetensors"))) == 1
    b = rp.run(inst.data, 3)  # loaded from the cache: same weights, same placements
    assert len(a["traces"]["return"]["y"]) == 2 and a["train_return"] == b["train_return"]
    assert all((p == q).all() for p, q in zip(a["eval"] + a["transfer"], b["eval"] + b["transfer"]))


def test_state_and_shared_training_circuits_equal_the_plain_construction():
    # the speed-ups (issue 27) must compute the same numbers: the state written channel by
    # channel equals the float32 concatenation it replaced, for both rule_state settings, and
    # the training circuits drawn once per seed equal the batch-by-batch draws
    from claimbench.datasets.floorplan_rules import RULES
    from claimbench.methods.ruleplanner import _train_circuits

    rng = np.random.default_rng(11)
    for rule_state in (True, False):
        rp = RulePlanner(rule_state=rule_state)
        c = sample_circuit(rng, 8, 8)
        env = FloorplanEnv(c)
        while not env.done:
            masks, wire = env.rule_masks(), env.wire_delta() / 8
            rules = [masks[r] if rule_state else np.zeros((2, 8, 8), bool) for r in RULES]
            chans = [env.occ, c["keepout"], *rules, np.broadcast_to(wire, (2, 8, 8))]
            ref = np.concatenate([np.asarray(ch, np.float32) for ch in chans], 0)
            assert rp._state(env, masks, wire).tobytes() == ref.tobytes()
            legal = np.argwhere(env.legal(masks))
            env.step(*(int(v) for v in legal[rng.integers(len(legal))]))
    got = _train_circuits(4, 8, 8, 3, 2)
    r = np.random.default_rng(4)
    for batch in got:
        for circ in batch:
            ref = sample_circuit(r, 8, 8)
            assert (circ["sizes"] == ref["sizes"]).all() and (circ["keepout"] == ref["keepout"]).all()
            assert [n.tolist() for n in circ["nets"]] == [n.tolist() for n in ref["nets"]]


def test_legal_equals_fewest_broken_rules():
    # legal() returns the AND directly when it is non-empty; it must equal the fewest-broken
    # count over in-bounds anchors everywhere, dead ends (empty AND) included
    from claimbench.datasets.floorplan_rules import RULES

    rng = np.random.default_rng(13)
    seen_dead_end = False
    for _ in range(30):
        env = FloorplanEnv(sample_circuit(rng, 12, 8))  # crowded: dead ends occur
        while not env.done:
            masks = env.rule_masks()
            for rules in (RULES, RULES[:3] + RULES[4:]):
                stack = np.stack([masks[r] for r in rules])
                broken = np.where(env.in_bounds(), (~stack).sum(0), len(rules) + 1)
                ref = broken == broken.min()
                seen_dead_end |= broken.min() > 0
                assert np.array_equal(env.legal(masks, rules), ref)
            cand = np.argwhere(env.in_bounds())
            env.step(*(int(v) for v in cand[rng.integers(len(cand))]))
    assert seen_dead_end
