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
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from analyzer import cards as C
from analyzer.advice.auction import BID_NOISE, AuctionWeights, ThinnedDeals, bid_token, check_bids
from analyzer.errors import TarotError
from analyzer.hand import Hand
from analyzer.rules import TARGET_HALF_POINTS, Contract, Rules
from analyzer.runs import MIXED, ODDS_PRECISION, PIMC_WORLDS, POLICY_IDS, Settings, run_in_chunks, searching
from analyzer.simulate import rules_flags
from analyzer.stats import ControlMeans, Mean, Moments, Proportion, WeightedProportion
from kernels import playout as K
from kernels.batch import advice_batch, advice_batch_no_search
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


def fixed_hand(hand: Hand, seat: int, players: int, extra: dict[int, int] | None = None):
    """(place per card or -1, the unseen cards, the place of each open slot) with ``hand`` at ``seat``
    and the ``extra`` cards ({place: mask}) known too."""
    fixed = np.full(C.N_CARDS, -1, dtype=np.int8)
    for card in hand:
        fixed[card] = seat
    for place, mask in (extra or {}).items():
        for card in C.cards_of(mask):
            fixed[card] = place
    unseen = np.array([c for c in range(C.N_CARDS) if fixed[c] < 0], dtype=np.int64)
    rules = Rules(players=players)
    sizes = [rules.hand_size] * players + [rules.chien_size]
    slots = [p for p in range(players + 1) for _ in range(sizes[p] - int((fixed == p).sum()))]
    return fixed, unseen, np.array(slots, dtype=np.int64)


def simulate_contract(hand: Hand, seat: int, contract: Contract, rules: Rules, policy: str, n: int, seed: int,
                      offset: int = 0, worlds: int = PIMC_WORLDS, declare: bool = True,
                      choices: np.ndarray | None = None, fixed_extra: dict[int, int] | None = None,
                      search_driver: bool = False, deals: np.ndarray | None = None, also: Contract | None = None,
                      also_rows: np.ndarray | None = None) -> np.ndarray:
    """Result rows (``kernels.playout`` layout) of deals ``offset … offset+n-1`` (or of stream indices
    ``deals``, n of them) with the hand's holder taking ``contract`` (``declare``: the seats show the
    poignées they hold; ``choices``: the taker's choices, ``kernels.playout.start_with_choices``;
    ``fixed_extra``: more known cards, as {place: mask}, e.g. the chien seen; ``search_driver``: through
    the driver with the search compiled in even when ``policy`` does not search, ``Settings.may_search``).
    ``also``: the same play scored as that contract too, into ``also_rows`` (n rows; Prise and Garde
    are played alike: ``kernels.playout.score_again``)."""
    players = rules.players
    fixed, unseen, slots = fixed_hand(hand, seat, players, fixed_extra)
    results = np.zeros((n, K.RESULT_SIZE), dtype=np.int64)
    policies = np.full(players, POLICY_IDS[policy], dtype=np.int64)
    batch = advice_batch if search_driver or searching(policies) else advice_batch_no_search
    batch(fixed, unseen, slots, players, seat, int(contract), choices if choices is not None else K.auto_choices(),
          policies, worlds, np.uint64(seed), np.arange(offset, offset + n) if deals is None else deals, declare,
          rules_flags(rules), results, -1 if also is None else int(also),
          np.empty((0, K.RESULT_SIZE), dtype=np.int64) if also_rows is None else also_rows)
    return results


CHELEM_OUTCOMES = (1, 2, 5)  # ``kernels.playout.R_CHELEM``'s outcomes where the taker's side took every trick

