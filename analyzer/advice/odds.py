"""Contract odds for a hand: the hand's holder takes each contract in turn, on the same simulated deals.

The unseen cards are dealt uniformly (petit sec excluded) and every deal is played out by the chosen
policy, for Prise, Garde, Garde sans and Garde contre (the same deals and random streams for each
contract, so the contracts are compared on equal terms).  Prise and Garde take the chien and discard
with the heuristic; Garde sans and contre count the chien for the taker or the defence; poignées are
shown when the simulated seats show them.  Runs go in chunks until every reported probability's 95%
Wilson half-width is at most the precision asked (or a fixed number of deals).  Under the mixed play
model, the contracts played alike (``analyzer.runs.MIXED_WORLDS``: at 4 players Prise and Garde by a
search of more worlds than Garde sans and contre; at 3 and 5 all four alike) run together, each group to
its own precision, on the same first deals; a searched group's deals are played by the heuristic too,
whose play is the control variate of the search's (its mean from a heuristic run of its own:
``analyzer.stats.Moments.controlled``), so that fewer searched deals reach the precision.  Prise
and Garde in one group are played once and scored as each (``kernels.playout.score_again``): the
heuristic plays them alike, and the search's values differ only in the weight of the unmultiplied
bonuses (poignée, chelem) against the rest.  For a seat that speaks after others, the bids made before
it leave the contracts that outbid them, and weigh each deal by how likely its earlier seats were to bid
so (``analyzer.advice.auction``, as ``bid`` weighs its deals): every figure is then a weighted mean.
Each group is one set of trials of the simulation core (``analyzer.simulation.trials``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from analyzer import cards as C
from analyzer.advice.auction import BID_NOISE, AuctionWeights, ThinnedDeals, bid_token, check_bids
from analyzer.errors import TarotError
from analyzer.hand import Hand
from analyzer.rules import Contract, Rules
from analyzer.runs import MIXED, ODDS_PRECISION, Settings
from analyzer.simulation.bridge import fixed_hand, simulate_contract
from analyzer.simulation.features import CHELEM_OUTCOMES, CONTRACT, contract_features
from analyzer.simulation.trials import LAST, Trials, run_trials
from analyzer.stats import Mean, Proportion, WeightedProportion
from kernels import playout as K
from kernels.declarations import call_card


@dataclass(frozen=True)
class ContractOdds:
    """One contract's odds (proportions weighted by the earlier bids when the deals are)."""
    contract: Contract
    success: Proportion | WeightedProportion
    score: Mean                       # the taker's score
    points: Mean                      # the taker's side card points
    pab_taker: Proportion | WeightedProportion
    pab_defence: Proportion | WeightedProportion
    chelem: Proportion | WeightedProportion      # the taker's side took every trick

    def as_dict(self) -> dict:
        return {
            "contract": self.contract.token, "p_success": self.success.p, "ci95": list(self.success.wilson()),
            "expected_score": self.score.mean, "se": self.score.se, "n": self.score.n,
            "mean_points": self.points.mean, "points_se": self.points.se,
            "p_petit_au_bout_taker": self.pab_taker.p, "p_petit_au_bout_defence": self.pab_defence.p,
            "p_chelem": self.chelem.p,
        }


@dataclass(frozen=True)
class OddsResult:
    players: int
    seat: int                          # 0-based
    hand: Hand
    policy: str
    deals: int
    contracts: list[ContractOdds] = field(default_factory=list)
    called: int | None = None          # 5 players: the card the simulated taker calls with this hand
    play_model: str = "heuristic"      # the card play behind the numbers (``Settings.play_model``)
    searched_deals: int = 0            # deals played with search
    bids: tuple[Contract | None, ...] | None = None   # the bids made before the seat, when given
    auction_noise: float | None = None      # the deals are weighted by those bids with this error (None: not)
    effective_deals: float | None = None    # Kish's effective number of the weighted deals
    control_deals: int = 0             # the heuristic's deals of a control run (the most of any group's)

    def as_dict(self) -> dict:
        return {"players": self.players, "seat": self.seat + 1, "hand": str(self.hand), "policy": self.policy,
                "play_model": self.play_model, "deals": self.deals, "searched_deals": self.searched_deals,
                "bids": None if self.bids is None else [bid_token(b) for b in self.bids],
                "auction_noise": self.auction_noise,
                "effective_deals": self.deals if self.effective_deals is None else self.effective_deals,
                "control_deals": self.control_deals,
                "called": None if self.called is None else C.TOKENS[self.called],
                "score_of": "taker", "contracts": [c.as_dict() for c in self.contracts]}


