"""Old path of :mod:`kalooki_sim.game.referee`, the same module object: kept because
earlier issues name it.
"""

import sys

from .game import referee as _module

sys.modules[__name__] = _module
