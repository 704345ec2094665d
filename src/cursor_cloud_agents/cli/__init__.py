"""The command line: the console script's entry point (`launch`), the composition root (`main`), the command
table, `demo`, `doctor` and logging to stderr."""
