"""The ``tarot-analyzer`` command line: thin Click commands over ``analyzer``."""