# A chelem in sight (``chelem_in_sight``): the heuristic's play of the hand at Prise takes every trick on
# CHELEM_SIGHT of SIGHT_DEALS deals or more.  The mixed model's search of few worlds lets slip chelems that hang
# on the first tricks' play; such a hand's contracts are searched by ``analyzer.runs.CHELEM_SEARCH`` instead,
# whose chelems follow deep search's (docs/design.md, "The default: the heuristic where it agrees, a short
# search where it does not"; docs/journal/calibration.md, "A chelem in sight").
CHELEM_SIGHT = 0.01
SIGHT_DEALS = 2000
SIGHT_SALT = 0x3C6EF372FE94F82B


def chelem_in_sight(hand: Hand, seat: int, rules: Rules, settings: Settings, *, search_driver: bool = True) -> bool:
    """Whether the mixed model searches ``hand``'s contracts by the chelem search (``Settings.for_contract``):
    under the mixed model only, when the heuristic's play of the hand at Prise takes every trick on at
    least ``CHELEM_SIGHT`` of ``SIGHT_DEALS`` deals (a stream of their own, from the settings' seed).
    ``search_driver``: through the advice driver with the search compiled in, which the command's contracts
    then use too (the same answers: a first run compiles one driver); ``bid``, whose contracts go through
    a driver of their own, plays them through the one without the search (``kernels.batch``)."""
    if settings.policy != MIXED:
        return False
    rows = simulate_contract(hand, seat, Contract.PRISE, rules, "heuristic", SIGHT_DEALS, settings.seed ^ SIGHT_SALT,
                             search_driver=search_driver)
    return bool(np.isin(rows[:, K.R_CHELEM], CHELEM_OUTCOMES).mean() >= CHELEM_SIGHT)


def contract_model(settings: Settings, contract: Contract | None, players: int, sight: bool) -> Settings:
    """The settings ``odds`` and ``bid`` play ``contract`` (None: a pass) with (``Settings.for_contract``):
    searched to ``ODDS_PRECISION``'s multiple of the precision for ``players``, but with a chelem in
    ``sight`` (the chelem search, to ``MIXED_PRECISION``'s)."""
    return settings.for_contract(contract, players, chelem=sight, scale=None if sight else ODDS_PRECISION[players])


def garde_beside(contract: Contract | None, among: list[Contract | None]) -> Contract | None:
    """Garde, when ``contract`` is Prise and Garde is ``among`` the contracts run with it: one play scores
    both (they are played alike, ``kernels.playout.score_again``), Prise's play scored as Garde too."""
    return Contract.GARDE if contract is Contract.PRISE and Contract.GARDE in among else None


def summary(contracts: list[Contract], trials: Trials) -> list[ContractOdds]:
    """The odds of ``contracts`` from their trials (``group_run``; every figure controlled by the
    heuristic's play where the trials have a control run)."""
    return [ContractOdds(contract=c, success=trials.share(i, "made"), score=trials.mean(i, "score"),
                         points=trials.mean(i, "points"), pab_taker=trials.share(i, "pab_taker"),
                         pab_defence=trials.share(i, "pab_defence"), chelem=trials.share(i, "chelem"))
            for i, c in enumerate(contracts)]


def widest_half_width(odds: list[ContractOdds]) -> float:
    """The largest 95% half-width among the reported probabilities."""
    return max(max(p.half_width for p in (o.success, o.pab_taker, o.pab_defence, o.chelem)) for o in odds)


