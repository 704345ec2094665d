"""The server's domain layer: what the tools share (checks, scans, folds, typed views), one module each."""
