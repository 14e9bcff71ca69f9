"""The package's version: a leaf that every layer may read (it imports nothing)."""

__version__ = "0.1.0"
