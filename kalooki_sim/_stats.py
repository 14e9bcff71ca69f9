"""The one Student t interval of the package, at the bottom layer (it imports nothing of the
package), so the studies, the tuning and the analysis share it."""

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
