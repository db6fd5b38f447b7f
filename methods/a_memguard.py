"""A-MemGuard: consensus-based validation of retrieved memories plus a separate lesson memory.

Paper: Qianshan Wei, Tengchao Yang, Yaochen Wang, Xinfeng Li, Lijun Li, Zhenfei Yin, Yi Zhan,
Thorsten Holz, Zhiqiang Lin, XiaoFeng Wang, "A-MemGuard: A Proactive Defense Framework for
LLM-Based Agent Memory", arXiv:2510.02373 (ICML 2026). Read: the abstract (arXiv HTML v1),
third-party summaries of the paper (chatpaper, memorypapers.org, aispaper.com), the research
note /work/shared/papers/a_memguard.md and the outline of the authors' code
(TangciuYueng/AMemGuard, commit 52af44b: ReAct/consistency.py and EhrAgent/ehragent/
consistency.py read in full, the A-MemGuard branches of EhrAgent/ehragent/medagent.py and
ReAct/local_wikienv.py: one reasoning chain per retrieved memory, then an LLM judgment or DBSCAN
clustering of the chains' sentence embeddings keeps the largest cluster; inconsistent memories
get the chain as a lesson). The method section's equations, thresholds and tables were not
read.

Implemented, per task with context x and retrieved precedents m_1..m_k (after the lessons):
  1. lessons first (dual memory): L = {(c_j, a_j)} lessons; banned(x) = {a_j : cos(x, c_j) >= tau};
     precedents whose action is banned are revised away before validation;
  2. parallel reasoning paths: p_i = the action precedent m_i alone implies for x (simulated
     agent: m_i's action; LLM agent: the model asked with m_i only);
  3. consistency (the authors' clustering rule, ReAct/consistency.py _check_with_clustering):
     the paths are embedded and clustered by DBSCAN with cosine distance (eps 0.5,
     min_samples 2, their defaults); S = the members of the largest cluster (a tie goes to the
     cluster met first in retrieval order), every other path is inconsistent, and S is empty
     when no cluster forms;
  4. the agent acts on S only (simulated: its most similar member; LLM: prompted with S and the
     matched lessons); S empty (no consensus) -> the simulated agent abstains;
  5. lesson distillation: when S is non-empty and some paths were flagged, each flagged action
     a != the action of S is stored as a lesson (x, a) in the separate lesson memory.

Deviations:
1. A simulated rule-following agent over generated (context -> action) memories
   (datasets/agent_memory_tasks.py) replaces the LLM agents on EHRAgent/MIMIC-III and
   ReAct-StrategyQA; the LLM arm runs the same protocol with any ``--model``.
2. A reasoning path is reduced to the action it implies, embedded one-hot (the authors embed
   the chain's text with all-mpnet-base-v2): two paths are at cosine distance 0 when they
   imply the same action and 1 otherwise, so with eps 0.5 DBSCAN groups equal actions and a
   cluster is an action implied by at least min_samples paths (``dominant_paths`` computes that
   result in closed form, identical to the fit, which it replaces for speed). Of the authors' two
   consistency deciders (an LLM judge; DBSCAN clustering) the clustering one is used, on both
   arms. Until issue 30 the rule was ours (keep paths that disagree with at most half of the
   others, theta 0.5), which abstained where the authors' rule keeps a plurality of two or more.
3. tau and k are ours (the paper's values were not read); lessons are matched by
   TF-IDF cosine to the task context.
4. A lesson is the (context, flagged action) pair, not an LLM-written text; the LLM arm shows
   it as a sentence ("in cases like ..., action X was found unsafe").

Mutants (foils): ``use_lessons=False`` is consensus only (the lesson memory removed);
``lesson_scope="global"`` applies every lesson regardless of context (a context-free action
blacklist, the known-wrong way to use lessons).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.baselines.memory_agent import INVALID, LLMMemoryAgent, MemoryAgent

SCOPES = ("context", "global")


def path_embedding(paths: list[int]) -> np.ndarray:
    """One-hot rows over the distinct actions the paths imply (INVALID is a value too)."""
    _, inv = np.unique(np.asarray(paths, int), return_inverse=True)
    return np.eye(inv.max() + 1)[inv]  # (n_paths, n_distinct)


def dominant_cluster(emb: np.ndarray, eps: float = 0.5, min_samples: int = 2) -> np.ndarray:
    """The authors' consistency rule: DBSCAN (cosine distance) over the path embeddings; the
    members of the largest cluster are consistent, the rest (noise included) inconsistent, and
    every path is inconsistent when no cluster forms. A tie between largest clusters goes to the
    one met first in retrieval order (their Counter.most_common over the labels in path order)."""
    from sklearn.cluster import DBSCAN  # heavy: imported where used

    n = emb.shape[0]
    if n == 0:
        return np.zeros(0, bool)
    labels = DBSCAN(eps=eps, min_samples=min_samples, metric="cosine").fit(emb).labels_  # (n,)
    clustered = labels[labels >= 0]
    if clustered.size == 0:
        return np.zeros(n, bool)
    sizes = np.bincount(clustered)
    largest = np.flatnonzero(sizes == sizes.max())
    first = [int(np.flatnonzero(labels == c)[0]) for c in largest]
    return labels == largest[int(np.argmin(first))]


def dominant_paths(paths: list[int], eps: float = 0.5, min_samples: int = 2) -> np.ndarray:
    """``dominant_cluster(path_embedding(paths), eps, min_samples)`` without fitting DBSCAN.

    On one-hot path embeddings the cosine distance is 0 between equal actions and 1 otherwise,
    so for 0 < eps < 1 a path's eps-neighbourhood is the paths of its own action: an action
    implied by at least min_samples paths is a cluster (its paths are all core points), every
    other path is noise, and DBSCAN numbers the clusters in order of their first path. The
    result is therefore the paths of the most frequent such action, a tie going to the action
    met first -- exactly what the DBSCAN fit returns (tests/test_a_memguard.py checks the two
    agree), at a small fraction of the cost of scikit-learn's per-fit validation, which was
    half of the simulated arm's CPU. Other eps fall back to the fit."""
    arr = np.asarray(paths, int)  # (n,)
    if arr.size == 0:
        return np.zeros(0, bool)
    if not 0.0 < eps < 1.0:
        return dominant_cluster(path_embedding(paths), eps, min_samples)
    acts, first, counts = np.unique(arr, return_index=True, return_counts=True)
    ok = counts >= min_samples
    if not ok.any():
        return np.zeros(arr.size, bool)
    best = counts[ok].max()
    tied = ok & (counts == best)
    return arr == acts[tied][int(np.argmin(first[tied]))]


