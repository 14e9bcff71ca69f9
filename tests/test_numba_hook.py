"""The compile hook (kalooki_sim/_numba.py): a kernel called with a constant compiles once."""

import numba
from numba.core import types

import kalooki_sim._numba as hook


def _pair(module):
    def callee(k):
        return k + 1

    callee.__module__ = module
    jcallee = numba.njit(cache=False)(callee)

    def caller(x):
        return jcallee(0) + jcallee(1) + jcallee(x)

    caller.__module__ = module
    return jcallee, numba.njit(cache=False)(caller)


def test_package_kernels_compile_once_for_constant_arguments():
    callee, caller = _pair("kalooki_sim.probe")
    assert caller(5) == 1 + 2 + 6
    assert [tuple(s) for s in callee.signatures] == [(types.int64,)]


def test_other_packages_keep_numba_literal_specialization():
    callee, caller = _pair("elsewhere.probe")
    assert caller(5) == 9
    sigs = [tuple(s) for s in callee.signatures]
    assert len(sigs) == 3
    assert any(isinstance(t, types.Literal) for s in sigs for t in s)


def test_install_is_idempotent():
    assert hook.install() is True
    get = numba.core.dispatcher.Dispatcher.get_call_template
    assert hook.install() is True
    assert numba.core.dispatcher.Dispatcher.get_call_template is get
    assert not hasattr(get.__wrapped__, "__wrapped__")
