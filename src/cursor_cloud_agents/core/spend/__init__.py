"""A paid act, sent exactly once and within the user's limits: creations, follow-ups and their queue, the
rules that find an act whose answer was lost, the ledger, slots, limits and the questions asked first."""
