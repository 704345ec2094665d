"""The server's domain layer: what the tools share (checks, scans, folds, waits), one module each, no MCP types."""
