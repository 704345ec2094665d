"""Typed answers of the tools: one module per domain, each view built from the wire models in one place;
`excerpts.py` folds run stream events into their views."""
