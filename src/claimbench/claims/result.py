"""What judging a claim gives: the claim's verdict and why, each foil's and each premise's."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field

VERDICTS = ("reproduced", "not_reproduced", "inconclusive", "not_discriminating",
            "premise_failed", "vacuous", "not_run", "error")


@dataclass
class FoilResult:
    foil: str
    verdict: str
    ours: str
    p_value: float | None
    estimate: float | None = None
    ci: tuple[float, float] | None = None
    note: str = ""  # why the foil gives no evidence ("identical to X"); "" when it does
    twin: str = ""  # informational: the same values as another grid method (still evidence)

    @property
    def refuted(self) -> bool:
        """Shown to fail the claim (at the unadjusted level), with values of its own."""
        return self.verdict == "not_reproduced" and not self.note

    @property
    def passes(self) -> bool:
        return self.verdict == "reproduced" and not self.note


@dataclass
class PremiseResult:
    premise: str
    text: str
    kind: str
    verdict: str
    ours: str
    threshold: str
    detail: str = ""

    @property
    def met(self) -> bool:
        return self.verdict == "reproduced"


@dataclass
class ClaimResult:
    slug: str
    claim: str
    where: str
    text: str
    kind: str
    source: str
    paper_value: str
    verdict: str
    ours: str
    estimate: float | None
    ci: tuple[float, float] | None
    p_value: float | None
    p_holm: float | None
    alpha: float | None  # the Holm-effective level the claim was decided at
    n: int
    threshold: str
    subject: str
    foils: list[FoilResult] = field(default_factory=list)
    detail: str = ""
    seeds_needed: int | None = None
    note: str = ""
    foil_note: str = ""
    basis: str = "empirical"
    reason: str = ""  # why a claim is not_discriminating / premise_failed, in one line
    premises: list[PremiseResult] = field(default_factory=list)
    post_hoc: bool = False  # amended after its results were seen
    verdict_before: str = ""  # its verdict before that amendment, where the lock recorded it
    check_verdict: str = ""  # what the check alone gives, before foils, premises and looseness
    fragile: str = ""  # set when a re-run (claimbench verify) moved the verdict: what moved

    @property
    def control(self) -> str:
        """The foils in one line: 'etc_ot: not_reproduced, greedy_ot: reproduced (passes)'."""
        if not self.foils:
            return "no foils"
        parts = []
        for f in self.foils:
            s = f"{f.foil}: {f.verdict}"
            if f.note:
                s += f" ({f.note}: no evidence)"
            elif f.twin:
                s += f" ({f.twin.replace('identical to', 'same values as')})"
            elif f.verdict == "reproduced":
                s += " (passes)"
            elif f.refuted:
                s += " (refuted)"
            parts.append(s)
        return ", ".join(parts)

    @property
    def registered(self) -> bool:
        """Pre-registered: counted in the headline totals (not post hoc)."""
        return not self.post_hoc

    def to_dict(self) -> dict:
        d = asdict(self)
        d["control"] = self.control
        return d


def count_verdicts(results) -> dict[str, int]:
    """Verdict counts: every verdict, then pre-registered claims by source ('paper:reproduced',
    'derived:reproduced'), post hoc claims apart ('post_hoc:reproduced'), and checks that hold by
    construction ('construction:reproduced', also counted under 'derived:')."""
    counts: dict[str, int] = {}

    def add(key: str) -> None:
        counts[key] = counts.get(key, 0) + 1

    for r in results:
        add(r.verdict)
        add(f"post_hoc:{r.verdict}" if r.post_hoc else f"{r.source or 'unmarked'}:{r.verdict}")
        if r.basis == "construction":
            add(f"construction:{r.verdict}")
        if r.verdict == "not_discriminating":
            add(f"not_discriminating:{r.reason.split(':')[0].split(' (')[0] or 'unstated'}")
        if r.fragile:
            add("fragile")
    return counts
