"""The delegation domain, shared by both faces (the MCP server and the person's commands).

What decides what happens to the user's agents and money, whatever asked: creation and follow-up rules,
the models check, limits and slots, the store of paid acts, scans, waiting, activity, images, cleaning
of untrusted text, failures and time. It imports neither `mcp` nor `server` nor `terminal`; a face hands
it what it needs of a call (`core.call.Call`).
"""
