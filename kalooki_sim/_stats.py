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
