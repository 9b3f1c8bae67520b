"""The xp backends behind claims' evaluators (float64, mpmath, arb balls, SymPy), slacks and precision escalation."""
