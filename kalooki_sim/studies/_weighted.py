"""The advisor's estimates from paired rollouts: means, shares and p-values, plain or
self-normalised-weighted (a sample weighted by the history), the weights' tempering when they
collapse, and the sequential rule of ``decide=True``."""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from .._stats import t_interval, t_pvalue
from ..engine.kernels import branch as _B

RC = _B.ROLL_COLS  # per branch of a rollout: penalty, out, doubled, void, relative
SEQ_ALPHA = 0.05  # decide=True: the chance of a false "clearly", spent over the looks
ESS_FLOOR = 0.1  # the history's weights are tempered below this share of rollouts
ESS_MIN = 30  # ... and below this many (a quarter of the rollouts when fewer than 120)
EQUAL = 2.0  # points: inside +-EQUAL two options are "equal" (the call chart's "either" band)


def _ess_floor(n):
    """The effective sample size below which the weights count as collapsed:
    ``max(min(30, n / 4), n / 10)``."""
    return max(min(ESS_MIN, n / 4), ESS_FLOOR * n)


def per_sample(res, logw, reuse: int):
    """Rollouts to samples of the hidden hands: rollout ``i`` plays sample ``i // reuse``
    (:data:`~kalooki_sim.engine.kernels.history.History`), so the unit of every interval is
    the sample, not the rollout. Returns ``(res, logw)`` per sample: the mean of its rollouts'
    rows (the last sample may have fewer) and its rollouts' log-weight (one per sample) plus
    the log of their number. ``reuse`` 1: the arrays as they are.

    Examples
    --------
    >>> import numpy as np
    >>> r, lw = per_sample(np.arange(10.0).reshape(5, 2), np.zeros(5), 2)
    >>> r.tolist(), np.exp(lw).tolist()
    ([[1.0, 2.0], [5.0, 6.0], [8.0, 9.0]], [2.0, 2.0, 1.0])
    """
    if reuse <= 1:
        return res, logw
    res, logw = np.asarray(res, float), np.asarray(logw, float)
    n = len(res)
    starts = np.arange(0, n, reuse)
    size = np.minimum(reuse, n - starts).astype(float)
    sums = np.add.reduceat(res, starts, axis=0) if n else res[:0]
    shape = (-1,) + (1,) * (res.ndim - 1)
    return sums / size.reshape(shape), logw[starts] + np.log(size)


def _t3(x, w=None, conf=0.95):
    """Mean of the rollouts ``x`` with its Student t interval at level ``conf`` (NaN bounds
    below two); with normalised weights ``w``, the self-normalised weighted mean, its
    delta-method standard error ``sqrt(sum w^2 (x - m)^2)`` and t quantiles on ``ess - 1``
    degrees of freedom."""
    if w is None:
        return t_interval(x, conf)[:3]
    m, se, df = _wse(x, w)
    if not np.isfinite(se):
        return m, np.nan, np.nan
    half = float(stats.t.ppf(1 - (1 - conf) / 2, df)) * se
    return m, m - half, m + half


def _wvar(x, w) -> float:
    """The variance of the weighted mean of ``x`` under normalised weights ``w``, ``sum w^2
    (x - m)^2`` (the delta method's; the square of :func:`_wse`'s standard error)."""
    x = np.asarray(x, float)
    return float(np.dot(w * w, (x - np.dot(w, x)) ** 2))


def _wse(x, w):
    """``(mean, standard error, degrees of freedom)`` of ``x`` under normalised weights ``w``
    (self-normalised importance sampling; ``ess - 1`` degrees of freedom)."""
    x = np.asarray(x, float)
    m = float(np.dot(w, x))
    ess = 1.0 / float(np.dot(w, w))
    if x.size < 2 or ess < 1.5:
        return m, np.nan, np.nan
    return m, float(np.sqrt(_wvar(x, w))), ess - 1.0


