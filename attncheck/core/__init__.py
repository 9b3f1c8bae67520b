"""What a claim is: the Claim model and kinds, spaces, profiles and budgets, certification declarations,
paper records, readings and the typed results record. Imports nothing above it."""
