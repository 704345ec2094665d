"""The PR loop (docs/pr-loop.md): an agent's pull request watched until it merges, fixed when CI fails or a
trusted reviewer asks. Its names reach the faces through the core's front."""