def variance_ratio(a, b, w=None) -> float:
    """What the pairing buys in one answer: the variance of the mean difference of two
    unpaired sets of these rollouts over that of the paired one, ``(se(a)^2 + se(b)^2) /
    se(a - b)^2`` (weighted as :func:`_wse` with normalised weights ``w``); ``inf`` when the
    paired difference does not vary and the arms do, NaN when nothing varies or there are
    fewer than two rollouts. The pairing alone: no luck is adjusted.

    Examples
    --------
    >>> import numpy as np
    >>> a = np.array([10.0, 20.0, 30.0, 40.0])
    >>> variance_ratio(a, a - 1.0), variance_ratio(a, a[::-1])  # anti-paired: it costs
    (inf, 0.5)
    >>> variance_ratio(a, a + [1.0, -1.0, 1.0, -1.0])  # (31.25 + 29) / 0.25
    241.0
    """
    a, b = np.asarray(a, float), np.asarray(b, float)
    if a.size < 2:
        return float("nan")
    ww = np.full(a.size, 1.0 / a.size) if w is None else np.asarray(w, float)
    top, bottom = _wvar(a, ww) + _wvar(b, ww), _wvar(a - b, ww)
    if bottom == 0:
        return float("inf") if top > 0 else float("nan")
    return top / bottom


def _wilson(k, n: int, w=None):
    """Share ``k / n`` with its 95% Wilson score interval (``scipy.stats.binomtest``); with
    weights ``w`` (``k`` then the 0/1 outcomes), the weighted share with the Wilson interval at
    the effective sample size."""
    if w is None:
        ci = stats.binomtest(k, n).proportion_ci(0.95, method="wilson")
        return k / n, float(ci.low), float(ci.high)
    p = float(np.dot(w, k))
    ne = 1.0 / float(np.dot(w, w))
    z = float(stats.norm.ppf(0.975))
    c = (p + z * z / (2 * ne)) / (1 + z * z / ne)
    h = z / (1 + z * z / ne) * np.sqrt(p * (1 - p) / ne + z * z / (4 * ne * ne))
    return p, float(max(0.0, c - h)), float(min(1.0, c + h))


def _pvalue(d, w=None):
    """Two-sided p-value of the paired difference ``d`` (weighted: the t statistic of the
    weighted mean on ``ess - 1`` degrees of freedom)."""
    if w is None:
        return t_pvalue(d)
    m, se, df = _wse(d, w)
    if not np.isfinite(se):
        return np.nan
    if se == 0:
        return 1.0 if m == 0 else 0.0
    return float(2 * stats.t.sf(abs(m / se), df))


def _summary(res, act_name, pass_name, w=None, shares_of_means=False):
    """The per-action table and the paired differences of rollout results ``res`` (columns
    :data:`RC` per branch, acting first), weighted by the normalised ``w`` when given;
    ``shares_of_means``: the 0/1 columns hold each sample's mean (:func:`per_sample`), read
    as weighted outcomes at the samples' count."""
    rows = []
    ws = w if w is not None or not shares_of_means else np.full(len(res), 1 / len(res))
    for name, o in ((act_name, 0), (pass_name, RC)):
        row = {"action": name}
        for j, col in ((0, "penalty"), (4, "relative")):
            m, lo, hi = _t3(res[:, o + j], w)
            row.update({col: m, f"{col}_lo": lo, f"{col}_hi": hi})
        for j, col in ((1, "out"), (2, "doubled"), (3, "void")):
            k = int(res[:, o + j].sum()) if ws is None else res[:, o + j]
            p, plo, phi = _wilson(k, len(res), ws)
            row.update({col: p, f"{col}_lo": plo, f"{col}_hi": phi})
        row["rollouts"] = len(res)
        rows.append(row)
    diff = {}
    for j, col in ((0, "penalty"), (4, "relative"), (1, "out")):
        d = res[:, j] - res[:, RC + j]
        m, lo, hi = _t3(d, w)
        diff.update({col: float(m), f"{col}_lo": float(lo), f"{col}_hi": float(hi),
                     f"{col}_p": _pvalue(d, w)})
    return pd.DataFrame(rows), diff


