"""The simulation core: what every analysis that plays deals out shares.

* ``policies``: the one registry of card-play policies (their names, kernel ids, who they are for);
* ``analyzer.runs``: the settings of a run (``Settings``) and running to a precision in chunks.
"""
