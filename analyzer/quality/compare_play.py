"""Where the heuristic's card play differs from the search's, by side and situation, with what it costs.

The default answers play Prise and Garde with the heuristic; the search (PIMC) plays better. This
analysis finds where: deals dealt and bid at random are played by the heuristic, and at each decision
of the chosen side with a choice the heuristic's card is set against the search's
(``kernels/compare_play.py``). Where they differ, the cost is what the search's card gains over the
heuristic's in the deciding seat's own score, both cards played on the same fresh worlds. Grouped by
situation (leading or following, how, the kinds of the two cards), it says which situations are worth
a change of the heuristic, in points a deal.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

import numpy as np

from analyzer.baselines import method_id
from analyzer.cards import EXCUSE, FIRST_TRUMP, TOKENS
from analyzer.errors import SizeLimitError
from analyzer.notation import format_cards
from analyzer.rules import Rules
from analyzer.runs import PIMC_CHUNK, threads
from analyzer.simulate import rules_flags
from analyzer.simulation.threads import over_rows
from analyzer.stats import Mean
from kernels import compare_play as K

if TYPE_CHECKING:
    import pandas as pd

MAX_DEALS = 1_000_000     # a few seconds a hundred deals at the defaults: a million is days of work
SEARCH_WORLDS = 48        # worlds per decision of the search whose card is compared
EVAL_WORLDS = 64          # fresh worlds on which the two cards are played when they differ
SIDES = {"taker": K.SIDE_TAKER, "defence": K.SIDE_DEFENCE, "both": K.SIDE_TAKER | K.SIDE_DEFENCE}
GROUPINGS = ("situation", "phase", "trick")
SIDE_NAMES = ("defence", "taker's side")
PLAYERS_OF_THE_DEALS = ("heuristic", "search")   # who plays the deals: the positions compared


@dataclass(frozen=True)
class Group:
    """One line of the comparison: ``decisions`` in the group, ``differ`` of them with another card,
    the mean cost of those (``cost``, ``cost_se``) and the cost per deal played (``per_deal``, its
    standard error over deals)."""

    side: str
    label: str
    decisions: int
    differ: int
    cost: float
    cost_se: float
    per_deal: float
    per_deal_se: float

    def as_dict(self) -> dict:
        return {"side": self.side, "group": self.label, "decisions": self.decisions, "differ": self.differ,
                "share_differ": self.differ / self.decisions if self.decisions else float("nan"),
                "mean_cost": self.cost, "mean_cost_se": self.cost_se, "per_deal": self.per_deal,
                "per_deal_se": self.per_deal_se}


@dataclass(frozen=True)
class PlayComparison:
    players: int
    side: str
    play: str
    deals: int
    skipped: int
    worlds: int
    eval_worlds: int
    seconds: float
    decisions: pd.DataFrame      # one row per decision compared (``decision_frame``)
    variants: dict[str, str]

    def groups(self, by: str = "situation") -> list[Group]:
        """The decisions grouped ``by`` situation (only those that differ: side, phase and the two
        cards' kinds) or phase (side and phase), costliest per deal first, or by trick (side and
        trick number, in play order)."""
        return grouped(self.decisions, self.deals, by)

    def totals(self) -> list[Group]:
        """Per side: all decisions, then leading and following apart."""
        d = self.decisions.assign(lead=np.where(self.decisions["position"] == 0, "leading", "following"))
        out = []
        for side in sorted(d["side"].unique(), key=SIDE_NAMES.index, reverse=True):
            mine = d[d["side"] == side]
            out.append(summary(mine, self.deals, side, "all decisions"))
            out.extend(summary(mine[mine["lead"] == lead], self.deals, side, lead) for lead in ("leading", "following"))
        return out

    def as_dict(self, by: str = "situation") -> dict:
        return {"players": self.players, "side": self.side, "play": self.play, "deals": self.deals,
                "skipped": self.skipped,
                "worlds": self.worlds, "eval_worlds": self.eval_worlds, "seconds": self.seconds,
                "variants": self.variants, "totals": [g.as_dict() for g in self.totals()], "by": by,
                "groups": [g.as_dict() for g in self.groups(by)]}


def compare_play(players: int, deals: int, side: str = "both", seed: int = 0, bidding: str = "tarotclub",
                 worlds: int = SEARCH_WORLDS, eval_worlds: int = EVAL_WORLDS, jobs: int | None = None,
                 progress: Callable[[int, int | None], None] | None = None,
                 rules: Rules | None = None, play: str = "heuristic") -> PlayComparison:
    """Compare the heuristic's cards with the search's on ``deals`` random deals (all-pass deals are
    counted as skipped), for the seats of ``side``, the deals played by ``play`` (the heuristic, or
    the search: every seat's card the search's); each deal has its own random stream, so the chunks
    and threads never change the result."""
    import pandas as pd     # here, not at the top: the CLI imports this module at every command's start
    rules = rules or Rules(players=players)
    if rules.players != players:
        raise ValueError(f"{players} players under {rules.players}-player rules")
    if side not in SIDES:
        raise ValueError(f"unknown side {side!r} (expected one of: {', '.join(SIDES)})")
    if play not in PLAYERS_OF_THE_DEALS:
        raise ValueError(f"unknown play {play!r} (expected one of: {', '.join(PLAYERS_OF_THE_DEALS)})")
    method = method_id(bidding)
    if not 1 <= deals <= MAX_DEALS:
        raise SizeLimitError(f"--deals {deals}: expected 1 to {MAX_DEALS:,} deals")
    frames = []
    skipped = 0
    start = time.perf_counter()
    with threads(jobs):
        for offset in range(0, deals, PIMC_CHUNK):
            n = min(PIMC_CHUNK, deals - offset)
            rows = np.zeros((n, K.MAX_DECISIONS, K.ROW_SIZE), dtype=np.int64)
            costs = np.zeros((n, K.MAX_DECISIONS), dtype=np.float64)
            counts = np.zeros(n, dtype=np.int64)
            over_rows(K.compare_batch, n, players, method, SIDES[side], play == "search", worlds, eval_worlds,
                      rules_flags(rules), np.uint64(seed), offset, rows, costs, counts)
            skipped += int((counts < 0).sum())
            keep = np.arange(K.MAX_DECISIONS)[None, :] < counts[:, None]
            frames.append(decision_frame(rows[keep], costs[keep]))
            if progress:
                progress(offset + n, deals)
    return PlayComparison(players, side, play, deals - skipped, skipped, worlds, eval_worlds,
                          time.perf_counter() - start, pd.concat(frames, ignore_index=True), rules.variants())


def card_kind(cards: np.ndarray) -> np.ndarray:
    return np.where(cards == EXCUSE, "the Excuse", np.where(cards >= FIRST_TRUMP, "a trump", "a suit card"))


def decision_frame(rows: np.ndarray, costs: np.ndarray) -> pd.DataFrame:
    """The kernel's decision rows as a table with the situation spelt out: ``side``, ``phase`` (how
    the seat plays to the trick) and ``cards`` (the two cards' kinds); ``hand`` is the seat's hand
    before the card."""
    import pandas as pd
    taker_side = rows[:, K.R_ROLE] > 0
    position = rows[:, K.R_POSITION]
    led = rows[:, K.R_LED]
    holds = rows[:, K.R_HOLDS_LED] == 1
    trumps, out = rows[:, K.R_TRUMPS], rows[:, K.R_TRUMPS_OUT]
    phase = np.select(
        [(position == 0) | (led < 0), (led == 4) & holds, led == 4, holds, trumps > 0],
        ["leading", "following a trump lead", "discarding on a trump lead", "following suit", "trumping a suit trick"],
        "discarding on a suit trick").astype(object)
    leading = phase == "leading"
    after_excuse = (position > 0) & (led < 0)
    phase[after_excuse] = "leading after the Excuse"
    draw = np.where(trumps >= out, ", mine ≥ out", ", mine < out")
    phase[taker_side & leading] = phase[taker_side & leading] + draw[taker_side & leading]
    defence_following = ~taker_side & ~leading & ~after_excuse
    phase[defence_following] = phase[defence_following] + np.where(
        rows[defence_following, K.R_TAKER_PLAYED] == 1, " after the taker", " before the taker")
    mine, theirs = rows[:, K.R_HEURISTIC], rows[:, K.R_SEARCH]
    kind_mine, kind_theirs = card_kind(mine), card_kind(theirs)
    cards = np.where(mine == theirs, "the same card",
                     np.where(kind_mine == kind_theirs, "both " + kind_mine + ", not the same",
                              "heuristic " + kind_mine + ", search " + kind_theirs))
    tokens = np.array(TOKENS, dtype=object)
    return pd.DataFrame({
        "deal": rows[:, K.R_DEAL], "seat": rows[:, K.R_SEAT] + 1,
        "role": np.array(["defender", "taker", "partner"], dtype=object)[rows[:, K.R_ROLE]],
        "side": np.where(taker_side, SIDE_NAMES[1], SIDE_NAMES[0]),
        "trick": rows[:, K.R_TRICK] + 1, "position": position, "phase": phase, "cards": cards,
        "trumps": trumps, "trumps_out": out, "trick_points": rows[:, K.R_TRICK_POINTS] / 2,
        "legal": rows[:, K.R_LEGAL], "heuristic": tokens[mine], "search": tokens[theirs],
        "differ": mine != theirs, "cost": costs,
        "hand": [format_cards(int(s) | int(t) << FIRST_TRUMP)
                 for s, t in zip(rows[:, K.R_HAND_S].astype(np.uint64), rows[:, K.R_HAND_T].astype(np.uint64))]})


def summary(d: pd.DataFrame, deals: int, side: str, label: str) -> Group:
    """One group's line: its decisions, how many differ, their mean cost and the cost per deal (the
    standard error over the ``deals`` deals played, deals without a decision in the group counting 0)."""
    differ = d[d["differ"]]
    cost = Mean.of(differ["cost"].to_numpy())
    per_deal = np.zeros(deals)
    sums = d.groupby("deal")["cost"].sum()
    per_deal[:len(sums)] = sums.to_numpy()
    total = Mean.of(per_deal)
    return Group(side, label, len(d), len(differ), cost.mean, cost.se, total.mean, total.se)


def grouped(d: pd.DataFrame, deals: int, by: str) -> list[Group]:
    if by not in GROUPINGS:
        raise ValueError(f"unknown grouping {by!r} (expected one of: {', '.join(GROUPINGS)})")
    if by == "situation":
        d = d[d["differ"]]
        label = d["phase"] + ": " + d["cards"]
    elif by == "phase":
        label = d["phase"]
    else:
        label = "trick " + d["trick"].astype(str)
    groups = [summary(part, deals, side, name) for (side, name), part in d.groupby([d["side"], label])]
    if by == "trick":
        return sorted(groups, key=lambda g: (-SIDE_NAMES.index(g.side), int(g.label.split()[1])))
    return sorted(groups, key=lambda g: -g.per_deal)
