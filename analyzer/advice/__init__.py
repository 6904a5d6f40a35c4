"""The advice a player asks for before and after the bidding, each from simulated deals of the hand:
each contract's odds (``odds``), what to bid from a seat given the earlier bids (``bid``, weighing the
deals by those bids: ``auction``), whether to declare a poignée, which king to call and whether to
announce a chelem (``choices``), and which cards to put aside (``discard``)."""
