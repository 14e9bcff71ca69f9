"""Numba kernels on numeric encodings; the public API wraps them (see the package docs)."""
