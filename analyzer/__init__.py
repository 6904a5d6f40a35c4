"""tarot-analyzer's domain in plain Python: cards and notation, rules, scoring, the reference game
engine, and the analyses built on the Numba kernels."""

__version__ = "0.1.0"

_RECORD_API = ("Decision", "Record", "RecordError", "load_records")


def __getattr__(name: str):
    """The deal-record API (``analyzer.records``) as ``analyzer.load_records`` etc., imported on first use."""
    if name in _RECORD_API:
        from analyzer import records
        return getattr(records, name)
    raise AttributeError(f"module 'analyzer' has no attribute {name!r}")
