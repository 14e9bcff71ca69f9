"""Multiplicity and ranks: Holm's adjustment, sign claims over a family, bootstrap rank
intervals before any "most" or "least", and p-values recovered from 95% intervals.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from .._lib import (
    check_choice,
    check_int,
    check_real,
    check_seed,
    not_allowed,
)
from .._stats import holm_adjust
from ._intervals import Z95, _check_conf

# -- multiplicity and ranks ------------------------------------------------------------------


def holm(pvalues, nan_policy: str = "raise") -> np.ndarray:
    """Holm's step-down adjustment of a family of p-values (controls the familywise error).

    The ``i``-th smallest of ``m`` p-values is multiplied by ``m - i + 1``, made
    non-decreasing in that order and capped at 1; reject where the adjusted value is below the
    level.

    Parameters
    ----------
    pvalues : sequence of float
        The family's p-values, each in ``[0, 1]``.
    nan_policy : {"raise", "omit"}
        ``"raise"`` (default): a NaN p-value is an error. ``"omit"``: NaN p-values (comparisons
        that could not be tested) are left out of the family and stay NaN.

    Examples
    --------
    >>> holm([0.01, 0.04, 0.03, 0.005]).round(3).tolist()
    [0.03, 0.06, 0.06, 0.02]
    """
    nan_policy = check_choice("nan_policy", nan_policy, ("raise", "omit"))
    return _holm(_checked_pvalues(pvalues, nan_policy == "omit"))


def _checked_pvalues(pvalues, omit_nan: bool, name: str = "pvalues") -> np.ndarray:
    """``pvalues`` as a 1-D float array of values in [0, 1] (NaN too if ``omit_nan``)."""
    allowed = "p-values between 0 and 1" + ("" if omit_nan else " (nan_policy='omit' "
                                                                 "leaves NaN ones out)")
    try:
        p = np.asarray(pvalues, float)
    except (TypeError, ValueError):
        raise TypeError(not_allowed(name, pvalues, allowed)) from None
    if p.ndim != 1:
        raise ValueError(not_allowed(name, pvalues, "a flat sequence of " + allowed))
    bad = ~((p >= 0) & (p <= 1)) & ~(np.isnan(p) if omit_nan else False)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(f"{name}[{i}]={p[i]:g} is not allowed; give {allowed}")
    return p


def _holm(p: np.ndarray) -> np.ndarray:
    """:func:`holm` on a checked array; NaN entries are left out and stay NaN (the method's one
    home is :func:`kalooki_sim._stats.holm_adjust`)."""
    return holm_adjust(p)


def sign_claims(names, estimate, pvalues, alpha: float = 0.05) -> dict:
    """Which of a family of differences are below / above zero, Holm-adjusted.

    Returns ``{"lower": [...], "higher": [...], "unclear": [...]}``: a name is ``lower`` when
    its Holm-adjusted p-value is below ``alpha`` and its estimate is negative. ``names``,
    ``estimate`` and ``pvalues`` hold one entry per comparison; a NaN p-value (a comparison
    that could not be tested) is ``unclear`` and left out of the family.
    """
    alpha = check_real("alpha", alpha, 0, 1, open_lo=True, open_hi=True)
    names = list(names)
    est = np.asarray(estimate, float)
    p = _checked_pvalues(pvalues, omit_nan=True)
    if not (len(names) == est.size == p.size) or est.ndim != 1:
        raise ValueError(f"names, estimate and pvalues have {len(names)}, {est.size} and "
                         f"{p.size} entries; give one of each per comparison")
    adj = _holm(p)
    out = {"lower": [], "higher": [], "unclear": []}
    for name, e, q in zip(names, est, adj, strict=True):
        key = "unclear" if not (q < alpha) else ("lower" if e < 0 else "higher")
        out[key].append(name)
    return out


def bootstrap_means(samples: dict, n_boot: int = 1000, seed: int = 0) -> dict:
    """Bootstrap replicates of the mean of each sample (one value per deal), independently.

    ``samples`` maps a name to a 1-D array of per-deal values, a boolean one for hits (a
    proportion), or to a number (an exact value, repeated). Returns name -> ``n_boot``
    replicate means.

    A proportion (a boolean sample, ``k`` hits in ``n``) is drawn from Beta(k + 1/2,
    n - k + 1/2), its Jeffreys posterior: close to the binomial bootstrap where hits are many,
    but a share seen 0 (or ``n``) times still varies, as its Wilson interval does. The
    bootstrap never moves it, so :func:`rank_intervals` would rank it as if it were exact.
    Numbers are resampled (a sample of 0s and 1s by its binomial law, the same thing faster):
    a difference that is 0 in every deal is exactly 0.

    Examples
    --------
    >>> hits = np.zeros(250_000, bool)
    >>> d = bootstrap_means({"none": hits, "seven": np.r_[np.ones(7, bool), hits[7:]],
    ...                      "zero diff": np.zeros(100)}, n_boot=1000, seed=1)
    >>> bool(d["none"].min() > 0), bool(d["none"].max() < d["seven"].max())
    (True, True)
    >>> float(d["zero diff"].max())
    0.0
    """
    n_boot = check_int("n_boot", n_boot, 1)
    rng = np.random.default_rng(check_seed(seed))
    out = {}
    for name, x in samples.items():
        x = np.asarray(x)
        if x.ndim == 0:
            out[name] = np.full(n_boot, float(x))
            continue
        if x.dtype == bool and x.size:
            k = int(x.sum())
            out[name] = rng.beta(k + 0.5, x.size - k + 0.5, n_boot)
            continue
        x = x.astype(float)
        if x.size and set(np.unique(x)) <= {0.0, 1.0}:
            out[name] = rng.binomial(x.size, x.mean(), n_boot) / x.size
        else:
            out[name] = np.array([x[rng.integers(0, x.size, x.size)].mean()
                                  for _ in range(n_boot)])
    return out


def rank_intervals(estimates: dict, draws: dict, higher_first: bool = True,
                   conf: float = 0.95) -> pd.DataFrame:
    """Simultaneous confidence intervals for ranks, from bootstrap replicates.

    Each replicate ranks the items (1 = largest if ``higher_first``, else smallest); an item's
    rank interval holds the central ``1 - (1 - conf) / K`` of its replicate ranks (Bonferroni
    over the ``K`` items, so all intervals hold together). Say an item is "the most" only when
    it is the only one whose interval contains rank 1.

    Returns
    -------
    pandas.DataFrame
        ``item, estimate, rank, rank_lo, rank_hi``, sorted by ``rank``.

    Examples
    --------
    >>> hits = {"a": np.r_[np.ones(300), np.zeros(700)], "b": np.r_[np.ones(200), np.zeros(800)],
    ...         "c": np.r_[np.ones(195), np.zeros(805)]}   # 30%, 20%, 19.5% of 1,000 deals
    >>> draws = bootstrap_means(hits, n_boot=1000, seed=1)
    >>> r = rank_intervals({k: v.mean() for k, v in hits.items()}, draws)
    >>> r[["item", "rank_lo", "rank_hi"]].values.tolist()
    [['a', 1, 1], ['b', 2, 3], ['c', 2, 3]]
    """
    conf = _check_conf(conf)
    names = list(estimates)
    if not names:
        return pd.DataFrame(columns=["item", "estimate", "rank", "rank_lo", "rank_hi"])
    est = np.array([estimates[k] for k in names], float)
    B = np.column_stack([np.asarray(draws[k], float) for k in names])
    sgn = -1.0 if higher_first else 1.0
    ranks = stats.rankdata(sgn * B, axis=1, method="min")
    a = (1 - conf) / len(names) / 2
    lo = np.quantile(ranks, a, axis=0, method="lower").astype(int)
    hi = np.quantile(ranks, 1 - a, axis=0, method="higher").astype(int)
    point = stats.rankdata(sgn * est, method="min").astype(int)
    out = pd.DataFrame({"item": names, "estimate": est, "rank": point, "rank_lo": lo,
                        "rank_hi": hi})
    return out.sort_values(["rank", "item"], kind="stable").reset_index(drop=True)


def first_set(ranks: pd.DataFrame) -> list:
    """The items a :func:`rank_intervals` table cannot rule out of first place."""
    return ranks.loc[ranks["rank_lo"] == 1, "item"].tolist()


def draws_from_interval(est, lo, hi, n_boot: int = 1000, seed: int = 0) -> np.ndarray:
    """Normal draws matching a 95% interval: ``est + se * z`` with ``se = (hi - lo) / 3.92``.

    For :func:`rank_intervals` over estimates that come from independent runs when only their
    intervals are at hand (a parametric bootstrap). An exact value (``lo == hi``) is constant.
    """
    n_boot = check_int("n_boot", n_boot, 1)
    rng = np.random.default_rng(check_seed(seed))
    se = (float(hi) - float(lo)) / (2 * Z95)
    return float(est) + (se if np.isfinite(se) else 0.0) * rng.standard_normal(n_boot)


def p_from_ci(est, lo, hi, alternative: str = "two-sided", conf: float = 0.95):
    """Normal-approximation p-value of "the true value is 0", recovered from an estimate and
    its symmetric ``conf`` interval (``se = (hi - lo) / (2 z)``), for a family of estimates
    from different runs that only report intervals (then :func:`holm` over the family).

    ``alternative``: ``"two-sided"`` (the value is not 0), ``"less"`` (it is below 0) or
    ``"greater"``. An interval of zero width is an exact value: p is 0 when it lies on the
    alternative's side of 0, else 1; an estimate that is not finite gives 1. Arrays in,
    array out (a float for scalars).

    Examples
    --------
    >>> round(p_from_ci(2.0, 0.04, 3.96), 3)    # se = 3.92 / (2 * 1.96) = 1, so z = 2
    0.046
    >>> p_from_ci(-1.0, -3.0, 1.0, alternative="less") < 0.5, p_from_ci(0.0, 0.0, 0.0)
    (True, 1.0)
    """
    alternative = check_choice("alternative", alternative, ("two-sided", "less", "greater"))
    conf = check_real("conf", conf, 0, 1, open_lo=True, open_hi=True)
    est, lo, hi = np.broadcast_arrays(*(np.asarray(v, dtype=float) for v in (est, lo, hi)))
    z_conf = Z95 if conf == 0.95 else float(stats.norm.ppf(0.5 + conf / 2))
    width = hi - lo
    exact = ~np.isfinite(width) | (width <= 0)
    with np.errstate(invalid="ignore", divide="ignore"):
        z = est / (width / (2 * z_conf))
        if alternative == "two-sided":
            p = 2 * stats.norm.sf(np.abs(z))  # not 1 - cdf: it rounds p below 1e-16 to 0
            p_exact = np.where(est == 0, 1.0, 0.0)
        elif alternative == "less":
            p = stats.norm.cdf(z)
            p_exact = np.where(est < 0, 0.0, 1.0)
        else:
            p = stats.norm.sf(z)
            p_exact = np.where(est > 0, 0.0, 1.0)
    p = np.where(exact, p_exact, p)
    p = np.where(np.isfinite(est), p, 1.0)
    return float(p) if p.ndim == 0 else p

