"""Game rules, pure and synchronous: the generic interface and each game served."""
