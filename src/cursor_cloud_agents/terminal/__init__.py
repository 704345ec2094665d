"""The commands for the person at the terminal: `agents`, `watch`, `fleet`, `run`, `followup`, `wait`, `pr`...

They use the same typed client, the same creation journal, ledger and checks as the MCP server, and
render with rich. Each is declared beside its code (`declaration.py`; the light declarations in `commands/`):
`cli/commands.py` lists them, adds them to the parser and runs one with `dispatch.run_command`, imported only
then: the bare server never loads rich or the commands.
"""
