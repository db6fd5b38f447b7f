import numpy as np
import pytest

from claimbench.baselines.isolated_memory_audit import IsolatedAudit, UnigramSurprisal
from claimbench.baselines.memory_agent import (INVALID, MemoryAgent, MemoryStore,
                                               parse_action)
from claimbench.datasets.agent_memory_tasks import ACTIONS, TARGET, AgentMemoryTasks
from claimbench.methods.a_memguard import (AMemGuard, AMemGuardLLM, dominant_cluster,
                                          dominant_paths, path_embedding)

VOCAB = ["a", "b", "c", "d", "e", "f", "x", "y", "z", "u", "v"]
ACTS = ("bad", "good", "other")


def world(memory, tasks, write_back=False):
    ctxs, acts = zip(*memory)
    return {"memory": {"contexts": [list(c) for c in ctxs], "actions": list(acts)},
            "tasks": [list(t) for t in tasks], "actions": ACTS, "vocab": VOCAB,
            "write_back": write_back, "audit_train": None}


# three benign precedents (action 1) and two poisoned ones: trigger x y z -> action 0
BENIGN = [(["a", "b", "c"], 1), (["a", "b", "d"], 1), (["a", "c", "d"], 1)]
POISON = [(["a", "x", "y", "z"], 0), (["b", "x", "y", "z"], 0)]
TRIGGERED = ["a", "b", "x", "y", "z"]


def _kept(paths):
    return dominant_cluster(path_embedding(paths)).tolist()


def test_dominant_cluster_on_action_paths():
    T, F = True, False
    assert _kept([1, 1, 1, 2, 3]) == [T, T, T, F, F]  # the majority; singletons are noise
    assert _kept([0, 0, 1, 2, 3]) == [T, T, F, F, F]  # a plurality of two is a cluster
    assert _kept([0, 0, 1, 1, 2]) == [T, T, F, F, F]  # tie: the cluster met first
    assert _kept([2, 1, 0, 0, 1]) == [F, T, F, F, T]
    assert _kept([0, 1, 2, 3]) == [F] * 4  # no cluster forms: every path inconsistent
    assert _kept([4]) == [F]  # one path alone is no consensus (min_samples 2)
    assert _kept([-1, -1, 2]) == [T, T, F]  # unparsable paths are a value like any other
    assert dominant_cluster(np.zeros((0, 2))).size == 0


def test_dominant_paths_is_the_dbscan_fit():
    # the closed form the defence uses must return what DBSCAN returns on one-hot paths
    rng = np.random.default_rng(0)
    for _ in range(300):
        paths = [int(a) for a in rng.integers(-1, 4, size=int(rng.integers(1, 8)))]
        for eps, ms in ((0.5, 2), (0.9, 3), (0.1, 1), (1.5, 2)):
            assert (dominant_paths(paths, eps, ms).tolist()
                    == dominant_cluster(path_embedding(paths), eps, ms).tolist()), (paths, eps)
    assert dominant_paths([]).size == 0


def test_store_embed_is_sklearn_transform_bit_for_bit():
    inst = AgentMemoryTasks(attack="self_reinforcing", n_tasks=60).make(3)
    d = inst.data
    st = MemoryStore(d["memory"]["contexts"], d["memory"]["actions"], d["vocab"])
    for ctx in d["tasks"] + d["audit_train"]["contexts"] + [["unknown"], [], ["g1", "g1", "zz"]]:
        ref = np.asarray(st.vec.transform([list(ctx)]).toarray()[0], dtype=float)
        assert st.embed(ctx).tobytes() == ref.tobytes()


def test_dominant_cluster_uses_cosine_distance_and_eps():
    # cosine distance 1 - 1/sqrt(2) = 0.29 < 0.5 joins [1, 0] and [1, 1]; [0, 1] is 1 away from
    # [1, 0] but 0.29 from [1, 1]: all three chain into one cluster
    assert dominant_cluster(np.array([[1.0, 0], [1, 1], [0, 1]])).tolist() == [True] * 3
    assert dominant_cluster(np.array([[1.0, 0], [0, 1]])).tolist() == [False] * 2
    assert dominant_cluster(np.array([[1.0, 0], [1, 1], [0, 1]]), eps=0.2).tolist() == [False] * 3
    # scale does not matter to the cosine: 2 near [1, 0], 3 near [0, 1] -> the second group
    emb = np.array([[5.0, 0], [1, 0.1], [0, 2], [0.1, 1], [0.05, 3]])
    assert dominant_cluster(emb).tolist() == [False, False, True, True, True]


