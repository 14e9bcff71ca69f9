"""The one Student t interval of the package, and the one way to write a share as a
percentage, at the bottom layer (it imports nothing of the package), so the studies, the
tuning and the analysis share them."""

from __future__ import annotations

import numpy as np
from scipy import stats


def t_interval(x, conf: float = 0.95) -> tuple[float, float, float, int]:
    """Mean of ``x`` with its Student t interval: ``(mean, lo, hi, n)``.

    NaN bounds below two values (NaN mean for none); an exact value (``lo == hi == mean``)
    when every value agrees. ``conf`` is trusted here: public callers check it.

    Examples
    --------
    >>> m, lo, hi, n = t_interval([1.0, 2.0, 3.0])
    >>> float(m), round(float(hi - m), 3), n     # t(2) 97.5% = 4.303, se = 1 / sqrt(3)
    (2.0, 2.484, 3)
    >>> t_interval([5.0, 5.0])[:3], t_interval([])[3]
    ((5.0, 5.0, 5.0), 0)
    """
    x = np.asarray(x, dtype=float)
    n = x.size
    m = float(x.mean()) if n else np.nan
    if n < 2:
        return m, np.nan, np.nan, n
    half = float(stats.t.ppf(0.5 + conf / 2, n - 1) * x.std(ddof=1) / np.sqrt(n))
    return m, m - half, m + half, n


def share_text(p, digits: int = 0) -> str:
    """A share as a percentage: ``share_text(0.664) == '66%'``; small and large shares keep two
    significant digits, so two different shares never both read "0%"; "n/a" for none.

    Examples
    --------
    >>> share_text(0.664), share_text(0.0023), share_text(0.0), share_text(0.994)
    ('66%', '0.23%', '0%', '99.4%')
    """
    if p is None or not np.isfinite(p):
        return "n/a"
    v = 100 * float(p)
    if 0 < v < 1:
        return f"{v:.2g}%"
    if 99 < v < 100:
        return f"{v:.3g}%"
    return f"{v:.{digits}f}%"


def t_pvalue(x) -> float:
    """Two-sided p-value of Student's one-sample t test that the mean of ``x`` is zero (the
    test :func:`t_interval` inverts): NaN below two values; when every value agrees, 1 if it
    is zero, else 0.

    Examples
    --------
    >>> round(t_pvalue([1.0, 2.0, 3.0]), 4), t_pvalue([0.0, 0.0]), t_pvalue([2.0, 2.0])
    (0.0742, 1.0, 0.0)
    """
    x = np.asarray(x, dtype=float)
    if x.size < 2:
        return np.nan
    sd = float(x.std(ddof=1))
    m = float(x.mean())
    if sd == 0:
        return 1.0 if m == 0 else 0.0
    t = m / (sd / np.sqrt(x.size))
    return float(2 * stats.t.sf(abs(t), x.size - 1))


def holm_adjust(p) -> np.ndarray:
    """Holm's step-down adjustment of the p-values ``p`` (one family): the ``i``-th smallest
    of ``m`` times ``m - i + 1``, made non-decreasing in that order, capped at 1; NaN entries
    are left out and stay NaN. Unchecked (public callers check): the one home of the method,
    used by ``analysis.holm`` and the review.

    Examples
    --------
    >>> holm_adjust([0.01, 0.04, 0.03, 0.005]).round(3).tolist()
    [0.03, 0.06, 0.06, 0.02]
    """
    p = np.asarray(p, dtype=float)
    out = np.full(p.shape, np.nan)
    ok = np.flatnonzero(np.isfinite(p))
    m = ok.size
    if m == 0:
        return out
    order = ok[np.argsort(p[ok], kind="stable")]
    out[order] = np.minimum(1.0, np.maximum.accumulate(p[order] * (m - np.arange(m))))
    return out
