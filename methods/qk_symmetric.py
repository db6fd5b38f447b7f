"""Symmetric / skew-symmetric split of QK^T: circulation control at sampling time.

Paper: Hyunmin Cho, Woo Kyoung Han, Kyong Hwan Jin, "Balancing Fidelity and Diversity in
Diffusion Models via Symmetric Attention Decomposition: Hopfield Perspective", ICML 2026,
arXiv:2605.27476 (OpenReview E0MKfKmQkT). Read: the abstract, the project page and the
authors' code README and attention processor (hyeon-cho/Attention-Symmetric-Decomposition);
the paper's tables were not available.

Per head h, with X the attention input (normed residual stream, L tokens x C channels),
W_Q,h, W_K,h (d_h x C) and A_h = W_Q,h^T W_K,h (C x C):

(1) A_h = S_h + K_h, S_h = (A_h + A_h^T) / 2 (energy landscape), K_h = (A_h - A_h^T) / 2
    (circulation).
(2) Modified logits X S X^T + alpha X K X^T = c1 Q K^T + c2 K Q^T, c1 = (1 + alpha) / 2,
    c2 = (1 - alpha) / 2, scaled by 1 / sqrt(d_h) as usual; alpha = 1 is vanilla attention
    (the code short-cuts c2 = 0 to the vanilla retrieval, so alpha = 1 is exact).
(3) Retrievals in input space, H = softmax(logits) X (L x C per head): H_1 (vanilla) and
    H_alpha. Blend H = H_1 + beta (H_alpha - H_1), then rescale every token's row to the norm
    of H_alpha's, the ratio clipped to [0.25, 4]. The head output is H W_V,h^T, then the usual
    output projection.
(4) Hopfield diagnostics of a retrieval H: for each head and channel c, s = H[:, c] centred over
    tokens and L2-normalised; X_c = X centred over tokens; z = X_c^T s; energy
    E = -1/2 z^T S z; local field h = X_c S z; instability fraction r_X = mean_tokens[s * h < 0].
    Per sample: mean over heads, channels, layers and the logged sampling steps.

Applied to every self-attention layer, in both classifier-free-guidance branches, at every
sampling step (the paper: all SDXL UNet self-attention layers; here every layer is
self-attention). The network and its training are the shared flow-matching DiT baseline
(``baselines/flow_matching_dit.py``); this method only changes sampling. Draws go through
the baseline's content-hashed sample cache, keyed on what decides them (c1, c2, beta, the
diagnostics' schedule), so a draw two methods of a cell need is made once: alpha = 1 (the same
for every mutant but no_half), and the operating point with both couplings' diagnostics (this
method and random_energy).

Deviations:
1. Model and data: a 3-block class-conditional flow-matching DiT on sklearn's 8x8 digits
   (16 tokens of 2x2 patches), not SDXL on COCO prompts; class labels replace text prompts and
   there is no cross-attention. Euler ODE sampling instead of SDXL's scheduler.
2. Metrics: k-NN precision / recall (Kynkaenniemi et al., k = 3) against held-out digits, a
   logistic-regression classifier's confidence in the conditioned class, and within-class
   pairwise distance, instead of FID, CLIP score, ImageReward, Aesthetic, HPS and PickScore.
3. The modified logits are formed directly as c1 Q K^T + c2 (Q K^T)^T rather than through the
   code's concatenated-SDPA reparameterisation (the same numbers up to rounding).
4. Diagnostics are logged every ``diag_every``-th sampling step on the conditional branch only
   (cost); the paper logs every call. The adaptive eta_M-gated variant is not implemented.
5. Guidance scale, sample counts and sweep values are scaled-down choices (fields below).

Mutants for foils (field ``mutant``; "" is the method above, unchanged):
- ``no_half``: the split without its 1/2 (S = A + A^T, K = A - A^T), so the logits are
  (1 + alpha) Q K^T + (1 - alpha) K Q^T: alpha = 1 doubles the logits instead of leaving them.
- ``knob_on_symmetric``: alpha scales the energy landscape instead of the circulation,
  alpha X S X^T + X K X^T, i.e. an inverse temperature on the symmetric part.
- ``random_energy``: sampling unchanged; the diagnostics (4) use a random symmetric coupling
  with each head's ||S_h||_F in place of S_h (the learned energy removed from the measure).
- ``inert_knob``: alpha is ignored (c1 = 1, c2 = 0 at every alpha): a knob that modulates
  nothing, every draw the vanilla retrieval.

Guidance frontier (field ``guidance_sweep``, ours, for the Pareto check against the other knob):
the same noise and labels drawn with the toolkit's vanilla attention at each listed guidance
scale (the baseline's cached draw), returned beside the alpha sweep; the method's own samples
are unchanged by it.
"""
from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.baselines.flow_matching_dit import FlowMatchingDiT, copy_with_mixers

