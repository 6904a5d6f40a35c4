"""The simulation core: what every analysis that plays deals out shares.

* ``policies``: the one registry of card-play policies (their names, kernel ids, who they are for);
* ``analyzer.runs``: the settings of a run (``Settings``) and running to a precision in chunks;
* ``bridge``: deals and plays handed to the kernels (a hand fixed at a seat, one contract played out);
* ``features``: one named feature vector per played deal;
* ``trials``: k alternatives on common deals, with optional weights and an optional control run, and
  their estimates and paired differences.

The advice analyses (``analyzer.advice``) go through it; the kernels stay behind it.
"""
