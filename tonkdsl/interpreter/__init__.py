"""The interpreter: hands dealt and played under a compiled ruleset (actions, the state of a hand,
the turn, spreads and hits, outcomes, sessions, a player's view). Reads the language; imports
nothing from the tools or the CLI. Speed tricks live here and nowhere else."""
