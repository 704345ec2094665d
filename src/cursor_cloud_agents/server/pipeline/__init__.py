"""The tool pipeline of the MCP face: a tool's declaration and arguments, the call it is handed, the
guards on its parameters, its answer fitted under the cap and laid out in lines, declined questions,
heartbeats, hints, the schema cache and the server's state."""
