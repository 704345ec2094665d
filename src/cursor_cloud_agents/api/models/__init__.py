"""Wire models of the Cursor Cloud Agents API v1, one module per resource."""
