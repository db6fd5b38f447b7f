"""The contract between the harness and the content folders.

A benchmark module (``benchmarks/<slug>.py``) declares one :class:`Benchmark`:
the paper, its methods and baselines (:class:`Method` subclasses), its datasets
(:class:`Dataset` subclasses), its metrics (:class:`Metric`), its claims
(:class:`Claim` with one check from :mod:`claimbench.checks`) and three grids.

Rules every content module keeps (a contract test enforces the first):

* Top-level imports are the standard library, numpy and ``claimbench`` only.
  scipy, torch, POT, pandas ... are imported inside the functions that use
  them, so that ``claimbench list`` and start-up stay fast.
* Hyperparameters and dataset parameters are dataclass fields whose defaults
  are the paper's values, with a comment naming where they come from.
* ``Method.run`` never sees the truth: it gets ``Instance.data`` only.
"""
from __future__ import annotations

import dataclasses
import itertools
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, Mapping, Sequence

FIDELITIES = ("faithful", "scaled_down", "proxy")
# The relative tolerance benchmarks declare for clock readings (wall or CPU seconds, and what is
# derived from them) in ``Benchmark.nondeterministic``: ``claimbench verify`` accepts a re-run
# within a factor of two of the committed value. Clock readings move with the machine and its
# load; a claim judged on them is the fragile kind verify looks for.
TIMING_RTOL = 0.5
GRID_NAMES = ("smoke", "quick", "full")


@dataclass
class Instance:
    """One generated problem: what a method may see, and what only metrics see."""

    data: Any
    truth: Any = None


@dataclass
class Dataset:
    """A seeded data generator. Subclasses are dataclasses whose fields are the parameters."""

    name: ClassVar[str] = ""

    def make(self, seed: int) -> Instance:  # pragma: no cover - interface
        raise NotImplementedError


@dataclass
class Method:
    """An algorithm. Subclasses are dataclasses whose fields are hyperparameters.

    ``run(data, seed)`` returns a dict of outputs. The optional key ``"traces"``
    maps a trace name to ``{"x": [...], "y": [...]}`` (for example gap against
    time); the harness stores traces and plots them.
    """

    name: ClassVar[str] = ""

    def applies_to(self, dataset: Dataset) -> str | None:
        """Return a reason string when this method does not apply to ``dataset``."""
        return None

    def run(self, data: Any, seed: int) -> dict:  # pragma: no cover - interface
        raise NotImplementedError


@dataclass(frozen=True)
class Metric:
    """``fn(instance, outputs) -> float | None``; None means 'not defined for this cell'."""

    name: str
    fn: Callable[[Instance, dict], float | None]
    higher_is_better: bool = False
    description: str = ""


@dataclass(frozen=True)
class TraceMetric:
    """A trace computed on the metric side, where the truth is visible (regret against rounds,
    error against budget): ``fn(instance, outputs) -> {"x": [...], "y": [...]} | None``."""

    name: str
    fn: Callable[[Instance, dict], dict | None]
    xlabel: str = ""
    ylabel: str = ""


def output_metric(key: str, higher_is_better: bool = False, description: str = "") -> Metric:
    """A metric read straight from the method's outputs (e.g. a measured runtime)."""

    def read(instance: Instance, outputs: dict) -> float | None:
        value = outputs.get(key)
        return None if value is None else float(value)

    return Metric(key, read, higher_is_better, description or f"outputs['{key}']")


@dataclass(frozen=True)
class Config:
    """A class plus parameter overrides; ``label`` names it in tables and claims."""

    cls: type
    params: Mapping[str, Any] = field(default_factory=dict)
    label: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "params", dict(sorted(dict(self.params).items())))
        if not self.label:
            object.__setattr__(self, "label", default_label(self.cls, self.params))

    def __hash__(self) -> int:
        return hash((self.cls, self.label, repr(sorted(self.params.items()))))

    def build(self):
        return self.cls(**self.params)


def default_label(cls: type, params: Mapping[str, Any]) -> str:
    base = getattr(cls, "name", "") or cls.__name__
    if not params:
        return base
    inner = ",".join(f"{k}={v}" for k, v in sorted(params.items()))
    return f"{base}[{inner}]"


def cfg(cls: type, label: str = "", **params: Any) -> Config:
    return Config(cls, params, label)


