"""``kalooki serve``: the advisor, the review and the call chart in a browser; a
thin shell over :func:`kalooki_sim.serve.serve`."""

from __future__ import annotations

from ._cli_rules import UsageError


def add_serve(p) -> None:
    """The flags of ``kalooki serve``."""
    p.add_argument("--host", default="127.0.0.1",
                   help="the address to listen on (default: this machine only)")
    p.add_argument("--port", type=int, default=8052, help="the port (default 8052)")
    p.add_argument("--open", action="store_true", help="open the page in the default browser")


def cmd_serve(args) -> int:
    """``kalooki serve``."""
    if not 1 <= args.port <= 65535:
        raise UsageError(f"--port {args.port} is not allowed; give a port 1-65535")
    try:
        from .serve import serve
    except ImportError as e:
        raise UsageError(f"kalooki serve needs the 'serve' extra ({e.name} is missing): "
                         "pip install -e '.[serve]'") from None
    serve(host=args.host, port=args.port, open_browser=args.open)
    return 0
