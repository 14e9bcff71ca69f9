"""The review's sequential budget: paired rollouts in looks until a decision's
interval decides, shows the two actions equal, or the budget is spent.

A hand's decisions are played in rounds. Round ``k`` brings every decision still open to the
``k``-th look of :func:`schedule` (``block``, ``2 block``, ``4 block``, ... up to the cap),
in play order; each look is read by :func:`look`. A decision stops when its interval excludes
zero (``"decided"``), lies inside ``±equal`` (``"equal"``), when neither is in reach of the
cap (``"futile"``, :func:`futile`), at the cap (``"rollouts"``) or when the hand's budget
cannot pay a whole round (``"budget"``: the round is shortened so that every open decision
gets the same share of what is left, and that look is the last).

Coverage. With ``K`` looks planned (``len(schedule(block, cap))``), every look's interval is
a Student t interval at level ``1 - alpha / K`` (two-sided). By Bonferroni's inequality the
chance that *any* look's interval misses the true difference is at most ``alpha``, so the
interval at whatever look the rule stops is a 95% interval (for ``alpha = 0.05``): a
confidence sequence over the planned looks. A round shortened by the budget is still one of
the ``K`` looks, and which looks a decision gets depends on the other decisions' rollouts
only, which are independent of its own. Doubling the looks keeps ``K`` small (six for 500 to
16,000 rollouts: t quantiles about 2.64 instead of 1.96), so the price of looking is a
third wider intervals, not the doubling that 32 equal looks would cost. The p-value of the
last look times ``K`` (capped at 1) is the matching sequential p-value: below ``alpha``
exactly when the stopping interval excludes zero.

Rollout ``i`` of a decision draws only from its own counter-based streams (C3), so block
``k`` of a decision is the rollouts ``n_{k-1} .. n_k - 1`` whatever the other decisions did:
the same seed gives the same table, on any number of threads.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy import stats

from ._weighted import EQUAL, _ess_floor, _temper, _wse, per_sample

ALPHA = 0.05  # the chance that a decision's stopping interval misses (spent over its looks)
MIN_FIRST = 20  # rollouts every decision gets at its first look, even over a tiny budget
#: the review's ``width``: a decided decision whose size the next look would tell to ±4
#: points plays it (:func:`run_hand`)
SIZE_WIDTH = 8.0


def schedule(block: int, cap: int) -> list[int]:
    """Cumulative paired rollouts at each look: ``block``, then doubling, the last ``cap``.

    Examples
    --------
    >>> schedule(500, 16_000)
    [500, 1000, 2000, 4000, 8000, 16000]
    >>> schedule(500, 3_000), schedule(500, 200)
    ([500, 1000, 2000, 3000], [200])
    """
    if cap <= block:
        return [cap]
    out = [block]
    while 2 * out[-1] < cap:
        out.append(2 * out[-1])
    out.append(cap)
    return out


def look(d, logw, alpha: float) -> tuple[float, float, float, float, float, float]:
    """One look at the paired differences ``d`` (act minus pass) with log-weights ``logw``:
    ``(mean, lo, hi, p, ess, beta)``.

    The weights are the advisor's (tempered to power ``beta`` when they collapse below its
    floor, :func:`._weighted._temper`); the interval is two-sided at ``1 - alpha`` with
    Student t quantiles on ``ess - 1`` degrees of freedom (``n - 1`` and the sample standard
    deviation when the weights are equal, as :func:`kalooki_sim._stats.t_interval`), ``p`` the
    two-sided p-value of the same t statistic. NaN bounds and p when fewer than two
    (effective) rollouts; an exact value when every difference agrees.

    Examples
    --------
    >>> m, lo, hi, p, ess, beta = look([1.0, 2.0, 3.0], [0.0, 0.0, 0.0], 0.05)
    >>> m, round(hi - m, 3), round(p, 4), ess, beta      # t(2) 97.5% = 4.303
    (2.0, 2.484, 0.0742, 3.0, 1.0)
    """
    d = np.asarray(d, float)
    n = d.size
    w, beta, ess = _temper(logw, _ess_floor(n))
    if w is None:
        m = float(d.mean()) if n else np.nan
        se = float(d.std(ddof=1)) / np.sqrt(n) if n > 1 else np.nan
        df = n - 1.0
    else:
        m, se, df = _wse(d, w)
    if not np.isfinite(se):
        return m, np.nan, np.nan, np.nan, ess, beta
    if se == 0:
        return m, m, m, (1.0 if m == 0 else 0.0), ess, beta
    half = float(stats.t.ppf(1 - alpha / 2, df)) * se
    p = float(2 * stats.t.sf(abs(m / se), df))
    return m, float(m - half), float(m + half), p, ess, beta


def futile(mean: float, lo: float, hi: float, n: int, cap: int, equal: float = EQUAL) -> bool:
    """Whether the cap is out of reach of both answers: the interval's half-width projected
    to ``cap`` rollouts, ``h = (hi - lo) / 2 * sqrt(n / cap)`` (the effective sample grows as
    the rollouts do), would still hold zero unless the mean more than doubled (``|mean| <
    h / 2``) and would not fit inside ``±equal`` (``|mean| + h > equal``). Stopping there
    leaves the rollouts to the decisions that can still be settled; it stops a decision
    without a claim, so it costs no coverage. Read only from a quarter of the cap on: earlier
    the mean is too rough a guide, and would stop decisions that the cap could decide.

    Examples
    --------
    >>> futile(0.5, -3.5, 4.5, 4000, 16_000)     # h = 2: neither answer in reach
    True
    >>> futile(1.5, -2.5, 5.5, 4000, 16_000), futile(0.5, -7.5, 8.5, 1000, 16_000)
    (False, False)
    """
    if not (np.isfinite(lo) and np.isfinite(hi)) or 4 * n < cap or n >= cap:
        return False
    h = (hi - lo) / 2 * np.sqrt(n / cap)
    return bool(abs(mean) < h / 2 and abs(mean) + h > equal)


@dataclass
class Decision:
    """One decision's rollouts so far and its last look (:func:`run_hand`)."""

    n: int = 0
    looks: int = 0
    stopped_by: str = ""
    mean: float = np.nan
    lo: float = np.nan
    hi: float = np.nan
    p: float = np.nan
    d: list = field(default_factory=list)
    logw: list = field(default_factory=list)


