"""`cursor-cloud-agents verify`: the contract facts the client relies on, checked against the API with the user's key.

Each fact answers one line, `OK`, `DIFFERS` (what we expected, what came back), `SKIPPED` (why) or
`NEW` (a field or status the contract does not know: drift worth reporting, not a failure).
Read-only by default; `--spend` creates one small agent and walks its lifecycle. Every line goes
through the redactor, and identities (e-mail, names, prompts, repository URLs) are masked unless
asked, so the report is safe to paste in an issue. The API layer (and the model check's parameter names): no MCP here.
"""
