"""The guarded edges of the process: which hosts it connects to (`net`) and how it opens the files it keeps
(`regularfile`)."""