def run_hand(sources, *, block: int, cap: int, budget: int | None, sequential: bool = True,
             equal: float = EQUAL, alpha: float = ALPHA, width: float | None = None,
             on_stop=None) -> tuple[list, int]:
    """Play one hand's decisions by the sequential rule (module docstring).

    ``sources[i](first, count)`` plays decision ``i``'s rollouts ``first .. first + count - 1``
    and returns their paired differences and log-weights; ``sources[i].reuse`` (1 when
    absent), the rollouts each sample of the hidden hands is played on, makes the sample the
    looks' unit (:func:`._weighted.per_sample`), and a round shortened by the budget keeps
    whole samples. ``sequential=False``: one look of ``cap`` rollouts each (the fixed-size
    review; the budget still applies). ``on_stop(i)`` is called as decision ``i`` stops.
    ``width``: a decided decision whose interval is wider than this plays the next look when
    that look would bring it within (the width shrinking as the square root of the
    rollouts): its sign known, its size nearly so (:data:`SIZE_WIDTH`, the review's); it
    stops ``"decided"`` all the same. None: at the first look that decides. Returns the
    :class:`Decision` of each source and ``K``, the looks planned; each ``p`` is the
    sequential p-value (``K`` times the last look's, capped at 1).
    """
    plan = schedule(block, cap) if sequential else [cap]
    K = len(plan)
    level = alpha / K
    reuse = [_reuse(s) for s in sources]
    unit = max(reuse, default=1)
    out = [Decision() for _ in sources]
    open_ = list(range(len(sources)))
    left = np.inf if budget is None else int(budget)
    for r, target in enumerate(plan):
        if not open_:
            break
        step = target - (plan[r - 1] if r else 0)
        last = r == K - 1
        if step * len(open_) > left:  # the budget cannot pay the round: share what is left
            step = int(left // len(open_)) // unit * unit
            if r == 0:
                step = max(step, min(target, MIN_FIRST))
            last = True
        if step < 1:
            for i in open_:
                out[i].stopped_by = "budget"
                if on_stop is not None:
                    on_stop(i)
            break
        for i in list(open_):
            s = out[i]
            d, lw = sources[i](s.n, step)
            s.d.append(np.asarray(d, float))
            s.logw.append(np.asarray(lw, float))
            s.n += step
            s.looks += 1
            left -= step
            s.mean, s.lo, s.hi, p, _, _ = look(*per_sample(np.concatenate(s.d),
                                                          np.concatenate(s.logw), reuse[i]),
                                              level)
            s.p = min(1.0, K * p) if np.isfinite(p) else np.nan
            if sequential and (s.lo > 0 or s.hi < 0):
                if not last and _sizing(s, width, plan[r + 1]):
                    continue  # its sign is known; one more look tells its size
                s.stopped_by = "decided"
            elif sequential and -equal <= s.lo and s.hi <= equal:
                s.stopped_by = "equal"
            elif sequential and not last and futile(s.mean, s.lo, s.hi, s.n, cap, equal):
                s.stopped_by = "futile"
            elif last:
                s.stopped_by = "rollouts" if s.n >= cap else "budget"
            else:
                continue
            open_.remove(i)
            if on_stop is not None:
                on_stop(i)
    return out, K


def _reuse(source) -> int:
    """The rollouts each sample of ``source`` is played on (its ``reuse``; 1 when absent)."""
    return max(1, int(getattr(source, "reuse", 1)))


def _sizing(s, width, following) -> bool:
    """Whether the decided decision ``s`` plays its next look (``following`` rollouts) for its
    size: wider than ``width`` now, within it at that look."""
    if width is None:
        return False
    w = s.hi - s.lo
    return bool(w > width and w * np.sqrt(s.n / following) <= width)


def fresh(source, first: int, count: int, alpha: float = ALPHA) -> tuple[float, float, float]:
    """``(mean, lo, hi)`` of ``count`` fresh rollouts of ``source`` (from ``first`` on, past
    every rollout the rule looked at), at ``1 - alpha``: an estimate that neither the stopping
    nor the choice of the decisions it is asked for has seen, so it is unbiased for them and
    sums to the hand's total without the bias that a stopped mean carries (a mean stopped as
    soon as its interval left zero overshoots the truth)."""
    d, lw = source(first, count)
    m, lo, hi, *_ = look(*per_sample(d, lw, _reuse(source)), alpha)
    return m, lo, hi
