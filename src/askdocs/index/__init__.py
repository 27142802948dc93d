"""Collections, the vector stores behind them, the lexical side and the index builder."""
