"""``python -m kalooki_sim.report``: execute the notebooks and write ``reports/``."""

from .publish import main

if __name__ == "__main__":
    raise SystemExit(main())
