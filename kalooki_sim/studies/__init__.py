"""Studies: many hands played for a question. ``study`` (``simulate``/``Run``: Parquet chunks,
resume, Dask) with its ``aggregates`` (exact integer sums that merge), ``runner`` (the chunked
runner of the long studies: manifest, chunks, executors, resume), ``tournament`` (duplicate
format), ``decisions`` (``call_decisions``: each take and call decision branched and played
both ways; ``trace_decision``) and ``advisor`` (``advise``: paired rollouts of one position).

May import ``game``, ``engine`` and ``players``; never ``analysis`` (interval estimates they
report use ``scipy.stats`` directly).
"""
