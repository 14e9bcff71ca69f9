"""One compile of each kernel, not one per constant argument.

Numba types a constant argument of a call between jitted functions as a literal
(``Literal[int](0)``) and compiles the callee again for every literal it meets, with everything
the callee links in: the event logger had 31 copies, the opening solver's step 9 and
``play_hand`` two. Our kernels gain nothing from that specialization, and on a new machine it
cost about a third of the engine's compile time (``play_hands`` with the expert compiled in
147 s instead of 210 s, the same rows). So calls between ``kalooki_sim`` kernels are typed
without literals; other packages' Numba functions are left as Numba makes them.

If a Numba release moves the hook, the kernels compile as before (only slower). The bottom layer:
it imports nothing of the package, and the package imports it first.
"""

from __future__ import annotations

from numba.core import dispatcher as _dispatcher
from numba.core import types as _types

_PACKAGE = __name__.split(".")[0]


def _ours(disp) -> bool:
    """True for a dispatcher of a kernel of this package."""
    return getattr(getattr(disp, "py_func", None), "__module__", "").split(".")[0] == _PACKAGE


def _without_literals(get_call_template):
    def get_call_template_plain(self, args, kws):
        if _ours(self):
            args = tuple(_types.unliteral(a) for a in args)
            kws = {k: _types.unliteral(v) for k, v in kws.items()}
        return get_call_template(self, args, kws)

    get_call_template_plain.__wrapped__ = get_call_template
    return get_call_template_plain


def install() -> bool:
    """Type calls between this package's kernels without literals; True if the hook is in place
    (idempotent).

    Examples
    --------
    >>> install()
    True
    """
    cls = getattr(_dispatcher, "Dispatcher", None)
    hook = getattr(cls, "get_call_template", None)
    if hook is None:
        return False
    if not hasattr(hook, "__wrapped__"):
        cls.get_call_template = _without_literals(hook)
    return True


install()