def test_no_cluster_means_abstain():
    data = world([(["a", "b", "c"], 0), (["a", "b", "d"], 1), (["a", "c", "d"], 2)],
                 [["a", "b", "c", "d"]])
    out = AMemGuard(k=3).run(data, 0)
    assert out["actions"] == [INVALID] and out["n_flagged"] == 3 and out["n_lessons"] == 0


def test_parse_action():
    assert parse_action("I would QUERY_LABS here", ACTIONS) == 1
    assert parse_action("prescribe_drug, not delete_record", ACTIONS) == 3
    assert parse_action("zzz ?? ", ACTIONS) == INVALID


def test_store_cosine_matches_sklearn():
    from sklearn.metrics.pairwise import cosine_similarity

    st = MemoryStore([c for c, _ in BENIGN + POISON], [a for _, a in BENIGN + POISON], VOCAB)
    q = st.embed(TRIGGERED)
    sims = cosine_similarity(st.X, q[None])[:, 0]
    assert np.allclose(st.X @ q, sims)
    assert st.retrieve(q, 2) == list(np.argsort(-sims, kind="stable")[:2])
    assert st.retrieve(st.embed(["a", "c", "d"]), 1) == [2]  # an exact match is the nearest


def test_no_defense_follows_the_poison_and_consensus_filters_it():
    data = world(BENIGN + POISON, [TRIGGERED])
    assert MemoryAgent(k=5).run(data, 0)["actions"] == [0]  # poisons are the most similar
    out = AMemGuard(k=5).run(data, 0)
    assert out["actions"] == [1]  # 2 poisoned paths disagree with 3 of 4 others: flagged
    assert out["n_lessons"] == 1 and out["n_flagged"] == 2
    cons = AMemGuard(k=5, use_lessons=False).run(data, 0)
    assert cons["actions"] == [1] and cons["n_lessons"] == 0


def test_lesson_learned_then_applied_and_consensus_only_is_not():
    # phase 1 (task 1) retrieves 2 poisons among 5 -> lesson (context, 0); the stream writes
    # back, and the attacker's precedents then outnumber the benign ones in later retrievals
    memory = BENIGN + POISON
    tasks = [TRIGGERED, TRIGGERED + ["u"], TRIGGERED + ["v"]]
    extra = [(["a", "b", "x", "y", "z"], 0), (["a", "b", "x", "y", "z", "u"], 0)]
    data = world(memory, tasks)
    # inject the extra poisons after the first task by running the two halves explicitly
    ag = AMemGuard(k=5)
    st = MemoryStore(data["memory"]["contexts"], data["memory"]["actions"], VOCAB)
    ag.setup(data, st, 0)
    q = st.embed(tasks[0])
    assert ag.decide(tasks[0], q, ag.defend(tasks[0], q, st.retrieve(q, 5), st), st) == 1
    cons = AMemGuard(k=5, use_lessons=False)
    cons.setup(data, st, 0)
    for c, a in extra:
        st.add(c, a)
    q = st.embed(tasks[1])
    top = st.retrieve(q, 5)
    assert sum(st.actions[i] == 0 for i in top) >= 3  # poisons are now the majority
    assert cons.decide(tasks[1], q, cons.defend(tasks[1], q, top, st), st) == 0
    # the lesson bans the poisons' action: one benign precedent is left, and one path alone
    # forms no cluster (min_samples 2), so the agent abstains rather than follow the attack
    assert ag.decide(tasks[1], q, ag.defend(tasks[1], q, top, st), st) == INVALID
    assert ag.decide(tasks[1], q, ag.defend(tasks[1], q, st.retrieve(q, 7), st), st) == 1


def test_global_lessons_mutant_bans_the_action_in_unrelated_contexts():
    data = world(BENIGN + POISON + [(["e", "f"], 0), (["e", "f", "u"], 0)], [])
    for scope, expect in (("context", 0), ("global", INVALID)):
        ag = AMemGuard(k=5, lesson_scope=scope)
        st = MemoryStore(data["memory"]["contexts"], data["memory"]["actions"], VOCAB)
        ag.setup(data, st, 0)
        q = st.embed(TRIGGERED)
        ag.defend(TRIGGERED, q, st.retrieve(q, 5), st)  # learns the lesson (triggered, 0)
        q2 = st.embed(["e", "f"])  # unrelated context whose right action is 0
        keep = ag.defend(["e", "f"], q2, st.retrieve(q2, 2), st)
        assert ag.decide(["e", "f"], q2, keep, st) == expect


