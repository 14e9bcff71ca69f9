"""Old path of :mod:`kalooki_sim.studies.study`, the same module object: kept because
the README and issue 11 name it.
"""

import sys

from .studies import study as _module

sys.modules[__name__] = _module
