"""`python -m cursor_cloud_agents`: the same entry point as the console script."""

from cursor_cloud_agents.cli.launch import main

if __name__ == "__main__":
    raise SystemExit(main())