MUTANTS = ("", "no_half", "knob_on_symmetric", "random_energy", "inert_knob")


def logit_coefficients(alpha: float, mutant: str = "") -> tuple[float, float]:
    """(c1, c2) of the logits c1 Q K^T + c2 K Q^T."""
    if mutant == "no_half":
        return 1.0 + alpha, 1.0 - alpha
    if mutant == "knob_on_symmetric":
        return (alpha + 1.0) / 2.0, (alpha - 1.0) / 2.0
    if mutant == "inert_knob":
        return 1.0, 0.0
    return (1.0 + alpha) / 2.0, (1.0 - alpha) / 2.0


def blend(H1, Ha, beta: float, r_min: float = 0.25, r_max: float = 4.0, eps: float = 1e-6):
    """H1 + beta (Ha - H1), each token rescaled to ||Ha||, ratio clipped (equation 3)."""
    # in place on one fresh tensor: the same float operations as H1 + beta (Ha - H1) etc.,
    # without three more tensors of the retrievals' size
    Hb = (Ha - H1).mul_(beta).add_(H1)  # (B, H, L, C)
    ref = Ha.norm(dim=-1, keepdim=True).clamp_min_(eps)  # (B, H, L, 1)
    cur = Hb.norm(dim=-1, keepdim=True).clamp_min_(eps)
    return Hb.mul_(ref.div_(cur).clamp_(r_min, r_max))


def hopfield_diagnostics(Hx, X, S, eps: float = 1e-8):
    """Equation (4): per-sample energy and instability fraction, each (B,), averaged over
    heads and channels. Hx (B, H, L, C) retrieval, X (B, L, C) memory, S (H, C, C); or S a
    list of couplings: a list of (energy, r_x), the patterns s and z computed once."""
    import torch

    s = Hx - Hx.mean(dim=2, keepdim=True)  # (B, H, L, C): centred over tokens
    s = s / torch.linalg.vector_norm(s, dim=2, keepdim=True).clamp_min(eps)
    Xc = X - X.mean(dim=1, keepdim=True)  # (B, L, C)
    z = torch.einsum("bli,bhlc->bhic", Xc, s)  # (B, H, C_i, C_c)
    out = []
    for Sh in S if isinstance(S, (list, tuple)) else [S]:
        XS = torch.einsum("bli,hij->bhlj", Xc, Sh)  # (B, H, L, C): X_c S (S symmetric)
        Sz = torch.einsum("bhli,bhlc->bhic", XS, s)  # (B, H, C_i, C_c) = S z
        energy = -0.5 * (z * Sz).sum(dim=2)  # (B, H, C)
        field = torch.einsum("bli,bhic->bhlc", Xc, Sz)  # (B, H, L, C): local field X_c S z
        r_x = ((s * field) < 0).float().mean(dim=2)  # (B, H, C)
        out.append((energy.mean(dim=(1, 2)), r_x.mean(dim=(1, 2))))
    return out if isinstance(S, (list, tuple)) else out[0]


