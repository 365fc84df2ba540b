"""Agent strategies, registered by the name an agent gives in its ``strategy`` key (default ``single``).

A strategy decides, for attempt a of a sample, whether it is skipped or asked, which roles are called in
order, with which templates, and what each sees; which attempt stands for the sample; and what the oracle and
mutant backends answer for roles that write no code. See :mod:`simcodebench.agents.strategies.base`.
"""

from __future__ import annotations

from simcodebench.agents.strategies.base import Strategy
from simcodebench.agents.strategies.best_of_n import BestOfN
from simcodebench.agents.strategies.feabench_agent import FeabenchAgent
from simcodebench.agents.strategies.feedback import Feedback
from simcodebench.agents.strategies.re4 import Re4
from simcodebench.agents.strategies.reask import Reask
from simcodebench.agents.strategies.single import Single
from simcodebench.agents.strategies.smrf import Smrf

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
