"""Computer players. Each sees only its own seat's view and the legal actions."""