# A chelem in sight (``chelem_in_sight``): the mixed model's search of few worlds takes fewer chelems than
# deep search where the chelem hangs on the first tricks' play (4 players, seat 2, hands of a triple
# poignée's trumps and Kings: Garde sans' and contre's chelems 2.5 pp short on average, 11 pp at worst, on
# 600 deals a hand); the chelem search (``analyzer.runs.CHELEM_SEARCH``) takes them as deep search does
# (+0.1 pp, 1.7 at worst) for a search a quarter dearer on random deals.  So a hand gets it when the
# heuristic, which takes fewer chelems still, takes one at Prise on CHELEM_SIGHT of SIGHT_DEALS deals or
# more: every such hand whose chelem mattered did (their Prise chelems 1.5 to 92%), and none of the
# calibration's 300 random hands (0.25% at most; docs/performance.md, "A chelem in sight").
CHELEM_SIGHT = 0.01
SIGHT_DEALS = 2000
SIGHT_SALT = 0x3C6EF372FE94F82B


def chelem_in_sight(hand: Hand, seat: int, rules: Rules, settings: Settings) -> bool:
    """Whether the mixed model searches ``hand``'s contracts by the chelem search (``Settings.for_contract``):
    under the mixed model only, when the heuristic's play of the hand at Prise takes every trick on at
    least ``CHELEM_SIGHT`` of ``SIGHT_DEALS`` deals (a stream of their own, from the settings' seed)."""
    if settings.policy != MIXED:
        return False
    rows = simulate_contract(hand, seat, Contract.PRISE, rules, "heuristic", SIGHT_DEALS, settings.seed ^ SIGHT_SALT,
                             search_driver=True)
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


# Per deal and contract, the features kept (running moments, analyzer.stats.Moments).
SCORE, MADE, POINTS, PAB_TAKER, PAB_DEFENCE, CHELEM, MARGIN, CLOSE = range(8)
FEATURES = 8
# A searched figure's control variates (``Moments.controlled``): the heuristic's play of the same deal, its
# same figure and CONTROLS: its score, made, the points its taker's side took beyond those it needed
# (MARGIN) and that margin capped at +-CLOSE_POINTS (CLOSE: where the deal's outcome hangs on a trick or
# two).  Regressed on the lot, the search's made leaves 0.57 of its variance at 5 players (0.65 on the
# heuristic's made alone) and 0.61 at 4 (0.69), its score 0.39 (0.44) and 0.50 (0.55): that many fewer
# searched deals reach a precision (40 random hands, Garde, 1,000 deals each; docs/performance.md).
CONTROLS = (SCORE, MADE, MARGIN, CLOSE)
CLOSE_POINTS = 15


def contract_features(rows: np.ndarray, seat: int) -> np.ndarray:
    """The kept features of result rows, one row per deal: the taker's score, made, the taker's side's
    card points, petit au bout by each side, chelem (the taker's side took every trick), and the points
    that side took beyond those it needed, as they are and capped at +-CLOSE_POINTS."""
    out = np.empty((rows.shape[0], FEATURES))
    out[:, SCORE] = rows[:, seat]
    out[:, MADE] = rows[:, K.R_MADE]
    out[:, POINTS] = rows[:, K.R_TAKER_HP] / 2
    out[:, PAB_TAKER] = rows[:, K.R_PAB] == 1
    out[:, PAB_DEFENCE] = rows[:, K.R_PAB] == -1
    out[:, CHELEM] = np.isin(rows[:, K.R_CHELEM], CHELEM_OUTCOMES)
    out[:, MARGIN] = (rows[:, K.R_TAKER_HP] - np.asarray(TARGET_HALF_POINTS)[rows[:, K.R_OUDLERS]]) / 2
    out[:, CLOSE] = capped(out[:, MARGIN])
    return out


def capped(margin: np.ndarray) -> np.ndarray:
    """Margins (points beyond those needed) capped at +-CLOSE_POINTS: the CLOSE control."""
    return np.clip(margin, -CLOSE_POINTS, CLOSE_POINTS)


def control_features(feature: int, controls: tuple[int, ...] = CONTROLS) -> tuple[int, ...]:
    """The heuristic's features that are control variates of a searched ``feature``: its own and ``controls``."""
    return (feature, *(f for f in controls if f != feature))