@functools.cache
def split_attention_class():
    """The toolkit's softmax attention with the (alpha, beta) circulation control (built once)."""
    from claimbench.baselines.tiny_transformer import torch_classes

    T = torch_classes()
    torch = T.torch

    class SymmetricSkewAttention(T.SoftmaxAttention):
        alpha, beta, mutant = 1.0, 1.0, ""
        log = None  # a list: diagnostics of the first ``log_rows`` samples are appended
        log_rows = 0

        def coupling(self, random: bool | None = None):
            """S_h (H, C, C) from W_Q, W_K, or the random_energy mutant's stand-in (``random``;
            default: whether this module is that mutant)."""
            C = self.cfg.d_model
            Wq = self.qkv.weight[:C].view(self.h, self.dh, C)  # (H, dh, C)
            Wk = self.qkv.weight[C:2 * C].view(self.h, self.dh, C)
            A = torch.einsum("hdi,hdj->hij", Wq, Wk)  # (H, C, C) = W_Q^T W_K per head
            S = 0.5 * (A + A.transpose(-1, -2))
            if random is None:
                random = self.mutant == "random_energy"
            if random:
                g = torch.Generator().manual_seed(1000 + self.layer)
                R = torch.randn(S.shape, generator=g)  # (H, C, C)
                R = 0.5 * (R + R.transpose(-1, -2))
                S = R * (S.norm(dim=(1, 2)) / R.norm(dim=(1, 2)))[:, None, None]
            return S

        def forward(self, x, positions, cache=None, mask=None):
            if cache is not None or self.cfg.positions == "rope":
                raise ValueError("the QK^T split needs un-rotated keys and no cache")
            B, L, C = x.shape
            W = self.qkv.weight  # (3C, C)
            q = (x @ W[:C].T).view(B, L, self.h, self.dh).transpose(1, 2)  # (B, H, L, dh)
            k = (x @ W[C:2 * C].T).view(B, L, self.h, self.dh).transpose(1, 2)
            logits = q @ k.transpose(-1, -2)  # (B, H, L, L) = Q K^T
            if mask is not None:
                raise ValueError("bidirectional attention only")
            scale = self.dh ** -0.5

            def retrieve(lg):  # retrieval in input space: softmax(lg) X, (B, H, L, C)
                p = torch.softmax(lg * scale, dim=-1).reshape(B, self.h * L, L)  # (B, H L, L)
                return (p @ x).view(B, self.h, L, C)  # = p @ x[:, None], same bits, no copy of x

            H1 = retrieve(logits)  # (B, H, L, C)
            c1, c2 = logit_coefficients(self.alpha, self.mutant)
            if c1 == 1.0 and c2 == 0.0:
                Hx = H1  # alpha = 1: the vanilla retrieval; blend(H1, H1, beta) is H1 bit for bit
            else:
                mixed = c1 * logits + c2 * logits.transpose(-1, -2)  # (B, H, L, L): c1 QK^T + c2 KQ^T
                Hx = blend(H1, retrieve(mixed), self.beta)  # (B, H, L, C)
            if self.log is not None and self.log_rows > 0:
                n = self.log_rows  # both couplings: the random_energy mutant reads the second
                self.log.append(hopfield_diagnostics(
                    Hx[:n], x[:n], [self.coupling(random=r) for r in (False, True)]))
            Wv = W[2 * C:].view(self.h, self.dh, C)  # (H, dh, C)
            y = torch.einsum("bhlc,hdc->bhld", Hx, Wv)  # (B, H, L, dh)
            return self.out(y.transpose(1, 2).reshape(B, L, C))

    return SymmetricSkewAttention


