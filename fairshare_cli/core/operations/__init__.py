"""What a command changes, across state sections and schedulers: the library API.

Each call takes the config, the state and ``now`` (and what the command was given) and
returns the new state and what happened; nothing here reads a file or the clock.

- :mod:`~fairshare_cli.core.operations.negotiate`: one cycle run and committed (jobs,
  accountant ``AddMatch``/``RemoveMatch``, claims with their charged weight, DIRAC history).
- :mod:`~fairshare_cli.core.operations.queue`: ``submit``, ``set_priority``, ``release``, ``remove``
  (a removed running job releases its claim's weight and closes its DIRAC interval).
- :mod:`~fairshare_cli.core.operations.import_usage`: usage history into every model.
- :mod:`~fairshare_cli.core.operations.simulate`: cycles run forward over a workload.
"""
