"""Old path of :mod:`kalooki_sim.report.plots`, the same module object: kept because
the README names it.
"""

import sys

from .report import plots as _module

sys.modules[__name__] = _module
