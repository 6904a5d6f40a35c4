"""tarot-analyzer's domain in plain Python: cards and notation, rules, scoring, the reference game
engine, and the analyses built on the Numba kernels."""

__version__ = "0.1.0"
