"""Several attempts at one task: the set created as one paid act, its group remembered, the attempts compared
and one kept."""
