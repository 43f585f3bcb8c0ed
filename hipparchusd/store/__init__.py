"""Where games live between moves: the store interface and its backends."""
