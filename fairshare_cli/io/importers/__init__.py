"""Parsers of real schedulers' dumps, one module per kind (used by ``fs import``)."""
