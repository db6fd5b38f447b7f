"""Checking claims against stored results: one statistic per verdict, foils, premises, one Holm
family. The modules, by what they do:

* :mod:`.evidence` selects rows by scope and aggregates them to the unit of replication;
* :mod:`.outcome`, :mod:`.ttests`, :mod:`.kinds`, :mod:`.fits` reduce a check to one statistic
  whose interval is the dual of its test (see the README's table of kinds);
  :mod:`.dispatch` picks the kind, and decides ``exact`` checks without statistics;
* :mod:`.foils` runs the check with each foil in the subject's place: only a foil refuted with
  values of its own is evidence of discrimination;
* :mod:`.premises` judges the positive controls a claim needs;
* :mod:`.family` puts it together: Holm over the paper's claims, then the rules (a refuted foil
  behind every ``reproduced``, ``premise_failed``, post hoc);
* :mod:`.design` says what a declaration can decide before anything runs;
* :mod:`.format` and :mod:`.compare` print.
"""
from .compare import compare, resolve_label
from .dispatch import is_loose, judge_check, subject_of, substitute
from .evidence import Evidence, _matches
from .family import evaluate_benchmark, post_hoc_claims
from .format import format_claims
from .outcome import ALPHA, NoEvidence, Outcome, Tested
from .result import VERDICTS, ClaimResult, FoilResult, PremiseResult, count_verdicts

__all__ = ["ALPHA", "VERDICTS", "ClaimResult", "Evidence", "FoilResult", "NoEvidence",
           "Outcome", "PremiseResult", "Tested", "compare", "count_verdicts",
           "evaluate_benchmark", "format_claims", "is_loose", "judge_check", "post_hoc_claims",
           "resolve_label", "subject_of", "substitute", "_matches"]
