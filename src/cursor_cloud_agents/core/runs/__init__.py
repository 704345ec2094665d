"""Runs in flight and ended: waiting on them, their streams followed, their activity and liveness, the fleet
scan, fleet events, which ended runs were seen, and how long a run took."""
