"""Old path of :mod:`kalooki_sim.players.tuning`, kept because the README names it (every name
is looked up there) and ``python -m kalooki_sim.tuning`` makes the committed table."""

from ._alias import forward

__getattr__, __dir__ = forward("kalooki_sim.players.tuning")

if __name__ == "__main__":
    from kalooki_sim.players.tuning import _main

    _main()