def sweep(cls: type, **axes: Sequence[Any]) -> tuple[Config, ...]:
    """The product of parameter axes: ``sweep(Games, n=[10, 100], dist=["gauss"])``."""
    keys = list(axes)
    return tuple(Config(cls, dict(zip(keys, combo))) for combo in itertools.product(*axes.values()))


@dataclass(frozen=True)
class Grid:
    """Datasets x methods x seeds. ``methods=None`` means every method and baseline with defaults."""

    datasets: tuple[Config, ...]
    seeds: int = 3
    methods: tuple[Config, ...] | None = None
    note: str = ""


@dataclass(frozen=True)
class Paper:
    title: str
    arxiv: str = ""  # arXiv id, "" when the paper has none
    venue: str = "ICML 2026"
    url: str = ""
    version: str = ""  # which version of the text the claims come from, e.g. "arXiv v2"
    authors: str = ""


SOURCES = ("paper", "derived")
# How a claim can hold: by measurement ("empirical"), or by our own construction ("construction":
# a formula we wrote, a parameter we set, an identity the code enforces, a harness self-test),
# which is never counted as the paper's claim reproduced.
BASES = ("empirical", "construction")


@dataclass(frozen=True)
class Claim:
    """One checkable sentence of the paper (``source="paper"``) or one of our own checks
    (``source="derived"``: a derivation, a sanity check, a research note's proposal).

    ``foils`` are method labels of the grids (baselines, or declared mutants of the paper's
    method) that the claim's own wording says must *not* satisfy it. The same check runs with
    each foil in the subject's place; a foil that passes makes the claim
    ``not_discriminating``. ``subject`` is the label in the paper method's place (default: the
    check's ``method``, ``a`` or ``numerator``); ``claimbench claims --as NAME`` and the foils
    replace it.
    """

    id: str
    where: str  # place in the paper: "Table 2", "Fig. 3", "abstract", "Thm 4.1"
    text: str  # the paper's wording, short
    check: Any  # one of claimbench.checks
    paper_value: str = ""  # the paper's number or quoted statement; never our own values
    note: str = ""  # our instantiation / caveats
    source: str = ""  # "paper" or "derived"
    foils: tuple[str, ...] = ()  # method labels that must fail this claim
    foil_note: str = ""  # why these foils (for an exact identity: why only a mutant can fail it)
    subject: str = ""  # label in the paper method's place; "" = the check's default role
    # True when only a capable language model can make the claim hold: judged with a tiny:
    # model (the default) its verdict is not_run ("needs a capable model; run with --model")
    needs_capable_model: bool = False
    basis: str = "empirical"  # or "construction" (then source must be "derived"); see BASES
    # Grids on which the claim can be decided (() = every grid); on the others it is not_run
    # with the reason "decided on the <grid> grid only" (a design whose units cannot decide it).
    grids: tuple[str, ...] = ()


@dataclass(frozen=True)
class Premise:
    """A positive control: a check (any kind but NotRun) that the setting must pass before the
    claims it gates can be read: a baseline above chance, a baseline not saturated, the
    phenomenon the paper addresses present. Judged at the unadjusted level, without foils and
    outside the Holm family; a premise that is not shown (any verdict but reproduced) makes its
    claims ``premise_failed``. Locked with the claims."""

    id: str
    text: str  # what must hold, in words
    check: Any
    claims: tuple[str, ...] = ()  # ids of the claims it gates; () = every claim of the benchmark
    note: str = ""


@dataclass(frozen=True)
class Headline:
    """A checkable statement of the paper's abstract (``quote``: its words, verbatim) and the ids
    of the claims that check it (a not_run claim with its reason counts as mapped)."""

    quote: str
    claims: tuple[str, ...] = ()


@dataclass(frozen=True)
class Amendment:
    """A change to the declaration of a claim whose report was committed (claims are locked)."""

    date: str  # ISO date, "2026-12-03"
    claims: tuple[str, ...]  # ids of the claims it changes (added, removed or re-declared)
    what: str  # what changed
    why: str  # why
    results_seen: bool  # whether results of the changed claims had been seen before the change
    # A harness rule applied to every benchmark alike ("issue 26: Y-vs-Y foils removed"), not a
    # choice made for these claims: with it, results_seen does not make the claims post hoc.
    # Only what a rule mandates may carry it (sources by placement, foils that cannot fail
    # removed, exact kinds, quotes); a threshold, seed, grid or foil chosen anew may not.
    rule: str = ""


