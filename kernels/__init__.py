"""Numba-jitted kernels only (deal sampling, legal moves, tricks, playouts, scoring, batch drivers).

Imports here are limited to numpy, numba and sibling kernel modules.
"""