@dataclass
class SymmetricSkewSampler(FlowMatchingDiT):
    """Sampling with the skew (circulation) part of QK^T scaled by alpha, blended by beta."""

    name: ClassVar[str] = "qk_symmetric"
    alpha: float = 1.05  # paper's operating point (code README: "alpha=1.05, beta=3")
    beta: float = 3.0  # paper's operating point (code README; beta = 5 also used)
    mutant: str = ""  # "" = the paper's method; see MUTANTS
    sweep_alphas: tuple = (1.0, 1.05, 1.2, 1.4)  # research note's alpha >= 1 values (1.1 dropped: cost)
    diagnostics: bool = True  # log energy and r_X of the samples
    diag_every: int = 4  # ours: log every 4th sampling step (cost)
    guidance_sweep: tuple = ()  # ours: guidance scales of the vanilla frontier (Pareto check)

    def __post_init__(self) -> None:
        if self.mutant not in MUTANTS:
            raise ValueError(f"mutant={self.mutant!r}; valid: {MUTANTS}")
        self.sweep_alphas = tuple(float(a) for a in self.sweep_alphas)
        self.guidance_sweep = tuple(float(w) for w in self.guidance_sweep)

    def controlled(self, model, alpha: float):
        cls = split_attention_class()

        def factory(cfg, layer):
            m = cls(cfg, layer)
            m.alpha, m.beta, m.mutant = float(alpha), float(self.beta), self.mutant
            return m

        return copy_with_mixers(model, factory)

    def sample_with(self, model, alpha, labels, x0, null, diagnostics=False):
        """Samples (N, 64) at ``alpha`` and, with ``diagnostics``, per-sample energy and r_X
        (N,) each. Cached by what decides them: the logit coefficients (the mutants' only effect
        on sampling), beta unless alpha = 1 makes the blend the identity, and the diagnostics'
        schedule (both couplings are logged, so this method and random_energy share a draw)."""
        from claimbench.methods import qk_symmetric

        c1, c2 = logit_coefficients(alpha, self.mutant)
        identity = c1 == 1.0 and c2 == 0.0
        key = self.sample_key(model, labels, x0, null, attention="split", c1=c1, c2=c2,
                              beta=None if identity else float(self.beta),
                              diag_every=int(self.diag_every) if diagnostics else 0)
        out = self.cached_draw(key, lambda: self.draw(model, alpha, labels, x0, null, diagnostics),
                               sources=(qk_symmetric,))
        if not diagnostics:
            return out["samples"], None, None
        kind = "random" if self.mutant == "random_energy" else "learned"
        return out["samples"], out[f"energy_{kind}"], out[f"r_x_{kind}"]

    def draw(self, model, alpha, labels, x0, null, diagnostics=False) -> dict:
        """One uncached draw: samples, and with ``diagnostics`` energy and r_X under the learned
        and the random coupling (``energy_learned``, ``r_x_random``, ...)."""
        net = self.controlled(model, alpha)
        logs: list = []
        mixers = [b.mixer for b in net.blocks]

        def on_step(i):
            on = diagnostics and i % self.diag_every == 0
            for m in mixers:
                m.log, m.log_rows = (logs, len(labels)) if on else (None, 0)

        out = {"samples": self.sample(net, labels, x0, null, on_step=on_step)}
        for j, kind in enumerate(("learned", "random") if diagnostics else ()):
            energy = np.mean([pair[j][0].numpy() for pair in logs], axis=0)  # (N,)
            r_x = np.mean([pair[j][1].numpy() for pair in logs], axis=0)  # (N,)
            out[f"energy_{kind}"] = energy.astype(np.float64)
            out[f"r_x_{kind}"] = r_x.astype(np.float64)
        return out

    def run(self, data, seed):
        model, hist = self.trained_model(data, seed)
        labels, x0 = self.sample_inputs(data, seed)
        null = int(data["n_classes"])
        samples, energy, r_x = self.sample_with(model, self.alpha, labels, x0, null,
                                                self.diagnostics)
        out = {"samples": samples, "labels": labels, "energy": energy, "r_x": r_x,
               "train_loss": float(hist["loss"][-1])}
        sweep = {}
        for a in self.sweep_alphas:
            sweep[a] = samples if a == self.alpha else self.sample_with(model, a, labels, x0,
                                                                          null)[0]
        if sweep:
            out["sweep"] = {"alphas": list(sweep), "samples": list(sweep.values())}
        at_one = sweep.get(1.0, samples if self.alpha == 1.0 else None)
        if at_one is not None:
            vanilla = self.vanilla_samples(model, labels, x0, null)  # the toolkit's attention
            out["identity_dev"] = float(np.max(np.abs(at_one - vanilla)))
        if self.guidance_sweep:  # the other knob: vanilla attention, guidance scale w
            base = FlowMatchingDiT(**{f.name: getattr(self, f.name)
                                      for f in dataclasses.fields(FlowMatchingDiT)})
            out["guidance_sweep"] = {
                "guidances": list(self.guidance_sweep),
                "samples": [dataclasses.replace(base, guidance=w).vanilla_samples(
                    model, labels, x0, null) for w in self.guidance_sweep]}
        return out