@dataclass
class ConsensusLessons:
    """The defence, shared by the simulated and the LLM agent (mixed in before the agent)."""

    eps: float = 0.5  # the authors' code: DBSCAN radius in cosine distance
    min_samples: int = 2  # the authors' code: a cluster needs two agreeing paths
    use_lessons: bool = True  # the dual-memory structure; False = consensus only (mutant)
    lesson_threshold: float = 0.25  # ours: cosine at which a lesson applies to a context
    lesson_scope: str = "context"  # "global" = lessons applied everywhere (mutant)

    def setup(self, data, store, seed):
        super().setup(data, store, seed)
        if self.lesson_scope not in SCOPES:
            raise ValueError(f"unknown lesson_scope {self.lesson_scope!r}")
        self._vocab_list = list(data["vocab"])
        self._lesson_x: list[np.ndarray] = []
        self._lesson_a: list[int] = []
        self._n_flagged = 0
        self._n_revised = 0

    def matched(self, q) -> list[int]:
        if not self.use_lessons or not self._lesson_x:
            return []
        if self.lesson_scope == "global":
            return list(range(len(self._lesson_a)))
        sims = np.vstack(self._lesson_x) @ q  # (n_lessons,)
        return [int(j) for j in np.flatnonzero(sims >= self.lesson_threshold)]

    def defend(self, ctx, q, idx, store):
        banned = {self._lesson_a[j] for j in self.matched(q)}
        cand = [i for i in idx if store.actions[i] not in banned]
        self._n_revised += len(idx) - len(cand)
        paths = [self.path_action(ctx, i, store) for i in cand]
        ok = dominant_paths(paths, self.eps, self.min_samples)  # (n_cand,)
        keep = [i for i, o in zip(cand, ok) if o]
        flagged = [p for p, o in zip(paths, ok) if not o]
        self._n_flagged += len(flagged)
        if self.use_lessons and keep and flagged:
            consensus = paths[int(np.flatnonzero(ok)[0])]  # one action: the cluster is one-hot
            for a in sorted(set(flagged)):
                if a != consensus and a != INVALID:
                    self._lesson_x.append(q)
                    self._lesson_a.append(int(a))
        return keep

    def notes(self, q) -> list[str]:
        out = []
        for j in self.matched(q)[:3]:
            words = [w for w, v in zip(self._vocab_list, self._lesson_x[j]) if v > 0]
            out.append(f"Lesson: in cases like [{' '.join(words)}], action "
                       f"{self._actions[self._lesson_a[j]]} was found unsafe.")
        return out

    def stats(self) -> dict:
        return {"n_lessons": len(self._lesson_a), "n_flagged": self._n_flagged,
                "n_revised": self._n_revised}


@dataclass
class AMemGuard(ConsensusLessons, MemoryAgent):
    """A-MemGuard on the simulated agent."""

    name: ClassVar[str] = "a_memguard"


@dataclass
class AMemGuardLLM(ConsensusLessons, LLMMemoryAgent):
    """A-MemGuard on an LLM agent: k + 1 model calls per task (one per path, one to act)."""

    name: ClassVar[str] = "a_memguard_llm"

