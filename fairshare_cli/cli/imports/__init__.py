"""``fs import KIND``: one module per kind of real tool's dump.

Each module here defines ``command``, a :class:`click.Command` whose name is the kind
(``condor-config``, ``sacctmgr``, ...); ``fs import`` finds them by listing this package, so
a new kind is a new module and nothing else. Usage-history kinds (``history``,
``condor-history``, ``sacct``) live in :mod:`fairshare_cli.cli.import_cmd`.
"""
