"""``python -m kalooki_sim.report``: execute the notebooks and write ``reports/``."""

from .build import main

if __name__ == "__main__":
    raise SystemExit(main())
