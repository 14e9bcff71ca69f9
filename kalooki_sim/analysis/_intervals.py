"""Interval estimators: Wilson (and its cluster-robust form), Student t for a mean, Welch
for two, cluster-robust t by deal, distribution-free quantile intervals.

Proportions use the Wilson score interval, means the Student t interval. Every table has the
estimate and its ``lo`` / ``hi`` bounds, plus ``n`` (what the estimate averages over).
"""

from __future__ import annotations

import numpy as np
from scipy import stats

from .._lib import (
    check_real,
    not_allowed,
)
from .._stats import t_interval

Z95 = float(stats.norm.ppf(0.975))


# -- intervals -------------------------------------------------------------------------------


def wilson(k, n, z: float = Z95):
    """Wilson score interval for ``k`` successes in ``n`` trials: ``(p, lo, hi)`` arrays.

    ``k`` and ``n`` are counts: whole numbers (``3`` or ``3.0``), ``0 <= k <= n``; ``n = 0``
    (with ``k = 0``) gives NaN. (:func:`cluster_wilson` takes the interval at an effective,
    non-integer count through the same formula.)

    Raises
    ------
    ValueError
        If some ``k`` is outside ``0..n`` or a count is not a finite whole number, naming the
        first such pair.
    """
    k, n = _checked_counts(k, n, whole=True)
    return _wilson(k, n, check_real("z", z, 0, open_lo=True))


def _wilson(k, n, z):
    """:func:`wilson` on checked float arrays, also for effective (non-integer) counts."""
    with np.errstate(invalid="ignore", divide="ignore"):
        p = k / n
        den = 1 + z**2 / n
        mid = (p + z**2 / (2 * n)) / den
        half = z * np.sqrt(p * (1 - p) / n + z**2 / (4 * n**2)) / den
    # exact ends at k = 0 and k = n (the formula leaves rounding dust there)
    lo = np.where(k == 0, 0.0, np.clip(mid - half, 0.0, 1.0))
    hi = np.where(k == n, 1.0, np.clip(mid + half, 0.0, 1.0))
    if p.ndim == 0:
        return float(p), float(lo), float(hi)
    return p, lo, hi


