"""What a scripted player does at one offer: its take-or-call answer at a situation
typed as for :func:`~kalooki_sim.advise`, read straight from the compiled rule the engine
plays (no rollouts). It shows a chart player following its cell, and is how a player checks a
chart or a rule of thumb against a position.
"""

from __future__ import annotations

import numpy as np

from .._lib import not_allowed
from ..engine import kernels as _K
from ..engine.kernels import history as _H
from ..engine.play import defer_players, rules_vector, setup
from ..engine.policies import Policy, no_search
from .situation import _situation


def policy_answer(policy, hand, card, contract, *, players=4, discarder=2, stock_left=None,
                  calls_made=0, opened=(), table=(), seen=(), known=None, hand_sizes=None,
                  reshuffled=False, rules=None) -> str:
    """The answer of ``policy`` (a preset name or a :class:`~kalooki_sim.Policy`) to the card
    on offer: ``"take"`` or ``"draw"`` when you are next (``discarder=1``, R9.1), ``"call"``
    or ``"pass"`` otherwise (R9.2). The situation's arguments are :func:`~kalooki_sim.advise`'s
    (seat 0 is you; ``opened`` as seats to your right).

    A chart player (``"chart"``, ``"thumb"``, ``Policy(chart=...)``) answers with its cell's
    verdict where the cell decides, and with the expert's rules where it does not; a
    ``random`` policy's coin is the first draw of a fixed stream.

    Examples
    --------
    >>> policy_answer("expert", "K♠ K♥ Q♠ Q♥ Q♦ 6♠ 6♥ 6♦ 2♣", "K♦", 1, discarder=2)
    'call'
    >>> policy_answer("never-call", "K♠ K♥ Q♠ Q♥ Q♦ 6♠ 6♥ 6♦ 2♣", "K♦", 1, discarder=2)
    'pass'
    """
    if not isinstance(policy, (str, Policy)):
        raise TypeError(not_allowed("policy", policy, "a preset name or a Policy"))
    rules, pols, pol, _, _ = setup(defer_players(players, rules), policy, 0, rules, None)
    no_search(pols, "policy_answer")
    if rules.tuluki:
        raise ValueError("rules with tuluki=True are not allowed here: the answer is to a "
                         "Kalooki offer (R9); Tuluki's discard step (V9) is another choice")
    base, hand_no, _, _, _, _, info = _situation(
        hand, card, contract, players, discarder, stock_left, calls_made, opened, table, seen,
        rules, known=known, hand_sizes=hand_sizes, reshuffled=reshuffled)
    base.gs[_K.engine.GS_STOCK_N] = info["stock_left"]  # the count alone: the cards stay unseen
    disc = base.disc
    top = int(disc[base.gs[_K.engine.GS_DISC_N] - 1])
    take = info["discarder"] == 1
    rst = np.zeros(2, np.uint64)
    acts = _K.wants(rules_vector(rules, hand_no), pol, base, 0, top,
                     _H.H_TAKE if take else _H.H_CALL, rst)
    if take:
        return "take" if acts else "draw"
    return "call" if acts else "pass"
