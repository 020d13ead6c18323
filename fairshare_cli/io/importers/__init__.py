"""Readers of the real tools' dumps for ``fs import KIND`` (one module per kind)."""