def _checked_counts(k, n, whole=False):
    """``k``, ``n`` as float arrays with ``0 <= k <= n``, both finite (``whole``: integers)."""
    try:
        k = np.asarray(k, dtype=float)
        n = np.asarray(n, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(not_allowed("k, n", (k, n), "numbers or arrays of numbers")) from None
    kb, nb = np.broadcast_arrays(k, n)
    bad = ~(np.isfinite(kb) & np.isfinite(nb) & (kb >= 0) & (kb <= nb))
    if bad.any():
        i = np.flatnonzero(bad)[0]
        kk, nn = kb.flat[i].item(), nb.flat[i].item()
        raise ValueError(f"k={kk:g} with n={nn:g} is not allowed; give counts with 0 <= k <= n")
    if whole:
        frac = (kb != np.round(kb)) | (nb != np.round(nb))
        if frac.any():
            i = np.flatnonzero(frac)[0]
            kk, nn = kb.flat[i].item(), nb.flat[i].item()
            raise ValueError(f"k={kk:g} with n={nn:g} is not allowed; give whole counts "
                             "(successes and trials)")
    return k, n


def _check_conf(conf) -> float:
    return check_real("conf", conf, 0, 1, open_lo=True, open_hi=True)


def mean_ci(x, conf: float = 0.95):
    """Mean of ``x`` with a Student t interval: ``(mean, lo, hi, n)``; NaN bounds if n < 2."""
    return t_interval(x, _check_conf(conf))


def welch_diff(a, b, conf: float = 0.95):
    """Difference of two independent means with a Welch t interval: ``(diff, lo, hi)``."""
    conf = _check_conf(conf)
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    if a.size < 2 or b.size < 2:
        return a.mean() - b.mean() if a.size and b.size else np.nan, np.nan, np.nan
    va, vb = a.var(ddof=1) / a.size, b.var(ddof=1) / b.size
    se = np.sqrt(va + vb)
    d = a.mean() - b.mean()
    if se == 0:
        return d, d, d
    df = (va + vb) ** 2 / (va**2 / (a.size - 1) + vb**2 / (b.size - 1))
    half = stats.t.ppf(0.5 + conf / 2, df) * se
    return d, d - half, d + half


def _cluster_var(y, cluster):
    """``(mean, variance of the mean, clusters)``: the ratio estimator's cluster-robust variance.

    ``G / (G - 1) * sum_g (y_g - mean * n_g)**2 / n**2`` over ``G`` clusters with sums ``y_g``
    of ``n_g`` rows; with one row per cluster it is the usual ``s**2 / n``.
    """
    y = np.asarray(y, dtype=float)
    n = y.size
    if n == 0:
        return np.nan, np.nan, 0
    m = y.mean()
    _, inv = np.unique(np.asarray(cluster), return_inverse=True)
    g = int(inv.max()) + 1
    if g < 2:
        return m, np.nan, g
    ys = np.bincount(inv, weights=y)
    ns = np.bincount(inv)
    return m, g / (g - 1) * np.sum((ys - m * ns) ** 2) / n**2, g


def cluster_mean_ci(y, cluster, conf: float = 0.95):
    """Mean of ``y`` with a t interval that allows for correlation within clusters.

    The seats of one deal share a deck, a stock and each other's play, so their rows are not
    independent. Uses the cluster-robust variance of :func:`_cluster_var` and ``G - 1`` degrees
    of freedom; with one row per cluster it is the ordinary t interval.
    Returns ``(mean, lo, hi, n)``.
    """
    conf = _check_conf(conf)
    m, var, g = _cluster_var(y, cluster)
    n = int(np.asarray(y).size)
    if g < 2:
        return m, np.nan, np.nan, n
    half = stats.t.ppf(0.5 + conf / 2, g - 1) * np.sqrt(var)
    return m, m - half, m + half, n


def cluster_wilson(hits, cluster, z: float = Z95):
    """Wilson interval for a proportion over clustered rows, at the effective sample size.

    The design effect ``deff`` is the cluster-robust variance over the binomial one, floored
    at 1 (never narrower than plain Wilson); the Wilson interval is taken at ``n / deff``
    trials (Kish). Returns ``(p, lo, hi)``.
    """
    hits = np.asarray(hits, dtype=float)
    if hits.size == 0:
        return np.nan, np.nan, np.nan
    _, inv = np.unique(np.asarray(cluster), return_inverse=True)
    return wilson_of_sums(np.bincount(inv, weights=hits), np.bincount(inv), z)


def wilson_of_sums(hits, trials, z: float = Z95):
    """:func:`cluster_wilson` from each cluster's sums: ``hits[g]`` of ``trials[g]`` trials.

    For a share of events counted per cluster, such as the void deals among the deals each
    hand took (R13): ``p = sum(hits) / sum(trials)``, Wilson's interval at the effective
    number of trials (Kish's design effect from the ratio estimator's cluster-robust
    variance, floored at 1). Unlike a normal (Wald) interval its lower end is above 0 as soon
    as one event is seen, and below ``p``. Returns ``(p, lo, hi)``.

    Examples
    --------
    >>> p, lo, hi = wilson_of_sums([0, 1, 0, 0], [1000, 1001, 1000, 1000])
    >>> round(p * 1e4, 2), lo > 0, hi < 0.0015
    (2.5, True, True)
    >>> [round(x, 4) for x in wilson_of_sums([0, 0], [3, 4])]  # none seen: Wilson's
    [0.0, 0.0, 0.3543]
    """
    ys = np.asarray(hits, dtype=float)
    ns = np.asarray(trials, dtype=float)
    if ys.shape != ns.shape or ys.ndim != 1:
        raise ValueError(f"hits and trials have shapes {ys.shape} and {ns.shape}; give one "
                         "count of each per cluster")
    n = ns.sum()
    if n == 0:
        return np.nan, np.nan, np.nan
    p = ys.sum() / n
    g = ys.size
    var = g / (g - 1) * np.sum((ys - p * ns) ** 2) / n**2 if g > 1 else np.nan
    # the binomial variance of the mean with the same n - 1 as the cluster formula's singletons
    var_srs = p * (1 - p) / (n - 1) if n > 1 else np.nan
    deff = max(1.0, var / var_srs) if var_srs > 0 and np.isfinite(var) else 1.0
    n_eff = n / deff
    z = check_real("z", z, 0, open_lo=True)
    _, lo, hi = _wilson(*_checked_counts(p * n_eff, n_eff), z)
    return float(p), float(lo), float(hi)


def _prop_row(k, n):
    p, lo, hi = wilson(k, n)
    return {"p": float(p), "lo": float(lo), "hi": float(hi), "n": int(n)}


def _mean_row(x):
    m, lo, hi, n = mean_ci(x)
    return {"mean": float(m), "lo": float(lo), "hi": float(hi), "n": int(n)}


def quantile_ci(x, q, conf: float = 0.95):
    """Sample quantile ``q`` of ``x`` with a distribution-free interval from order statistics.

    The interval ``[x_(l), x_(u)]`` uses the binomial count of observations below the true
    quantile (as in Conover's *Practical Nonparametric Statistics*), so it needs no
    resampling. Returns ``(quantile, lo, hi)``.

    Examples
    --------
    >>> x = np.arange(1, 1001)
    >>> quantile_ci(x, 0.5)
    (500.0, 469.0, 532.0)
    """
    conf = _check_conf(conf)
    q = check_real("q", q, 0, 1)
    x = np.sort(np.asarray(x, float))
    n = x.size
    if n == 0:
        return np.nan, np.nan, np.nan
    est = float(np.quantile(x, q, method="inverted_cdf"))
    a = (1 - conf) / 2
    lo_k = int(stats.binom.ppf(a, n, q))  # order statistics, 1-based: x_(lo_k) .. x_(hi_k)
    hi_k = int(stats.binom.ppf(1 - a, n, q)) + 1
    lo = x[lo_k - 1] if lo_k >= 1 else -np.inf
    hi = x[hi_k - 1] if hi_k <= n else np.inf
    return est, float(lo), float(hi)


def _boot_pct(x, q=(2.5, 97.5)):
    lo, hi = np.nanpercentile(x, q)
    return float(lo), float(hi)
