"""Adversarial audit of the daemon against PROTOCOL.md and RULINGS H13."""
