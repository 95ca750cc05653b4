"""Figure helpers, one module per method family."""
