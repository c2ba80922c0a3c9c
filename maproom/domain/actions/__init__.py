"""The command path: every change to a map is a batch of actions (docs/actions.md).

    models.py     the action types (Pydantic), importable without the server: the Python
                  client types its batches with them
    commands.py   dispatch, execute and run: a batch parsed, planned, applied and recorded
    plan.py, apply.py, effects.py    what `commands` is made of

This package's own module holds nothing, so that importing `models` loads no database,
storage or geo code.
"""
