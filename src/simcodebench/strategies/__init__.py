"""Agent strategies, registered by the name an agent gives in its ``strategy`` key (default ``single``).

A strategy decides, for attempt a of a sample, whether it is skipped or asked, which roles are called in
order, with which templates, and what each sees; which attempt stands for the sample; and what the oracle and
mutant backends answer for roles that write no code. See :mod:`simcodebench.strategies.base`.
"""

from __future__ import annotations

from .base import Strategy
from .best_of_n import BestOfN
from .feabench_agent import FeabenchAgent
from .feedback import Feedback
from .re4 import Re4
from .reask import Reask
from .single import Single
from .smrf import Smrf

DEFAULT = "single"
STRATEGIES: dict[str, Strategy] = {
    s.name: s for s in (Single(), Feedback(), Re4(), Smrf(), BestOfN(), Reask(), FeabenchAgent())
}


def get_strategy(name: str) -> Strategy:
    """The strategy registered under ``name``."""
    try:
        return STRATEGIES[name]
    except KeyError:
        raise KeyError(f"no strategy named '{name}'; known: {sorted(STRATEGIES)}") from None