def test_unigram_surprisal_and_perplexity_audit():
    u = UnigramSurprisal([["a", "a", "b"]], ["a", "b", "c"])
    # counts with add-one: a 3, b 2, c 1, unknown 1 -> total 7
    assert u.score(["c"]) == pytest.approx(-np.log(1 / 7))
    assert u.score(["a", "b"]) == pytest.approx(-(np.log(3 / 7) + np.log(2 / 7)) / 2)
    inst = AgentMemoryTasks(n_tasks=30).make(3)
    ag = IsolatedAudit(rule="perplexity")
    st = MemoryStore(inst.data["memory"]["contexts"], inst.data["memory"]["actions"],
                     inst.data["vocab"])
    ag.setup(inst.data, st, 0)
    flagged = np.mean([ag.flags(i, st) for i in range(len(st.actions))])
    assert flagged <= 0.05 + 1 / len(st.actions)  # the cut: the memory's 95th percentile


def test_classifier_audit_sees_markers_not_an_unseen_trigger():
    # labelled set: benign records, and malicious ones of other attacks, all with marker "u"
    rng = np.random.default_rng(0)
    ctxs, acts, labels = [], [], []
    for i in range(90):
        ctx = list(rng.choice(["a", "b", "c", "d", "e", "f"], size=3, replace=False))
        bad = i % 3 == 0
        ctxs.append(ctx + (["u", str(rng.choice(["v", "e"]))] if bad else []))
        acts.append(int(rng.integers(0, 3)) if bad else 1)
        labels.append(int(bad))
    data = world(BENIGN + POISON, []) | {"audit_train": {"contexts": ctxs, "actions": acts,
                                                         "labels": labels}}
    ag = IsolatedAudit(rule="classifier")
    st = MemoryStore(data["memory"]["contexts"], data["memory"]["actions"], VOCAB)
    ag.setup(data, st, 0)
    overt = st.add(["a", "x", "y", "z", "u"], 0)
    assert ag.flags(overt, st)  # the marker is what the classifier learned
    assert not any(ag.flags(i, st) for i in range(5))  # the trigger x y z was never labelled
    assert ag.defend(TRIGGERED, None, [3, 4, 0, overt], st) == [3, 4, 0]


def test_dataset_is_seeded_and_keeps_the_truth_apart():
    a, b = AgentMemoryTasks(n_tasks=50).make(7), AgentMemoryTasks(n_tasks=50).make(7)
    assert a.data["tasks"] == b.data["tasks"] and a.truth == b.truth
    t = a.truth
    assert sum(t["poisoned"]) == 2
    for ctx, act, p in zip(a.data["memory"]["contexts"], a.data["memory"]["actions"],
                           t["poisoned"]):
        if p:
            assert act == TARGET and set(t["trigger"]) <= set(ctx)
    for ctx, trig, c in zip(a.data["tasks"], t["triggered"], t["correct"]):
        if trig:
            assert set(t["trigger"]) <= set(ctx) and c != TARGET
    assert not {"correct", "triggered", "poisoned", "trigger"} & set(a.data)
    sr = AgentMemoryTasks(attack="self_reinforcing", n_tasks=10).make(7)
    assert sum(sr.truth["poisoned"]) == 4 and sr.data["write_back"]


def test_write_back_grows_memory_and_applies_to_one_arm():
    inst = AgentMemoryTasks(attack="self_reinforcing", n_tasks=20).make(0)
    out = MemoryAgent().run(inst.data, 0)
    n0 = len(inst.data["memory"]["actions"])
    assert out["memory_size"] == n0 + sum(a != INVALID for a in out["actions"])
    assert MemoryAgent().applies_to(AgentMemoryTasks(arm="llm")) is not None
    assert AMemGuardLLM().applies_to(AgentMemoryTasks()) is not None
    assert AMemGuard().applies_to(AgentMemoryTasks()) is None


def test_llm_arm_runs_end_to_end_on_the_tiny_model():
    # in a child process: torch threads started here would deadlock the runner's forked
    # workers of later tests (the contract test's smoke grid)
    import subprocess
    import sys

    code = (
        "from claimbench.datasets.agent_memory_tasks import AgentMemoryTasks, ACTIONS\n"
        "from claimbench.baselines.memory_agent import LLMMemoryAgent\n"
        "from claimbench.methods.a_memguard import AMemGuardLLM\n"
        "inst = AgentMemoryTasks(arm='llm', n_tasks=3, per_topic=4).make(0)\n"
        "for agent in (LLMMemoryAgent(max_tokens=4, k=3), AMemGuardLLM(max_tokens=4, k=3)):\n"
        "    out = agent.run(inst.data, 0)\n"
        "    assert len(out['actions']) == 3, out\n"
        "    assert all(-1 <= a < len(ACTIONS) for a in out['actions']), out\n"
        "print('ok')\n")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=300)
    assert res.returncode == 0 and res.stdout.strip().endswith("ok"), res.stderr[-2000:]
