"""The terminal commands' declarations, one light module beside each module of code (`terminal/agents.py` is
declared by `terminal/commands/agents.py`): help, example, arguments, and how the parsed arguments bind the
coroutine, whose module loads only when the command runs. `cli/commands.py` lists them."""
