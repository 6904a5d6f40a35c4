"""One named feature vector per played deal: what a run keeps of each deal (its running moments,
``analyzer.stats.Moments``), by name rather than by column offset.

``CONTRACT``: a contract played by the hand's holder (``odds``, the taker's choices); ``OPTION``: a bid
option, whoever ends up taking (``bid``).  Each names the features that are a searched figure's control
variates: the heuristic's play of the same deal, its same figure and those ``controls`` (the score, made or
won, and the points beyond those needed, as they are and capped at +-CLOSE_POINTS, where the deal's outcome
hangs on a trick or two): together they leave less of a searched figure's variance than the figure alone
(docs/design.md, "The heuristic's play as a control variate"; docs/journal/calibration.md, "Several
controls, and runs cut to the deals still needed").
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from analyzer.rules import TARGET_HALF_POINTS
from kernels import auction as KA
from kernels import playout as K

CHELEM_OUTCOMES = (1, 2, 5)  # ``kernels.playout.R_CHELEM``'s outcomes where the taker's side took every trick
CLOSE_POINTS = 15


@dataclass(frozen=True)
class Features:
    """The features kept per deal, in column order, and those that are control variates of a searched figure."""
    names: tuple[str, ...]
    controls: tuple[str, ...]

    def __len__(self) -> int:
        return len(self.names)

    def index(self, name: str) -> int:
        return self.names.index(name)

    def control_features(self, feature: str) -> tuple[str, ...]:
        """The heuristic's features that are control variates of a searched ``feature``: its own and ``controls``."""
        return (feature, *(f for f in self.controls if f != feature))


CONTRACT = Features(("score", "made", "points", "pab_taker", "pab_defence", "chelem", "margin", "close"),
                    controls=("score", "made", "margin", "close"))
OPTION = Features(("score", "won", "margin", "close"), controls=("score", "won", "margin", "close"))


def capped(margin: np.ndarray) -> np.ndarray:
    """Margins (points beyond those needed) capped at +-CLOSE_POINTS: the ``close`` feature."""
    return np.clip(margin, -CLOSE_POINTS, CLOSE_POINTS)


def contract_features(rows: np.ndarray, seat: int) -> np.ndarray:
    """``CONTRACT``'s features of result rows (``kernels.playout`` layout), one row per deal: the taker's
    score, made, the taker's side's card points, petit au bout by each side, chelem (the taker's side took
    every trick), and the points that side took beyond those it needed, as they are and capped."""
    out = np.empty((rows.shape[0], len(CONTRACT)))
    out[:, 0] = rows[:, seat]
    out[:, 1] = rows[:, K.R_MADE]
    out[:, 2] = rows[:, K.R_TAKER_HP] / 2
    out[:, 3] = rows[:, K.R_PAB] == 1
    out[:, 4] = rows[:, K.R_PAB] == -1
    out[:, 5] = np.isin(rows[:, K.R_CHELEM], CHELEM_OUTCOMES)
    out[:, 6] = (rows[:, K.R_TAKER_HP] - np.asarray(TARGET_HALF_POINTS)[rows[:, K.R_OUDLERS]]) / 2
    out[:, 7] = capped(out[:, 6])
    return out


def option_features(rows: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """``OPTION``'s features of bid rows (``kernels.auction`` layout), each times the deal's weight: the
    hand's score (half-points to points), whether its side won, and the points its side took beyond those
    it needed, as they are and capped."""
    out = np.empty((rows.shape[0], len(OPTION)))
    out[:, 0] = weights * rows[:, KA.B_SCORE] / 2
    out[:, 1] = weights * (rows[:, KA.B_WON] == 1)
    margin = rows[:, KA.B_MARGIN] / 2
    out[:, 2] = weights * margin
    out[:, 3] = weights * capped(margin)
    return out
