"""ATL-FGD: adaptive topology learning with FiLM-guided distillation for structure-based RNA
design.

Paper: "Learning Adaptive Topology with FiLM-Guided Distillation for Tertiary Structure-Based RNA
Design", ICML 2026 poster (https://icml.cc/virtual/2026/poster/66170); no arXiv copy, no code.
Only the abstract was read: everything below beyond "differentiable edge gating ... layer-adaptive
graphs" and "feature-wise linear modulation ... transferring knowledge from RNA foundation models
without relying on them during inference" is reconstructed (research note
/work/shared/papers/atl_fgd_rna.md).

Implemented (on the encoder of baselines/knn_message_passing.py):
(1) ATL. A candidate kNN graph with k_c = ``k_candidates`` neighbours. In every layer l each
    candidate edge gets a gate g^l_ij = sigmoid(MLP_l([h_i, h_j, e_ij]) + b0) in (0, 1) and the
    layer aggregates (1/k_c) sum_j g^l_ij m^l_ij, so each layer learns its own soft topology.
    The gate MLP shares its first (ReLU) layer with the layer's message MLP (deviation 7).
    Sparsity: lambda_g * mean_l (1/N) sum_ij g^l_ij (an L1 penalty on the gates, i.e. on the
    soft degree per node, gates being positive) is added to the loss. ``edges_kept`` = mean over
    layers of the fraction of candidate edges with g > 0.5 on the test structures.
(2) FGD (training only). A frozen sequence "foundation model" T (a bidirectional GRU masked LM,
    pretrained first on an unlabelled corpus (deviation 2): position i is predicted from the
    forward state at i - 1 and the backward state at i + 1) embeds the native sequence:
    z_i = [fwd_{i-1}, bwd_{i+1}] (the context of i, not s_i itself). FiLM:
    h^T_i = (1 + W_g z_i) * h_i + W_b z_i on the encoder output h_i. Loss:
        L = CE(W_S h, s) + CE(W_T h^T, s) + lambda_kd tau^2 KL(softmax(W_T h^T / tau) ||
            softmax(W_S h / tau)) + lambda_f ||h - sg(h^T)||^2 / d + (gate penalty),
    the teacher's outputs detached (sg) in the two distillation terms (the teacher branch's own
    cross-entropy does train the shared encoder and the FiLM map). At inference only the
    student path W_S h is used: no sequence model, no native sequence.
(3) Design = per-nucleotide argmax of the student's softmax.

Deviations (numbered):
1. Secondary-structure proxy: ViennaRNA MFE structures of family members, as noisy 2-D layout
   coordinates (datasets/folded_rna.py), not PDB tertiary structures; the metrics are recovery,
   Macro-F1 and base-pair F1 of the ViennaRNA refold, not RMSD/TM-score.
2. The teacher is a 1-layer BiGRU masked LM pretrained on a generated corpus of further members
   of the same families (``data["pretrain"]``, 4x the student's training set, disjoint from it;
   ``teacher_data="train"``: on the student's own training sequences, the design before issue
   30), not a pretrained RNA foundation model (RNA-FM and the like cannot run here).
   ``teacher_heldout_acc``: its masked-LM accuracy on the student's training sequences, which it
   never saw.
3. FiLM is applied once, to the encoder's last-layer output; where the paper applies it and which
   distillation terms it uses are unknown (abstract only). The feature term and the KL term are
   our reconstruction of "softly transferring knowledge".
4. Scale (quick grid): hidden 32, 3 layers (the note: 4), ~80 Adam steps on 128 structures
   per run; the teacher 30 epochs. The paper trains for hours on thousands of 3-D structures.
5. The candidate graph for ATL is k_c = 16 (the static baseline uses the note's k = 8): the
   gates need more candidates than they keep. ``KnnMPNN(k=16)`` is run as the control for
   "more edges" rather than "learned edges".
6. Every hyperparameter value marked "ours" is our choice (the abstract gives none). The L1
   weight was lowered from 1e-2 to 1e-3 after a development run on one seed where, at 1e-2 per
   unit of soft degree, every gate closed (before any claim was evaluated).
7. The gate MLP shares its hidden layer with the message MLP (a linear gate head on it), for
   CPU time; the paper's gate network is unknown.
8. The teacher is trained on length-homogeneous batches (each family has one length), so no
   padding is needed.

Mutants / variants (fields):
- ``fgd=False``: ATL alone (the paper's ablation).
- ``mutant="shuffled_teacher"``: the teacher's embeddings are permuted across the positions of
  each structure before FiLM, so the distilled "knowledge" is misaligned noise (a known-wrong
  teacher); everything else unchanged.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from claimbench.baselines.knn_message_passing import NUC, KnnMPNN, build_encoder

MUTANTS = ("", "shuffled_teacher")


def build_teacher(torch, hidden: int):
    nn = torch.nn
    return nn.ModuleDict({"emb": nn.Embedding(5, 16),
                          "gru": nn.GRU(16, hidden, batch_first=True, bidirectional=True),
                          "out": nn.Linear(2 * hidden, 4)})


def tokens(torch, seqs: list[str]):
    return torch.as_tensor([[NUC.index(c) for c in s] for s in seqs])  # (B, L)


def teacher_context(torch, teacher, seqs: list[str], tok=None):
    """(B, L, 2H) context embeddings z_i = [fwd_{i-1}, bwd_{i+1}] of equal-length sequences: the
    BiGRU states on either side of position i, so z_i never sees s_i itself. ``tok``: their
    :func:`tokens`, when the caller has them already."""
    if len({len(s) for s in seqs}) != 1:
        raise ValueError("teacher_context takes sequences of one length")
    if tok is None:
        tok = tokens(torch, seqs)  # (B, L)
    out, _ = teacher["gru"](teacher["emb"](tok))  # (B, L, 2H)
    H = out.shape[-1] // 2
    zeros = torch.zeros_like(out[:, :1, :H])  # (B, 1, H)
    ctx_f = torch.cat([zeros, out[:, :-1, :H]], dim=1)  # (B, L, H): forward state at i - 1
    ctx_b = torch.cat([out[:, 1:, H:], zeros], dim=1)  # (B, L, H): backward state at i + 1
    return torch.cat([ctx_f, ctx_b], dim=-1)  # (B, L, 2H)


def by_length(seqs: list[str]) -> dict[int, list[int]]:
    groups: dict[int, list[int]] = {}
    for i, s in enumerate(seqs):
        groups.setdefault(len(s), []).append(i)
    return groups


def train_teacher(torch, seqs: list[str], hidden: int, epochs: int, lr: float, gen):
    """Fit the BiGRU masked LM (predict s_i from its two-sided context) by Adam on
    length-homogeneous batches; returns (model, training accuracy)."""
    import torch.nn.functional as F

    from claimbench.baselines.knn_message_passing import init_params

    teacher = build_teacher(torch, hidden)
    init_params(torch, teacher, gen)
    opt = torch.optim.Adam(teacher.parameters(), lr=lr, foreach=True)
    groups = list(by_length(seqs).values())
    # each batch's tokens once, not at every epoch (issue 27: CPU; the same integer tensors)
    batches = [([seqs[i] for i in g], tokens(torch, [seqs[i] for i in g])) for g in groups]
    for _ in range(epochs):
        for gi in torch.randperm(len(groups), generator=gen).tolist():
            bs, y = batches[gi]  # y (B, L)
            z = teacher_context(torch, teacher, bs, y)  # (B, L, 2H)
            loss = F.cross_entropy(teacher["out"](z).reshape(-1, 4), y.reshape(-1))
            opt.zero_grad()
            loss.backward()
            opt.step()
    teacher.eval()
    return teacher, teacher_accuracy(torch, teacher, seqs)


def teacher_accuracy(torch, teacher, seqs: list[str]) -> float:
    """Masked-LM accuracy: fraction of positions i where argmax T(context of i) = s_i."""
    hits = 0
    with torch.no_grad():
        for idx in by_length(seqs).values():
            bs = [seqs[i] for i in idx]
            y = tokens(torch, bs)  # (B, L)
            hits += int((teacher["out"](teacher_context(torch, teacher, bs, y)).argmax(-1) == y).sum())
    return hits / sum(len(s) for s in seqs)


def cached_teacher(torch, seqs: list[str], hidden: int, epochs: int, lr: float, seed: int):
    """The teacher of one run, trained once per (data, configuration, seed) and shared by every
    FGD variant of that run through the checkpoint cache (its own generator, so a cache hit
    leaves the student's random stream unchanged)."""
    import sys

    from claimbench.checkpoints import cached_train
    from claimbench.grid import stable_hash

    key = {"model": "bigru_masked_lm", "hidden": hidden, "epochs": epochs, "lr": lr,
           "seed": seed, "data": stable_hash(seqs)}

    def fit(model):
        gen = torch.Generator().manual_seed((seed * 7919 + 17) % (2**63 - 1))
        trained, acc = train_teacher(torch, seqs, hidden, epochs, lr, gen)
        model.load_state_dict(trained.state_dict())
        return {"acc": acc}

    model, history, _ = cached_train(key, lambda: build_teacher(torch, hidden), fit,
                                     sources=(sys.modules[__name__],))
    model.eval()
    return model, float(history["acc"])


@dataclass
class ATLFGD(KnnMPNN):
    """Adaptive-topology kNN message passing (+ FiLM-guided distillation when ``fgd``)."""

    name: ClassVar[str] = "atl_fgd"
    k_candidates: int = 16  # ours: candidate kNN graph the gates prune (deviation 5)
    gate_l1: float = 1e-3  # ours: weight of the L1 gate penalty (note: "sparsity-regularised")
    gate_bias: float = 2.0  # ours: gates start open, sigmoid(2) = 0.88
    fgd: bool = True  # the paper's FGD component; False = ATL alone
    kd_weight: float = 1.0  # ours: weight of the KL distillation term
    feat_weight: float = 0.1  # ours: weight of the FiLM feature-matching term
    tau: float = 2.0  # ours: distillation temperature
    teacher_hidden: int = 32  # ours: BiGRU width of the stand-in foundation model (deviation 2)
    teacher_epochs: int = 30  # ours
    teacher_lr: float = 1e-2  # ours
    mutant: str = ""  # "" or "shuffled_teacher"
    # the teacher's corpus: "pretrain" = the dataset's unlabelled family members that the student
    # never sees (knowledge it lacks, as a foundation model's; issue 30), "train" = the student's
    # own training sequences (self-distillation, the design before issue 30)
    teacher_data: str = "pretrain"

    def __post_init__(self) -> None:
        if self.teacher_data not in ("pretrain", "train"):
            raise ValueError(f"teacher_data {self.teacher_data!r} not in ('pretrain', 'train')")
        if self.mutant not in MUTANTS:
            raise ValueError(f"mutant {self.mutant!r} not in {MUTANTS}")

    def _candidate_k(self) -> int:
        return self.k_candidates

    def _build(self, torch, data: dict):
        model = build_encoder(torch, self.hidden, self.n_layers)
        model["gates"] = torch.nn.ModuleList(
            [torch.nn.Linear(self.hidden, 1) for _ in range(self.n_layers)])
        if self.fgd:
            model["film"] = torch.nn.Linear(2 * self.teacher_hidden, 2 * self.hidden)
            model["head_t"] = torch.nn.Linear(self.hidden, 4)
        return model

    def _gate(self, torch, model, layer_idx: int):
        head = model["gates"][layer_idx]

        def gate(hid):  # hid (E, hidden): ReLU layer of MLP([h_i, h_j, e_ij])
            return torch.sigmoid(head(hid).squeeze(-1) + self.gate_bias)  # (E,)
        return gate

    def _prepare(self, torch, data: dict, gen) -> None:
        self._z = {}
        self.teacher_acc = self.teacher_heldout_acc = None
        if not self.fgd:
            return
        seqs = [g["seq"] for g in data["train"]]
        corpus = list(data["pretrain"]) if self.teacher_data == "pretrain" else seqs
        teacher, self.teacher_acc = cached_teacher(torch, corpus, self.teacher_hidden,
                                                   self.teacher_epochs, self.teacher_lr,
                                                   self._run_seed)
        # held out only when the teacher never saw the student's sequences
        self.teacher_heldout_acc = (teacher_accuracy(torch, teacher, seqs)
                                    if self.teacher_data == "pretrain" else None)
        with torch.no_grad():
            for idx in by_length(seqs).values():
                z = teacher_context(torch, teacher, [seqs[i] for i in idx])  # (B, L, 2H)
                for b, i in enumerate(idx):
                    self._z[seqs[i]] = z[b]  # (L, 2H), frozen

    def _teacher_z(self, torch, seqs: list[str], gen):
        """(N, 2H) frozen teacher embeddings of a batch; permuted within each structure for the
        shuffled-teacher mutant."""
        zs = [self._z[s] for s in seqs]
        if self.mutant == "shuffled_teacher":
            zs = [z[torch.randperm(len(z), generator=gen)] for z in zs]
        return torch.cat(zs)

    def _loss(self, torch, model, batch, y, seqs, gen):
        import torch.nn.functional as F

        h, ws = self._encode(torch, model, batch)  # h (N, hidden)
        logits = model["head"](h)  # (N, 4)
        loss = F.cross_entropy(logits, y)
        degree = torch.stack([w.sum() / batch["n"] for w in ws]).mean()  # kept degree per node
        loss = loss + self.gate_l1 * degree
        if not self.fgd:
            return loss
        z = self._teacher_z(torch, seqs, gen)  # (N, 2H)
        gb = model["film"](z)  # (N, 2 hidden)
        gamma, beta = 1.0 + gb[:, :self.hidden], gb[:, self.hidden:]
        h_t = gamma * h + beta  # (N, hidden): FiLM-modulated structural features
        logits_t = model["head_t"](h_t)  # (N, 4)
        loss = loss + F.cross_entropy(logits_t, y)
        p_t = F.softmax(logits_t.detach() / self.tau, dim=-1)
        logp_s = F.log_softmax(logits / self.tau, dim=-1)
        kd = F.kl_div(logp_s, p_t, reduction="batchmean") * self.tau ** 2
        feat = ((h - h_t.detach()) ** 2).mean()
        return loss + self.kd_weight * kd + self.feat_weight * feat

    def run(self, data: dict, seed: int) -> dict:
        self._run_seed = int(seed)
        out = super().run(data, seed)
        if self.fgd:
            out["teacher_acc"] = self.teacher_acc
            if self.teacher_heldout_acc is not None:
                out["teacher_heldout_acc"] = self.teacher_heldout_acc
        self._z = {}
        return out