def confidence(d, w=None):
    """How sure the paired differences ``d`` (act minus pass, lower is better) say which choice
    is better: ``("clearly", sign)`` when the 95% Student t interval excludes zero,
    ``("probably", sign)`` when only the one-sided 80% bound on the side of the mean does,
    else ``("unsure", 0)``; ``sign`` is -1 when acting is better, +1 when passing is. With
    normalised weights ``w``: the weighted mean and its standard error (:func:`_t3`).

    Examples
    --------
    >>> confidence([-3.0, -2.0, -4.0, -3.5])
    ('clearly', -1)
    >>> confidence([1.0, -1.0, 2.0, -2.0])
    ('unsure', 0)
    """
    d = np.asarray(d, float)
    m, lo, hi = _t3(d, w)
    if d.size < 2 or not np.isfinite(m) or not np.isfinite(lo):
        return "unsure", 0
    if hi < 0 or lo > 0:
        return "clearly", -1 if m < 0 else 1
    if w is None:
        se, df = float(d.std(ddof=1)) / np.sqrt(d.size), d.size - 1
    else:
        _, se, df = _wse(d, w)
    bound = stats.t.ppf(0.80, df) * se  # one-sided 80%
    if m + bound < 0:
        return "probably", -1
    if m - bound > 0:
        return "probably", 1
    return "unsure", 0


def _temper(logw, n_min):
    """Normalised weights from log-weights, and the power ``beta`` (<= 1) they were raised to:
    1 when the effective sample size is at least ``n_min``, else the largest power that keeps
    it there (bisection; 0 gives equal weights). ``None`` weights when they are all equal."""
    lw = np.asarray(logw, float)
    if lw.size == 0 or np.ptp(lw) == 0:
        return None, 1.0, float(lw.size)

    def norm(beta):
        x = beta * (lw - lw.max())
        w = np.exp(x)
        return w / w.sum()

    def ess(beta):
        w = norm(beta)
        return 1.0 / float(np.dot(w, w))

    if ess(1.0) >= n_min:
        return norm(1.0), 1.0, ess(1.0)
    lo, hi = 0.0, 1.0
    for _ in range(40):
        mid = (lo + hi) / 2
        if ess(mid) >= n_min:
            lo = mid
        else:
            hi = mid
    return norm(lo), lo, ess(lo)


def _decided(d, logw, looks, alpha=SEQ_ALPHA):
    """The sequential rule of ``decide=True`` at one look: the paired differences ``d`` so far
    (weighted by ``logw``, tempered as the advice is) are significant at ``alpha / looks``,
    two-sided. Over at most ``looks`` looks the chance of deciding when the mean difference is
    zero is at most ``alpha`` (Bonferroni's inequality)."""
    w, _, _ = _temper(logw, _ess_floor(len(d)))
    p = _pvalue(d, w)
    return bool(np.isfinite(p) and p < alpha / looks)


def _equal(d, logw, looks, alpha=SEQ_ALPHA, band=EQUAL):
    """The sequential rule's other stop (:func:`_decided`'s twin): the paired differences ``d``
    (weighted by ``logw``, tempered as the advice is) have a two-sided interval at level
    ``1 - alpha / looks`` inside ``±band`` points, so the options are equal for a player (a
    confidence sequence over at most ``looks`` looks, Bonferroni).

    Examples
    --------
    >>> import numpy as np
    >>> d, logw = np.resize([-1.0, 1.0], 400), np.zeros(400)
    >>> _equal(d, logw, 8), _equal(d * 40, logw, 8)
    (True, False)
    """
    d = np.asarray(d, float)
    w, _, _ = _temper(logw, _ess_floor(len(d)))
    if w is None:  # equal weights, read as such (the weighted standard error)
        w = np.full(d.size, 1.0 / max(d.size, 1))
    _, lo, hi = _t3(d, w, conf=1 - alpha / looks)
    return bool(np.isfinite(lo) and -band <= lo and hi <= band)