def contract_odds(hand: Hand, rules: Rules, seat: int = 0, settings: Settings = Settings(), *,
                  bids: list[Contract | None] | None = None, condition: bool = True, bidding: str = "tarotclub",
                  noise: float = BID_NOISE) -> OddsResult:
    """Odds of every contract for ``hand`` held by ``seat`` (0-based), who takes.  With ``bids`` (those
    made before the seat), the contracts that outbid them, on deals weighted by them (``condition``;
    the earlier seats bid by ``bidding`` with an error of ``noise`` points: ``analyzer.advice.auction``).  The
    contracts played alike (``Settings.for_contract``: all of them, but for the mixed model) are run
    together; each group runs to its own precision, its first deals the same as the other groups'."""
    if not 0 <= seat < rules.players:
        raise TarotError(f"seat {seat + 1} does not exist at {rules.players} players")
    hand.check_size(rules.hand_size, rules.players)
    takes, auction = list(Contract), None
    if bids is not None:
        auction = AuctionWeights(tuple(bids), seat, bidding, noise)
        best = check_bids(list(bids), seat)
        takes = [c for c in Contract if best is None or c > best]
        if not takes:
            raise TarotError(f"no contract outbids {best.token}: seat {seat + 1} can only pass")
        if not condition or seat == 0:
            auction = None
    groups: dict[Settings, list[Contract]] = {}
    sight = chelem_in_sight(hand, seat, rules, settings)
    for contract in takes:
        groups.setdefault(contract_model(settings, contract, rules.players, sight), []).append(contract)
    odds: dict[Contract, ContractOdds] = {}
    deals = searched = simulated = control = 0
    effective = None
    for run, contracts in groups.items():
        about = ", ".join(c.token for c in contracts) if len(groups) > 1 else ""
        group = group_run(hand, rules, seat, contracts, run.counting_after(simulated),
                          search_driver=settings.may_search, about=about, auction=auction)
        for contract, result in zip(contracts, summary(contracts, group)):
            odds[contract] = result
        control_deals = 0 if group.reference is None else group.reference.n
        simulated += group.n + control_deals
        for trials in (group, group.reference):
            if trials is not None and trials.n > deals:
                deals = trials.n
                effective = trials.effective_n() if auction else None
        searched = max(searched, run.searched_deals(group.n))
        control = max(control, control_deals)
    called = int(call_card(np.uint64(hand.suit_bits))) if rules.players == 5 else None
    return OddsResult(rules.players, seat, hand, settings.policy, deals, [odds[c] for c in takes], called,
                      settings.play_model(rules.players, sight), searched, None if bids is None else tuple(bids),
                      auction.noise if auction else None, effective, control)


def group_run(hand: Hand, rules: Rules, seat: int, contracts: list[Contract], settings: Settings, *,
              search_driver: bool = False, about: str = "", auction: AuctionWeights | None = None,
              warn: bool = True) -> Trials:
    """The trials of ``contracts`` played alike on the same deals (``CONTRACT``'s features; each times the
    deal's weight given ``auction``, the weights in the last column, a searched run's deals then drawn by
    their weights, ``ThinnedDeals``), until every reported probability is within the settings' precision
    (or their fixed number of deals; a precision not reached warns, naming ``about``, unless not to
    ``warn``).  Prise and Garde, when both are in the group, are played once and scored twice
    (``kernels.playout.score_again``).  A searched run with a control variate (``Settings.controlled``)
    first runs the control run, then plays each of its deals by the heuristic too (``run_trials``)."""
    fixed, unseen, slots = fixed_hand(hand, seat, rules.players)

    def simulator(run: Settings, controlled: bool):
        """The rows of deals (offset, n) played by ``run``'s settings (and by the heuristic, ``controlled``)."""
        total_weight = [0.0]
        thinned = ThinnedDeals(auction, fixed, unseen, slots, rules, run.seed) \
            if auction is not None and run.searches else None

        def play(deals: np.ndarray, n: int, policy: str) -> np.ndarray:
            """The features of ``contracts`` on ``deals`` played by ``policy``."""
            rows: dict[Contract, np.ndarray] = {}
            for c in contracts:
                if c in rows:
                    continue
                twin = garde_beside(c, contracts)
                if twin is not None:
                    rows[twin] = np.zeros((n, K.RESULT_SIZE), dtype=np.int64)
                rows[c] = simulate_contract(hand, seat, c, rules, policy, n, run.seed, worlds=run.worlds,
                                            search_driver=search_driver, deals=deals, also=twin,
                                            also_rows=rows.get(twin))
            return np.hstack([contract_features(rows[c], seat) for c in contracts])

        def simulate(offset: int, n: int) -> np.ndarray:
            deals, weights = thinned.take(n) if thinned else (np.arange(offset, offset + n), None)
            features = play(deals, n, run.policy)
            if controlled:
                features = np.hstack([features, play(deals, n, "heuristic")])
            if auction is None:
                return features
            if weights is None:
                weights = auction.of(fixed, unseen, slots, rules, run.seed, deals)
            total_weight[0] += weights.sum()
            if total_weight[0] <= 0:
                raise TarotError(auction.unexplained(offset + n))
            return np.column_stack([features * weights[:, None], weights])

        return simulate

    return run_trials(simulator, list(range(len(contracts))), CONTRACT, settings,
                      lambda trials: widest_half_width(summary(contracts, trials)),
                      weight=LAST if auction is not None else None, about=about, warn=warn)
