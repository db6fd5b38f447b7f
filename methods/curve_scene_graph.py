"""CURVE: causality-inspired uncertainty-guided regularization for scene graphs (proxy re-implementation).

Paper: Yue Liang, Jiatong Du, Ziyi Yang, Yanjun Huang, Hong Chen, "CURVE: Learning
Causality-Inspired Invariant Representations for Robust Scene Understanding via Uncertainty-Guided
Regularization", ICML 2026, arXiv:2601.20355, https://arxiv.org/abs/2601.20355.
Read: the v1 abstract and the opening of the introduction (arxiv.org/html/2601.20355v1) and a
third-party summary; the method section was not available, so every equation below is a
reconstruction from those sentences: (a) entity and relation embeddings are Gaussians N(mu, sigma^2)
whose sigma captures environment-sensitive (aleatoric) variance, with a KL term that stops sigma
from inflating trivially; (b) uncertainty-guided structural regularization suppresses high-variance
relations and yields a sparse, domain-stable topology; (c) a finite set of learned environment
prototypes approximates the environment latent and representations are debiased conditioned on
the prototype.

Implemented (graph g, nodes i, relation edges (i, j) of type r, features x_i):

 (0) prototype centring    x~_i = x_i - q_g P (see (8)): every node feature minus the prototype-
                          conditioned expected node feature of the scene's environment; (1)-(7) read x~;
 (1) entity posterior     q(z_i) = N(mu_i, diag sigma_i^2), mu_i = W_mu x~_i + b, log sigma_i = W_s x~_i + b',
                          H_0,i = relu(z_i), z_i = mu_i + sigma_i * eps (reparameterised);
 (2) relation posterior   a_ij ~ N(m_ij, s_ij^2), (m_ij, log s_ij) = MLP([H_0,i + H_0,j, |H_0,i - H_0,j|,
                          onehot(r)]) (symmetric in i, j): a Gaussian over the edge gate's logit;
 (3) relaxed gate         g_ij = sigmoid(a_ij / tau_g) in training (a logit-normal relaxation of the
                          Bernoulli gate 1[a_ij > 0]);
 (4) KL                   KL(N(m, s^2) || N(mu_0, s_0^2)) = log(s_0 / s) + (s^2 + (m - mu_0)^2) / (2 s_0^2) - 1/2,
                          averaged over nodes x dims and over edges, both priors N(0, 1);
 (5) uncertainty-guided sparsity  L_sp = mean_edges P(a_ij > 0) = mean Phi(m_ij / s_ij): the expected
                          fraction of open gates (an L0 penalty); an edge stays open only if its
                          logit is confidently positive, so high-variance relations are the first to go;
 (6) pruning at test      keep (i, j) iff Phi(m_ij / s_ij) >= keep_prob; a pruned edge has weight 0,
                          a kept one Phi(m / s) in the mean pass and a sampled gate in MC passes;
 (7) message passing      the relational layers of baselines/message_passing_gnn.py on the gated
                          typed adjacency A_r * g, sum readout h_g;
 (8) prototypes           scene context u_g = mean_i x_i, K prototypes P_k, q_gk = softmax_k(-||u_g - P_k||^2 / tau_p),
                          L_proto = mean_g sum_k q_gk ||u_g - P_k||^2 (soft k-means; P initialised by
                          k-means++ on the training scenes; q and P enter (0) as constants);
 (9) prototype-conditioned logits  training: logits_g = W h_g + b + q_g B (B: K x 2, an environment-
                          conditioned bias that can absorb environment-specific label shifts);
                          test: the backdoor adjustment sum_k P(k) P(y | g, k) in its normalised
                          weighted-geometric-mean form, logits = W h_g + b + pi B, pi = mean_g q_g (train);
(10) debiasing penalty    L_db = sum_y Var_k E_q[f | y, k] / (E[f | 1] - E[f | 0])^2, f = h_g (W_1 - W_0)
                          the main branch's logit margin, E_q the q-weighted mean (q constant),
                          Var_k weighted by the prototypes' soft mass in class y: zero when the main
                          branch's score is independent of the environment prototype given the
                          label; scale-free and insensitive to injected noise;
(11) objective            CE + beta_node KL_nodes + beta_edge KL_edges + lambda_sp L_sp + lambda_proto L_proto
                          + lambda_db L_db, full-batch Adam. Warm-up over the first ``warmup_frac`` of
                          the steps: the KL and sparsity weights ramp linearly from 0 (KL warm-up as
                          in VAE practice, so gates do not close before the task is learned) and L_db
                          is switched on at its end (the anneal of the IRM reference code, which the
                          IRM baseline uses with the same fraction);
(12) prediction and uncertainty  the average of mc_samples stochastic passes (node and edge noise,
                          pruned edges kept at 0); uncertainty = entropy of the averaged prediction.

Few-shot target adaptation: as for the baselines, the encoder is frozen and the linear head (with
the adjusted bias b + pi B) is fine-tuned on the k labelled target scenes.

Deviations:
 1. Reconstruction throughout: the paper's equations, architecture, priors and hyperparameters were
    not readable; (0)-(12) are our reading of the abstract and summaries.
 2. The edge Gaussian is placed on a scalar gate logit per relation (not on a full relation
    embedding); entity Gaussians are full embeddings.
 3. "Down-weight or prune high-sigma edges" is implemented through P(a > 0) = Phi(m / s) (5)-(6),
    which falls with s for a positive mean; no separate sigma threshold.
 4. The prototype mechanism (0), (8)-(10) is our construction: an unsupervised soft k-means over
    a parameter-free scene context (mean node features), centring of the node features on the
    assigned prototype, an environment-conditioned bias with a backdoor-adjusted test bias, and a
    class-conditional invariance penalty on the main branch's logit margin (an equalized-odds
    style criterion across prototypes). CURVE does not use the training environment labels
    (only IRM does). In this proxy the spurious cue is a scene-level feature shift, which the
    scene context sees directly: the centring (0) suits it by construction; the clutter edges
    must be handled by (5)-(6) and (9)-(10).
 5. Scene graphs are synthetic (datasets/synthetic_scene_graphs.py), not CARLA-SR, DeepAccident
    or DoTA; the GNN is a 2-layer relational sum-aggregation network, not the paper's backbone.
 6. All hyperparameters are ours (paper values unknown), shared with the GNN baselines where
    they overlap (hidden size, layers, Adam steps, learning rate, weight decay, fine-tuning).
    The CURVE-only ones (warm-ups, the node-centring, the penalty's normalisation, the debiasing
    weight) were settled on development seeds 1000-1002, which the benchmark grids never use,
    after training-collapse failures there (gates closing before the motif was learned; the head
    shrinking, or the noise growing, to satisfy an unnormalised or variance-normalised penalty).

Mutants for foils (not the paper's method; the default ``mutant=""`` is CURVE unchanged). Both
change only the test-time pruning (6); training is CURVE's, and the three of a seed share it
through the checkpoint cache (trained once; outputs bit for bit those of training again):
  ``mutant="no_pruning"`` skips the hard pruning: every edge is kept with its soft weight
     Phi(m / s) (a dense topology).
  ``mutant="random_pruning"`` keeps as many edges as (6) would, chosen uniformly at random over
     the batch's edges (redrawn in every pass): the learned edge selection removed.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Method
from claimbench.baselines.message_passing_gnn import (cached_params, entropy, finetune_head,
                                                      linear_params, relational_layer, sum_readout,
                                                      typed_adjacency)


def kl_normal(torch, mu, log_sigma, mu0: float = 0.0, sigma0: float = 1.0):
    """Elementwise KL(N(mu, sigma^2) || N(mu0, sigma0^2)), eq. (4)."""
    return (math.log(sigma0) - log_sigma
            + (torch.exp(2 * log_sigma) + (mu - mu0) ** 2) / (2 * sigma0 ** 2) - 0.5)


def normal_cdf(torch, x):
    return 0.5 * (1 + torch.erf(x / math.sqrt(2.0)))


def prototype_invariance_penalty(torch, f, q, y, min_mass: float = 2.0, eps: float = 1e-6):
    """Eq. (10): sum_y Var_k E_q[f | y, k] / (E[f | y=1] - E[f | y=0])^2 for a binary label.

    The spread over environment prototypes of the class-conditional mean score, relative to the
    squared class separation of the score: scale-free (shrinking the head does not satisfy it)
    and blind to injected noise (means average it out), so only removing the score's dependence
    on the prototype within a class lowers it. Prototypes are weighted equally (those with soft
    mass >= ``min_mass`` in the class). f (n,) score, q (n, K) soft weights (constants), y (n,).
    """
    q = q.detach()
    spread = f.new_zeros(())
    for c in (0, 1):
        sel = y == c
        fc, qc = f[sel], q[sel]  # (m,), (m, K)
        wk = qc.sum(0)  # (K,)
        ok = wk >= min_mass
        if int(ok.sum()) < 2:
            continue
        means = (qc[:, ok] * fc.unsqueeze(1)).sum(0) / wk[ok]  # (K',)
        share = wk[ok] / wk[ok].sum()
        spread = spread + (share * (means - (share * means).sum()) ** 2).sum()
    if not bool((y == 1).any()) or not bool((y == 0).any()):
        return spread
    gap = f[y == 1].mean() - f[y == 0].mean()
    return spread / (gap ** 2 + eps)


def kmeans_pp(u: np.ndarray, k: int, rng) -> np.ndarray:
    """k-means++ seeding: k rows of u, each drawn with probability ~ squared distance to the chosen."""
    centers = [u[rng.integers(len(u))]]
    for _ in range(1, k):
        d2 = np.min([((u - c) ** 2).sum(1) for c in centers], axis=0)
        centers.append(u[rng.choice(len(u), p=d2 / d2.sum())] if d2.sum() > 0 else u[rng.integers(len(u))])
    return np.stack(centers)


def scene_context(split: dict) -> np.ndarray:
    """(n, F) mean node features of each scene: the environment encoder's input, eq. (8)."""
    m = split["mask"][..., None]
    return (split["X"] * m).sum(1) / m.sum(1)