def summarize_contract(contract: Contract, moments: Moments, base: int = 0, weight: int | None = None,
                       control: tuple[int, Moments, int, int | None] | None = None) -> ContractOdds:
    """The odds of ``contract`` from the moments whose features start at column ``base`` (each times the
    deal's weight in column ``weight``, when there is one).  ``control``: (the column where the same
    deals' heuristic features start, the control run's moments, where its features start, its weight
    column or None): each figure then takes the heuristic's play as its control variate
    (``Moments.controlled``), with CONTROLS beside it."""
    if control is None:
        if weight is None:
            share = lambda f: moments.proportion(base + f)                                  # noqa: E731
            mean = lambda f: moments.summary(base + f)                                      # noqa: E731
        else:
            share = lambda f: moments.weighted_proportion(base + f, weight)                 # noqa: E731
            mean = lambda f: moments.ratio({base + f: 1.0}, weight)                         # noqa: E731
    else:
        x, reference, ref_base, ref_weight = control

        def controls(f: int) -> tuple[list[dict[int, float]], ControlMeans]:
            """Feature ``f``'s control variates here, and their means by the control run."""
            features = control_features(f)
            return ([{x + g: 1.0} for g in features],
                    reference.control_means([{ref_base + g: 1.0} for g in features], ref_weight))

        def share(f: int) -> WeightedProportion:
            return moments.controlled_proportion(base + f, *controls(f), weight)

        def mean(f: int) -> Mean:
            return moments.controlled({base + f: 1.0}, *controls(f), weight)
    return ContractOdds(
        contract=contract,
        success=share(MADE),
        score=mean(SCORE),
        points=mean(POINTS),
        pab_taker=share(PAB_TAKER),
        pab_defence=share(PAB_DEFENCE),
        chelem=share(CHELEM))


def widest_half_width(odds: list[ContractOdds]) -> float:
    """The largest 95% half-width among the reported probabilities."""
    return max(max(p.half_width for p in (o.success, o.pab_taker, o.pab_defence, o.chelem)) for o in odds)


