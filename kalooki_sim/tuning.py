"""Old path of :mod:`kalooki_sim.players.tuning`: every name is looked up there, and importing
it warns; ``python -m kalooki_sim.tuning`` still makes the committed table."""

from ._alias import deprecated, forward

if __name__ != "__main__":  # python -m kalooki_sim.tuning still makes the table
    deprecated("kalooki_sim.tuning", "kalooki_sim.players.tuning")
__getattr__, __dir__ = forward("kalooki_sim.players.tuning")

if __name__ == "__main__":
    from kalooki_sim.players.tuning import main

    main()