def edge_list(A: np.ndarray):
    """Undirected edges (graph, i, j) with i < j and their relation types."""
    g, i, j = np.nonzero(np.triu(np.asarray(A) > 0, k=1))
    return g, i, j, np.asarray(A)[g, i, j].astype(int) - 1


@dataclass
class CURVE(Method):
    """Variational node/edge Gaussians, uncertainty-guided edge pruning, prototype-conditioned debiasing."""

    name: ClassVar[str] = "curve"
    hidden: int = 16  # shared with the GNN baselines (our choice)
    n_layers: int = 2  # shared with the GNN baselines
    epochs: int = 200  # shared with the GNN baselines
    lr: float = 0.01  # shared with the GNN baselines
    weight_decay: float = 1e-3  # shared with the GNN baselines
    gate_hidden: int = 16  # our choice: width of the edge-posterior MLP, eq. (2)
    gate_temperature: float = 0.5  # tau_g, eq. (3): our choice
    beta_node: float = 1e-2  # KL weight, nodes (our choice; paper value unknown)
    beta_edge: float = 1e-2  # KL weight, edges (our choice)
    lambda_sparse: float = 0.1  # eq. (5) weight (our choice)
    keep_prob: float = 0.9  # eq. (6): keep an edge whose gate is open with probability >= 0.9 (our choice)
    n_prototypes: int = 4  # K, the note's proposal (paper value unknown)
    proto_temperature: float = 1.0  # tau_p, eq. (8): our choice
    lambda_proto: float = 1.0  # eq. (8) weight (our choice)
    lambda_debias: float = 10.0  # eq. (10) weight (our choice)
    center_on_prototype: bool = True  # eq. (0); False for the ablation
    warmup_frac: float = 0.4  # our choice, as IRM's anneal (190 of 501 steps): see eq. (11)
    debias_warmup_frac: float = 0.4  # L_db switched on after the warm-up, as IRM's anneal
    mc_samples: int = 20  # eq. (12), as the MC-dropout baseline
    mutant: str = ""  # foil only: "no_pruning" | "random_pruning" (see the header; not the paper's)
    ft_steps: int = 100  # shared with the GNN baselines
    ft_lr: float = 0.01  # shared with the GNN baselines

    # -- model --------------------------------------------------------------------------------
    def _init(self, torch, F_in: int, R: int, gen, u_train: np.ndarray, seed: int) -> dict:
        h = self.hidden
        p = {"mu": linear_params(torch, F_in, h, gen), "ls": linear_params(torch, F_in, h, gen),
             "g1": linear_params(torch, 2 * h + R, self.gate_hidden, gen),
             "g2": linear_params(torch, self.gate_hidden, 2, gen), "layers": [],
             "out": linear_params(torch, h, 2, gen)}
        with torch.no_grad():
            p["ls"][1].fill_(-2.0)  # start with small entity noise (sigma ~ 0.14): our choice
            p["g2"][1].copy_(torch.tensor([2.0, -1.0]))  # gates start open, s ~ 0.37: our choice
        for _ in range(self.n_layers):
            W_self, b = linear_params(torch, h, h, gen)
            W_rel = torch.stack([linear_params(torch, h, h, gen)[0].detach()
                                 for _ in range(R)]).requires_grad_()  # (R, h, h)
            p["layers"].append([W_self, W_rel, b])
        rng = np.random.default_rng(seed)
        p["P"] = torch.as_tensor(kmeans_pp(u_train, self.n_prototypes, rng),
                                 dtype=torch.float32).requires_grad_()  # (K, F)
        p["B"] = torch.zeros(self.n_prototypes, 2, requires_grad=True)  # (K, 2)
        return p

    @staticmethod
    def _params(p: dict) -> list:
        return [*p["mu"], *p["ls"], *p["g1"], *p["g2"], *[t for L in p["layers"] for t in L],
                *p["out"], p["P"], p["B"]]

    def _edges(self, torch, p: dict, H0, edges):
        """(m, s) of the gate-logit posterior for every undirected edge, eq. (2)."""
        g, i, j, r = edges
        hi, hj = H0[g, i], H0[g, j]  # (E, h)
        onehot = torch.nn.functional.one_hot(torch.as_tensor(r), len(p["layers"][0][1]))
        z = torch.cat([hi + hj, (hi - hj).abs(), onehot.float()], dim=1)
        out = torch.relu(z @ p["g1"][0] + p["g1"][1]) @ p["g2"][0] + p["g2"][1]  # (E, 2)
        return out[:, 0], out[:, 1].clamp(-6.0, 3.0)

    def _forward(self, torch, p: dict, batch: dict, sample: bool, gen):
        """Graph embeddings (n, h) and the pieces of the loss / the edge decisions."""
        X, adj, mask, edges = batch["X"], batch["adj"], batch["mask"], batch["edges"]
        q, l_proto = self._prototypes(torch, p, batch["u"])  # (n, K)
        if self.center_on_prototype:  # eq. (0): prototype-conditioned centring
            X = X - (q.detach() @ p["P"].detach()).unsqueeze(1)
        mu = X @ p["mu"][0] + p["mu"][1]  # (n, N, h)
        ls = (X @ p["ls"][0] + p["ls"][1]).clamp(-6.0, 3.0)
        z = mu + torch.exp(ls) * torch.randn(mu.shape, generator=gen) if sample else mu
        H = torch.relu(z) * mask.unsqueeze(-1)
        m, s_log = self._edges(torch, p, H, edges)  # (E,), (E,)
        s = torch.exp(s_log)
        p_open = normal_cdf(torch, m / s)  # (E,)
        if sample:
            a = m + s * torch.randn(m.shape, generator=gen)
            w = torch.sigmoid(a / self.gate_temperature)
        else:
            w = p_open
        keep = None
        if not batch.get("training", False):
            keep = p_open >= self.keep_prob  # eq. (6)
            if self.mutant == "no_pruning":
                keep = torch.ones_like(keep)
            elif self.mutant == "random_pruning":
                keep = keep[torch.randperm(len(keep), generator=gen)]
            elif self.mutant:
                raise ValueError(f"unknown mutant {self.mutant!r}")
            w = w * keep.float()
        # gated typed adjacency A_r * g: each edge's weight at (r, i, j) and (r, j, i), zero
        # elsewhere (the same tensor as the one-hot adjacency times the symmetric weights)
        A = torch.zeros(adj.shape).index_put(batch["slots"], torch.cat([w, w]))  # (n, R, N, N)
        for W_self, W_rel, b in p["layers"]:
            H = relational_layer(torch, H, A, W_self, W_rel, b)
        hg = sum_readout(torch, H, mask)  # (n, h)
        node_kl = edge_kl = None  # only the training loss reads the KL terms (no RNG in them)
        if batch.get("training", False):
            node_kl = (kl_normal(torch, mu, ls).mean(-1) * mask).sum() / mask.sum()
            edge_kl = kl_normal(torch, m, s_log).mean() if len(m) else hg.new_zeros(())
        return hg, {"node_kl": node_kl, "edge_kl": edge_kl, "p_open": p_open, "m": m, "s": s,
                    "q": q, "l_proto": l_proto, "keep": keep}

    def _prototypes(self, torch, p: dict, u):
        d2 = ((u.unsqueeze(1) - p["P"].unsqueeze(0)) ** 2).sum(-1)  # (n, K)
        q = torch.softmax(-d2 / self.proto_temperature, dim=1)
        return q, (q * d2).sum(1).mean()

    def _batch(self, torch, split: dict, R: int, training: bool = False) -> dict:
        g, i, j, r = edges = edge_list(split["A"])
        slots = tuple(torch.as_tensor(np.concatenate(v)) for v in ((g, g), (r, r), (i, j), (j, i)))
        return {"X": torch.as_tensor(split["X"], dtype=torch.float32),
                "adj": typed_adjacency(torch, split["A"], R),
                "mask": torch.as_tensor(split["mask"]).float(),
                "edges": edges, "slots": slots, "training": training,
                "u": torch.as_tensor(scene_context(split), dtype=torch.float32)}

    # -- training and prediction --------------------------------------------------------------
    def _fit(self, torch, p: dict, batch: dict, y, gen) -> dict:
        """Full-batch Adam on the objective (11); returns the loss and kept-fraction traces."""
        import torch.nn.functional as F

        # foreach: one call per step for all tensors, the same arithmetic as the per-tensor loop
        opt = torch.optim.Adam(self._params(p), lr=self.lr, weight_decay=self.weight_decay,
                               foreach=True)
        losses, sparsity = [], []
        warm = max(int(self.warmup_frac * self.epochs), 1)
        for step in range(self.epochs):
            lam_db = self.lambda_debias if step >= int(self.debias_warmup_frac * self.epochs) else 0.0
            ramp = min(1.0, step / warm)  # KL / sparsity warm-up
            hg, parts = self._forward(torch, p, batch, True, gen)
            q, l_proto = parts["q"], parts["l_proto"]
            main = hg @ p["out"][0] + p["out"][1]  # (n, 2)
            margin = main[:, 1] - main[:, 0]
            logits = main + q.detach() @ p["B"]  # eq. (9)
            loss = (F.cross_entropy(logits, y) + ramp * self.beta_node * parts["node_kl"]
                    + ramp * (self.beta_edge * parts["edge_kl"]
                              + self.lambda_sparse * parts["p_open"].mean())
                    + self.lambda_proto * l_proto)
            # before the switch the term is 0 x a finite penalty, which adds exact zeros to the
            # loss and its gradients: skipped (the same training, bit for bit)
            if lam_db:
                loss = loss + lam_db * prototype_invariance_penalty(torch, margin, q, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(float(loss.detach()))
            sparsity.append(float((parts["p_open"] >= self.keep_prob).float().mean()))
        return {"train_loss": losses, "kept_edge_frac_train": sparsity}

    def _trained(self, torch, data: dict, batch: dict, gen, seed: int) -> tuple[dict, dict]:
        """The trained parameters and traces, with ``gen`` where training left it. Training does
        not read ``mutant`` (a test-time change), so the mutants of one seed share one training
        through the checkpoint cache (bit for bit the same as training again)."""
        import sys

        from claimbench.api import fields_of
        from claimbench.baselines import message_passing_gnn

        tr, R, F_in = data["train"], data["n_relations"], data["n_features"]
        u = batch["u"].numpy()
        y = torch.as_tensor(tr["y"], dtype=torch.long)
        key = {"model": "curve", "seed": int(seed), "n_relations": R, "n_features": F_in,
               "fields": {k: v for k, v in fields_of(self).items() if k != "mutant"},
               "train": message_passing_gnn.split_digest(tr)}

        def fit():
            p = self._init(torch, F_in, R, gen, u, seed)
            return self._params(p), self._fit(torch, p, batch, y, gen)

        p = self._init(torch, F_in, R, torch.Generator().manual_seed(0), u, seed)  # shapes only
        _, history = cached_params(torch, key, self._params(p), gen, fit,
                                   sources=(sys.modules[__name__], message_passing_gnn))
        return p, history

    def run(self, data: dict, seed: int) -> dict:
        import torch

        t0 = time.perf_counter()
        gen = torch.Generator().manual_seed(int(seed) % (2**63 - 1))
        R = data["n_relations"]
        batch = self._batch(torch, data["train"], R, training=True)
        p, history = self._trained(torch, data, batch, gen, seed)
        losses, sparsity = history["train_loss"], history["kept_edge_frac_train"]

        with torch.no_grad():
            q, _ = self._prototypes(torch, p, batch["u"])
            pi = q.mean(0)  # prototype prior for the backdoor adjustment, eq. (9)
            W_out, b_out = p["out"][0], p["out"][1] + pi @ p["B"]
        # test batches built once per split, not in every Monte Carlo pass
        tests = {k: self._batch(torch, data[k], R)
                 for k in ("id_test", "ood_test", "target_test", "target_support")}

        def embed(split: str, sample: bool):
            return self._forward(torch, p, tests[split], sample, gen)

        def probs(split: str, W, b) -> np.ndarray:
            with torch.no_grad():
                ps = [torch.softmax(embed(split, True)[0] @ W + b, -1)[:, 1]
                      for _ in range(self.mc_samples)]
            return torch.stack(ps).mean(0).numpy().astype(float)  # eq. (12)

        with torch.no_grad():
            emb_s = embed("target_support", False)[0].numpy()
            _, ood_parts = embed("ood_test", False)
        Wt, bt = finetune_head(torch, emb_s, data["target_support"]["y"], W_out, b_out,
                               self.ft_steps, self.ft_lr)
        g, i, j, r = tests["ood_test"]["edges"]
        keep = np.zeros(data["ood_test"]["A"].shape, dtype=bool)  # (n, N, N) upper triangle
        keep[g, i, j] = ood_parts["keep"].numpy()  # the edges the mean pass kept, eq. (6)
        s_ood = ood_parts["s"].numpy()
        p_ood = probs("ood_test", W_out, b_out)
        return {
            "p_id": probs("id_test", W_out, b_out),
            "p_ood": p_ood,
            "unc_ood": entropy(p_ood),
            "p_target": probs("target_test", Wt, bt),
            "edge_keep_ood": keep,
            "edge_sigma_by_relation": [float(s_ood[r == k].mean()) if (r == k).any() else None
                                       for k in range(R)],
            "time_s": time.perf_counter() - t0,
            "traces": {"train_loss": {"x": list(range(len(losses))), "y": losses},
                       "kept_edge_frac_train": {"x": list(range(len(sparsity))), "y": sparsity}},
        }
