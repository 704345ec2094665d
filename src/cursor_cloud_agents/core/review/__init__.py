"""An agent's change brought home: git as a subprocess, the change found and measured, the person's check
run on it, and its commits applied."""
