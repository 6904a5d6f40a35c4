"""How good the play and the advice are: policies against each other in duplicate (``match``), the
default answers against deep search (``calibrate``), the heuristic's cards against the search's
(``compare_play``), the bid advice against the point-count methods (``bidcheck``)."""