@dataclass(frozen=True)
class Benchmark:
    slug: str
    paper: Paper
    area: str
    fidelity: str
    methods: tuple[type, ...]  # the paper's own method(s)
    baselines: tuple[type, ...]
    datasets: tuple[type, ...]
    metrics: tuple[Metric, ...]
    primary_metric: str
    claims: tuple[Claim, ...]
    grids: Mapping[str, Grid]
    description: str = ""
    fidelity_note: str = ""  # why it is scaled_down / proxy
    traces: tuple[TraceMetric, ...] = ()  # metric-side traces, plotted like method traces
    # The unit of replication: () = one cell (dataset config, seed). Otherwise the dataset
    # parameters that, with the seed, identify one independent run (e.g. ("split",) when one
    # training run is evaluated on many test functions; ("seed",) when the seed alone is the run);
    # rows are averaged to that unit before
    # any test, so evaluation instances never count as replicates.
    unit: tuple[str, ...] = ()
    amendments: tuple[Amendment, ...] = ()  # changes to locked claims, oldest first
    premises: tuple[Premise, ...] = ()  # positive controls the claims they gate need
    # Metrics that do not reproduce bit for bit (wall or CPU time): name -> the relative
    # tolerance ``claimbench verify`` allows a re-run (every other metric must match exactly on
    # the same CPU model, within 1e-9 relative on another).
    nondeterministic: Mapping[str, float] = field(default_factory=dict)
    headlines: tuple[Headline, ...] = ()  # the abstract's checkable statements -> claim ids
    # Why the quick grid takes more than its share of the suite's CPU budget (claimbench.budget):
    # the claims that read the expensive cells and why a smaller scale would not do. Required
    # of a benchmark over its share (tests/test_budget.py); it does not key any cell.
    cost_note: str = ""

    def __post_init__(self) -> None:
        if self.fidelity not in FIDELITIES:
            raise ValueError(f"{self.slug}: fidelity {self.fidelity!r} not in {FIDELITIES}")
        missing = [g for g in GRID_NAMES if g not in self.grids]
        if missing:
            raise ValueError(f"{self.slug}: grids {missing} not declared")
        if self.primary_metric not in {m.name for m in self.metrics}:
            raise ValueError(f"{self.slug}: primary metric {self.primary_metric!r} not a metric")
        for c in self.claims:
            if c.source and c.source not in SOURCES:
                raise ValueError(f"{self.slug}: claim {c.id} source {c.source!r} not in {SOURCES}")
            if c.subject and c.subject in c.foils:
                raise ValueError(f"{self.slug}: claim {c.id} names its subject {c.subject!r} "
                                 f"as a foil")
            if c.basis not in BASES:
                raise ValueError(f"{self.slug}: claim {c.id} basis {c.basis!r} not in {BASES}")
            if c.basis == "construction" and c.source != "derived":
                raise ValueError(f"{self.slug}: claim {c.id} holds by construction, so its "
                                 f"source must be 'derived' (it is {c.source!r})")
            for g in c.grids:
                if g not in GRID_NAMES:
                    raise ValueError(f"{self.slug}: claim {c.id} grid {g!r} not in {GRID_NAMES}")
        ids = {c.id for c in self.claims}
        for p in self.premises:
            unknown = [cid for cid in p.claims if cid not in ids]
            if unknown or p.id in ids:
                raise ValueError(f"{self.slug}: premise {p.id} gates unknown claims {unknown} "
                                 f"or shares an id with a claim (claims: {sorted(ids)})")
        for h in self.headlines:
            unknown = [cid for cid in h.claims if cid not in ids]
            if unknown:
                raise ValueError(f"{self.slug}: headline {h.quote[:40]!r} maps to unknown "
                                 f"claims {unknown} (claims: {sorted(ids)})")

    # -- lookups -----------------------------------------------------------------
    def metric(self, name: str) -> Metric:
        for m in self.metrics:
            if m.name == name:
                return m
        raise KeyError(name)

    def method_configs(self, grid: Grid) -> tuple[Config, ...]:
        if grid.methods is not None:
            return grid.methods
        return tuple(Config(c) for c in (*self.methods, *self.baselines))


def fields_of(obj: Any) -> dict:
    """Dataclass fields as a plain dict (parameters for storage)."""
    return {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj)}
