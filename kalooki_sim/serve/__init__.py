"""``kalooki serve``: the advisor, the review and the call chart in a browser.

A local web app on Starlette and uvicorn: the **Advise** page (your cards, the card offered,
the table and its history -> :func:`~kalooki_sim.advise`'s sentence, table and a picture of
the two outcomes), the **Review** page (a game record, ``guide-record.html``, or a simulated
hand by seed -> :func:`~kalooki_sim.review`'s decisions, the hand's totals and its replay) and
the **Chart** page (the call chart, each cell's numbers, interval and rules). The pages call
the public Python API; its refusals are shown beside the field they name.

Examples
--------
>>> from kalooki_sim.serve import create_app
>>> app = create_app()
>>> sorted(r.path for r in app.routes)[:3]
['/', '/api/advise', '/api/chart']
"""

from __future__ import annotations

from .app import create_app


def serve(host: str = "127.0.0.1", port: int = 8052, open_browser: bool = False) -> None:
    """Run the app until interrupted (``kalooki serve``).

    Parameters
    ----------
    host : str
        The address to listen on; the default is this machine only.
    port : int
        The port (default 8052).
    open_browser : bool
        Open the Advise page in the default browser once listening.
    """
    import threading
    import webbrowser

    import uvicorn

    url = f"http://{host}:{port}/"
    print(f"kalooki serve: the advisor at {url} (Ctrl-C stops it)", flush=True)
    if open_browser:
        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    uvicorn.run(create_app(warm=True), host=host, port=port, log_level="warning")


__all__ = ["create_app", "serve"]
