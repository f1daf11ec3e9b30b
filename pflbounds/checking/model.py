"""The data model of checks: kinds, verdicts, the ``Check`` record and its ``Outcome``."""

from pflbounds.checking.check import Check, Simulate, requiring
from pflbounds.checking.kinds import CheckKind, Verdict
from pflbounds.checking.outcome import Outcome

__all__ = ["Check", "CheckKind", "Outcome", "Simulate", "Verdict", "requiring"]