def contract_odds(hand: Hand, rules: Rules, seat: int = 0, settings: Settings = Settings(),
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
        group = group_run(hand, rules, seat, contracts, run.counting_after(simulated), settings.may_search, about,
                          auction)
        for contract, result in zip(contracts, group.summary()):
            odds[contract] = result
        simulated += group.moments.n + group.control_deals
        for moments, width in ((group.moments, group.width), (group.reference, weight_column(contracts))):
            if moments is not None and moments.n > deals:
                deals = moments.n
                effective = moments.effective_n(width) if auction else None
        searched = max(searched, run.searched_deals(group.moments.n))
        control = max(control, group.control_deals)
    called = int(call_card(np.uint64(hand.suit_bits))) if rules.players == 5 else None
    return OddsResult(rules.players, seat, hand, settings.policy, deals, [odds[c] for c in takes], called,
                      settings.play_model(rules.players, sight), searched, None if bids is None else tuple(bids),
                      auction.noise if auction else None, effective, control)


def weight_column(contracts: list[Contract], controlled: bool = False) -> int:
    """Where a weighted run of ``contracts`` keeps each deal's weight: after their features (and, for a
    run with a control variate, after the heuristic's features of the same deals)."""
    return FEATURES * len(contracts) * (2 if controlled else 1)


@dataclass(frozen=True)
class GroupRun:
    """The run of contracts played alike: the moments of their features on the same deals, and for a
    searched run with a control variate, the heuristic's features of those deals beside them (the
    search's columns, then the heuristic's, then the weight) and the moments of the control run (the
    heuristic on deals of its own, ``Settings.control_run``)."""
    contracts: list[Contract]
    moments: Moments
    weighted: bool
    reference: Moments | None = None

    @property
    def width(self) -> int:
        """The column of the weights in ``moments`` (their features' count)."""
        return weight_column(self.contracts, self.reference is not None)

    @property
    def control_deals(self) -> int:
        return 0 if self.reference is None else self.reference.n

    def summary(self) -> list[ContractOdds]:
        """The odds of the contracts."""
        return group_summary(self.contracts, self.moments, self.weighted, self.reference)


def group_summary(contracts: list[Contract], moments: Moments, weighted: bool,
                  reference: Moments | None = None) -> list[ContractOdds]:
    """The odds of ``contracts`` from their run's moments (``group_run``), with the heuristic's play as
    control variate where the control run's moments ``reference`` are given."""
    k = len(contracts)
    weight = weight_column(contracts, reference is not None) if weighted else None
    if reference is None:
        return [summarize_contract(c, moments, FEATURES * i, weight) for i, c in enumerate(contracts)]
    ref_weight = weight_column(contracts) if weighted else None
    return [summarize_contract(c, moments, FEATURES * i, weight, (FEATURES * (k + i), reference, FEATURES * i,
                                                                   ref_weight)) for i, c in enumerate(contracts)]


def group_run(hand: Hand, rules: Rules, seat: int, contracts: list[Contract], settings: Settings,
              search_driver: bool = False, about: str = "", auction: AuctionWeights | None = None,
              warn: bool = True) -> GroupRun:
    """The run of ``contracts`` on the same deals (each feature times the deal's weight given ``auction``,
    the weights in the last column, when there is one; a searched run's deals then drawn by their
    weights, ``ThinnedDeals``), until every reported probability is within the settings' precision (or
    their fixed number of deals; a precision not reached warns, naming ``about``, unless not to
    ``warn``).  Prise and Garde, when both are in the group, are played once and scored twice
    (``kernels.playout.score_again``).  A searched run with a control variate (``Settings.controlled``)
    first runs the control run, then plays each of its deals by the heuristic too."""
    reference = None
    if settings.controlled:
        control = settings.control_run()
        reference = group_run(hand, rules, seat, contracts, control, search_driver, auction=auction,
                              warn=False).moments
        settings = settings.counting_after(reference.n)
    fixed, unseen, slots = fixed_hand(hand, seat, rules.players)
    total_weight = [0.0]
    thinned = ThinnedDeals(auction, fixed, unseen, slots, rules, settings.seed) \
        if auction is not None and settings.searches else None

    def play(deals: np.ndarray, n: int, policy: str) -> np.ndarray:
        """The features of ``contracts`` on ``deals`` played by ``policy``."""
        rows: dict[Contract, np.ndarray] = {}
        for c in contracts:
            if c in rows:
                continue
            twin = garde_beside(c, contracts)
            if twin is not None:
                rows[twin] = np.zeros((n, K.RESULT_SIZE), dtype=np.int64)
            rows[c] = simulate_contract(hand, seat, c, rules, policy, n, settings.seed, worlds=settings.worlds,
                                        search_driver=search_driver, deals=deals, also=twin, also_rows=rows.get(twin))
        return np.hstack([contract_features(rows[c], seat) for c in contracts])

    def simulate(offset: int, n: int) -> np.ndarray:
        deals, weights = thinned.take(n) if thinned else (np.arange(offset, offset + n), None)
        features = play(deals, n, settings.policy)
        if reference is not None:
            features = np.hstack([features, play(deals, n, "heuristic")])
        if auction is None:
            return features
        if weights is None:
            weights = auction.of(fixed, unseen, slots, rules, settings.seed, deals)
        total_weight[0] += weights.sum()
        if total_weight[0] <= 0:
            raise TarotError(auction.unexplained(offset + n))
        return np.column_stack([features * weights[:, None], weights])

    weighted = auction is not None
    width = weight_column(contracts, reference is not None) + weighted
    moments = run_in_chunks(simulate, width, settings,
                            lambda m: widest_half_width(group_summary(contracts, m, weighted, reference)), about, warn)
    return GroupRun(contracts, moments, weighted, reference)
