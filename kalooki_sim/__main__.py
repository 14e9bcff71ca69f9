"""``python -m kalooki_sim``: the ``kalooki`` command (see :mod:`kalooki_sim.cli`)."""

from .cli import main

raise SystemExit(main())
