"""The protocol plumbing of the MCP face: the stdio wire and its framing, nesting bounds, MCP Tasks,
questions to the person (elicitation) and the instructions sent at `initialize`.

No tool is named here: what a tool may do on the wire (become a task, ask) is declared beside the tool."""
