"""The report: charts and HTML tables (``plots``), the builder that executes the notebooks
and writes ``reports/`` (``build``; ``python -m kalooki_sim.report``), and the notebook's
advisor form (``widgets``).

May import every layer below.
"""

from .publish import (
    COMMAND,
    NOTEBOOKS,
    PAGES,
    ROOT,
    TINY,
    TITLES,
    build,
    main,
    provenance,
    run_notebook,
)

__all__ = ["COMMAND", "NOTEBOOKS", "PAGES", "ROOT", "TINY", "TITLES", "build", "main",
           "provenance", "run_notebook"]
