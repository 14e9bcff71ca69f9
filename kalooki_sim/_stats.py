"""The one Student t interval of the package, the one way to write a share as a percentage,
and numbers with the decimals their interval supports, at the bottom layer (it imports nothing
of the package), so the studies, the tuning, the analysis and the report's words share them."""

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


# -- numbers in words ------------------------------------------------------------------------


def decimals(lo, hi, most: int = 6) -> int | None:
    """Decimals that show an interval ``[lo, hi]`` and no more: those of the first significant
    digit of its half-width, or of the second when the first is a 1 (``0.12`` is not ``0.1``;
    the Particle Data Group's rule); negative: round to tens, hundreds...; ``None`` for an
    empty or unknown width.

    Examples
    --------
    >>> decimals(13.79, 14.03), decimals(-0.0028, 0.0044), decimals(5076, 12658), decimals(1, 1)
    (2, 3, -3, None)
    >>> decimals(12.1, 12.5), decimals(-0.73, 1.78)
    (1, 1)
    """
    if lo is None or hi is None or not (np.isfinite(lo) and np.isfinite(hi)) or hi <= lo:
        return None
    half = (hi - lo) / 2
    first = -int(np.floor(np.log10(half)))
    lead = int(round(half * 10.0**first, 6))  # the first significant digit
    return int(min(most, first + (lead == 1)))


def fixed(v: float, d: int, signed: bool = False) -> str:
    """``v`` with ``d`` decimals (``d < 0``: rounded to ``10**-d``), thousands separated, a
    true minus sign."""
    v = round(float(v), d) + 0.0  # no "-0"
    text = f"{v:{'+' if signed else ''},.{max(d, 0)}f}"
    return text.replace("-", "−")


def bound(v: float, d: int, signed: bool = False, limit: float = 0.0) -> str:
    """An interval's end with :func:`fixed`'s ``d`` decimals, or more where those would print
    it as ``limit`` (0; 100 for a percentage's upper end) that it is not: a lower end of a
    share seen at least once is above 0, and a bound just across zero keeps its side.

    Examples
    --------
    >>> bound(0.0044, 2), bound(-0.004, 0, signed=True), bound(99.996, 2, limit=100.0)
    ('0.004', '−0.004', '99.996')
    >>> bound(0.0, 2), bound(24.8, -1), bound(100.0, 1, limit=100.0)
    ('0.00', '20', '100.0')
    """
    v = float(v)
    if np.isfinite(v) and v != limit:
        while round(v, d) == limit and d < 12:
            d += 1
    return fixed(v, d, signed)


def ci_text(m, lo, hi, signed: bool = False, unit: str = "") -> str:
    """``m [lo, hi]`` with the decimals the interval supports (:func:`decimals`); an
    interval of no width is the number alone (``"0"`` for zero).

    >>> ci_text(0.0008, -0.0028, 0.0044, signed=True), ci_text(0.0, 0.0, 0.0, signed=True)
    ('+0.001 [−0.003, +0.004]', '0')
    >>> ci_text(0.52, -0.73, 1.78, signed=True, unit=" points")
    '+0.5 points [−0.7, +1.8]'
    """
    if lo == hi == m:
        return ("0" if m == 0 else fixed(m, 4, signed)) + unit
    d = decimals(lo, hi)
    d = 4 if d is None else d
    return f"{fixed(m, d, signed)}{unit} [{bound(lo, d, signed)}, {bound(hi, d, signed)}]"
