"""The commands for the person at the terminal: `agents`, `watch`, `fleet`, `run`, `followup`, `cancel`,
`archive`, `usage` and `artifacts`.

They use the same typed client, the same creation journal, ledger and checks as the MCP server, and
render with rich. `cli.py` adds them with `add_commands` and runs one with `dispatch.run_command`,
imported only then: the bare server never loads rich or the commands.
"""

from cursor_cloud_agents.terminal.options import COMMANDS, add_commands

__all__ = ["COMMANDS", "add_commands"]
