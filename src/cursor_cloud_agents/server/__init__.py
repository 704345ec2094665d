"""The MCP face: the stdio server's tools, views, answers, questions, tasks and wire, over `core`.

Never imports httpx2 or the simulator; the terminal never imports it (`tests/test_layering.py`).
"""
