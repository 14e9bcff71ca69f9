"""Old path of :mod:`kalooki_sim.players.tuning`, the same module object: kept because
the README names it, and ``python -m kalooki_sim.tuning`` makes the committed table.
"""

import sys

if __name__ == "__main__":
    from kalooki_sim.players.tuning import _main

    _main()
else:
    from .players import tuning as _module

    sys.modules[__name__] = _module
