"""Bid advice: the value of passing and of every legal bid from the hand's seat, given the bids so far.

Deals are drawn with the hand fixed and, unless turned off, conditioned on the earlier bids by
weighting: the earlier seats are taken to bid by the bidding model (``docs/bidding.md``, TarotClub's
count by default) give or take a normal error of ``noise`` points on their count, and each deal
weighs the probability that its earlier seats make exactly the bids that were made
(``kernels/auction.py``).  Every figure is a weighted mean (importance sampling; its standard error by
the delta method), so any legal auction gets advice: an unlikely one just leaves fewer effective deals
(Kish's count, reported).  For each option the later seats bid by the model, the deal is played by the
chosen policy from the actual taker's point of view (the hand may end up defending), or thrown in when
everybody passed (played out as a Goulash under ``all-pass=goulash``, so that ``pass`` is worth the
Goulash's expected score).  Every option is valued on the same deals, so their differences are
measured precisely; a deal whose auction ends with the hand taking Prise under one option and Garde
under the other is played once for both (they are played alike: ``kernels.playout.score_again``).
Under the mixed play model (``analyzer.runs.Settings.for_contract``) the options played by the
heuristic (a pass, but at 3 players) run to the precision asked and every option runs again on the first of
those deals, the searched ones searched, until they reach theirs: an option is valued by
its own play model, and compared with a searched option on the searched deals, which are drawn by their
weights when the deals are weighted (``analyzer.advice.auction.ThinnedDeals``).  A searched option's
deals are played by the heuristic too, as its control variate, whose means a control run measures first
(every option by the heuristic, on deals of its own: ``analyzer.simulation.trials``).  A searched run stops waiting for
an option clearly behind the best (``analyzer.runs.BEHIND_Z``), whose wider interval is reported as it
is, and stops playing it once its probability is within the precision asked: its figures are those of
the deals played until then (``analyzer.simulation.trials.Stopped``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from analyzer.advice.auction import (BID_NOISE, AuctionWeights, ThinnedDeals, bid_token, check_bids, check_noise,
                                     earlier_ids)
from analyzer.advice.odds import chelem_in_sight, contract_model, garde_beside
from analyzer.baselines import method_id
from analyzer.errors import TarotError
from analyzer.hand import Hand
from analyzer.rules import Contract, Rules
from analyzer.runs import Settings, clearly_behind, run_in_chunks
from analyzer.simulate import rules_flags
from analyzer.simulation.bridge import fixed_hand, policy_ids
from analyzer.simulation.features import OPTION, option_features
from analyzer.simulation.threads import over_rows
from analyzer.simulation.trials import FIRST, Layout, Stopped, Trials
from analyzer.stats import Mean, Moments, WeightedProportion
from kernels import auction as K
from kernels.pimc import SEARCH


@dataclass(frozen=True)
class BidOption:
    bid: Contract | None              # None: pass
    score: Mean                       # the hand's score
    success: WeightedProportion       # the hand's side wins the deal (a thrown-in deal is no success)
    vs_best: Mean                     # score minus the best option's, on the same deals

    @property
    def token(self) -> str:
        return bid_token(self.bid)

    def as_dict(self) -> dict:
        return {"bid": self.token, "expected_score": self.score.mean, "se": self.score.se, "n": self.score.n,
                "p_success": self.success.p, "ci95": list(self.success.wilson())}


@dataclass(frozen=True)
class BidAdvice:
    players: int
    seat: int
    hand: Hand
    earlier: tuple[Contract | None, ...]
    options: list[BidOption]
    margin: Mean                      # best option minus the runner-up, on the same deals
    effective_deals: float            # Kish's effective number of deals of the weights (= deals unweighted)
    deals: int
    noise: float = 0.0                # the earlier bidders' error around the model, in points (when weighted)
    play_model: str = "heuristic"     # the card play behind the numbers (``Settings.play_model``)
    searched_deals: int = 0           # deals played with search
    control_deals: int = 0            # the heuristic's deals of the control run (none without one)

    @property
    def recommendation(self) -> BidOption:
        return max(self.options, key=lambda o: o.score.mean)

    def reason(self) -> str:
        best = self.recommendation
        others = sorted((o for o in self.options if o is not best), key=lambda o: -o.score.mean)
        if not others:
            return f"{best.token} is the only option."
        second = others[0]
        spread = f" ± {self.margin.se:.1f}" if math.isfinite(self.margin.se) else ""
        text = f"{best.token} beats {second.token} by {self.margin.mean:+.1f}{spread} points per deal"
        if best.bid is not None:
            return text + f"; taking {best.token}, this hand's side wins {best.success.p:.0%} of the deals."
        takes = [o for o in self.options if o.bid is not None]
        top = max(takes, key=lambda o: o.success.p)
        return text + f"; even at {top.token} this hand's side would win only {top.success.p:.0%} of the deals."

    def as_dict(self) -> dict:
        return {"players": self.players, "seat": self.seat + 1, "hand": str(self.hand),
                "bids": [bid_token(b) for b in self.earlier],
                "recommendation": self.recommendation.token, "reason": self.reason(),
                "margin": self.margin.mean, "margin_se": self.margin.se, "play_model": self.play_model,
                "deals": self.deals, "searched_deals": self.searched_deals, "control_deals": self.control_deals,
                "effective_deals": self.effective_deals, "auction_noise": self.noise,
                "options": [o.as_dict() for o in self.options]}


def bid_advice(hand: Hand, rules: Rules, seat: int = 0, bids: list[Contract | None] = (),
               settings: Settings = Settings(), *, bidding: str = "tarotclub", condition: bool = True,
               noise: float = BID_NOISE) -> BidAdvice:
    """The value of passing and of each legal bid for ``hand`` at ``seat`` (0-based) after ``bids``;
    with ``condition``, the deals are weighted by the earlier bids (the bidders' count off by a normal
    error of ``noise`` points; 0: exactly the model, which can leave no deal)."""
    if not 0 <= seat < rules.players:
        raise TarotError(f"seat {seat + 1} does not exist at {rules.players} players")
    check_noise(noise)
    hand.check_size(rules.hand_size, rules.players)
    best = check_bids(list(bids), seat)
    auction = AuctionWeights(tuple(bids), seat, bidding, noise)     # says why no deal fits, if none does
    method = method_id(bidding)
    options: list[Contract | None] = [None] + [c for c in Contract if best is None or c > best]
    fixed, unseen, slots = fixed_hand(hand, seat, rules.players)
    earlier = earlier_ids(list(bids))
    flags = rules_flags(rules)
    weighted = condition and seat > 0
    sight = chelem_in_sight(hand, seat, rules, settings, search_driver=False)   # not the advice driver's search too
    played = [contract_model(settings, o, rules.players, sight) for o in options]
    policies = [policy_ids(p.policy, rules.players) for p in played]
    searching = SEARCH if settings.may_search else None     # one kernel for every option

    def option_id(i: int) -> int:
        return 0 if options[i] is None else int(options[i])

    def played_alike(i: int, indices: list[int]) -> int | None:
        """Garde's index among ``indices`` when option ``i`` is Prise and both are played alike
        (``garde_beside``): the deals whose auction ends with the hand taking either are played once
        (``kernels.auction.bid_deals``)."""
        twin = garde_beside(options[i], [options[j] for j in indices if played[j] == played[i]])
        return None if twin is None else options.index(twin)

    def run(indices: list[int], run_settings: Settings, watched: list[int], reference: Trials | None = None,
            heuristic: bool = False) -> Trials:
        """The options ``indices`` on the same deals, each played as ``played`` says (``heuristic``: every
        one by the heuristic, a control run), until the watched ones' probabilities of success are within
        ``run_settings``' precision (``OPTION``'s features, each deal's weight first).  Given the control
        run's trials ``reference``, the options searched with a control variate are played by the
        heuristic too, their figures controlled by it."""
        total_weight = [0.0]
        thinned = ThinnedDeals(auction, fixed, unseen, slots, rules, run_settings.seed) \
            if weighted and run_settings.searches else None
        controls = [i for i in indices if played[i].controlled] if reference is not None else []
        ids = {i: heuristic_ids if heuristic else policies[i] for i in indices}
        stopped = Stopped()
        layout = Layout(OPTION, len(indices) + len(controls), FIRST)

        def play(deals: np.ndarray, n: int, chosen: list[int], ids: dict[int, np.ndarray],
                 drawn: np.ndarray) -> dict[int, np.ndarray]:
            """The bid kernel's rows of options ``chosen`` on ``deals``, each played by the policies ``ids[i]``."""
            rows: dict[int, np.ndarray] = {}
            for i in chosen:
                if i in rows:
                    continue
                twin = played_alike(i, chosen)
                rows[i] = np.zeros((n, K.BID_SIZE), dtype=np.int64)
                also = np.zeros((0 if twin is None else n, K.BID_SIZE), dtype=np.int64)
                over_rows(K.bid_deals, n, fixed, unseen, slots, rules.players, seat, earlier, weighted, option_id(i),
                          method, float(noise), ids[i], played[i].worlds, np.uint64(run_settings.seed), deals, True,
                          flags, rows[i], drawn, -1 if twin is None else option_id(twin), also, searching)
                if twin is not None:
                    rows[twin] = also
            return rows

        def simulate(offset: int, n: int) -> np.ndarray:
            features = np.zeros((n, layout.width))
            deals, kept = thinned.take(n) if thinned else (np.arange(offset, offset + n), None)
            drawn = np.empty(n)
            rows = play(deals, n, [i for i in indices if i not in stopped], ids, drawn)
            control_rows = play(deals, n, [i for i in controls if i not in stopped],
                                {i: heuristic_ids for i in controls}, np.empty(n))
            weights = drawn if kept is None else kept      # deals drawn by their weights weigh so
            for k, (i, source) in enumerate([(i, rows) for i in indices] + [(i, control_rows) for i in controls]):
                if i in stopped:
                    continue                              # its columns stay 0, read no more (``Stopped``)
                features[:, layout.block(k)] = option_features(source[i], weights)
            features[:, layout.weight_column] = weights     # the same deals, so the same weights, for every option
            total_weight[0] += weights.sum()
            if total_weight[0] <= 0:
                raise TarotError(auction.unexplained(offset + n))
            return features

        def widest(m: Moments) -> float:
            """The widest half-width of the watched options' success, but for a searched run's options
            clearly behind the best (``analyzer.runs.clearly_behind``): their wider intervals are reported as
            they are, and the search's time goes where it decides; once within the precision, they stop
            (``Stopped``: no longer played, their figures those of the deals so far)."""
            done = Trials(indices, layout, m, controls, reference, stopped)
            lead = max((i for i in indices if i not in stopped), key=lambda i: done.combination({i: 1.0}, "score").mean)
            widths = [0.0]
            for i in watched:
                if i in stopped:
                    continue
                width = done.share(i, "won").half_width
                if run_settings.searches and i != lead and clearly_behind(done.difference(lead, i, "score")):
                    if width <= run_settings.precision:
                        stopped.stop(i, m)
                    continue
                widths.append(width)
            return max(widths)

        about = "" if len(indices) == len(options) and watched == indices else \
            ", ".join("pass" if options[i] is None else options[i].token for i in watched)
        moments = run_in_chunks(simulate, layout.width, run_settings, widest, about, warn=not heuristic)
        return Trials(indices, layout, moments, controls, reference, stopped)

    everyone = list(range(len(options)))
    plain = [i for i in everyone if not played[i].searches]
    searched = [i for i in everyone if played[i].searches]
    heuristic_ids = policy_ids("heuristic", rules.players)
    reference = None
    if any(played[i].controlled for i in everyone):
        # The control run: every option by the heuristic on deals of its own, to measure the means that
        # the searched options' control variates (the heuristic's play of the searched deals) are set against.
        reference = run(everyone, played[searched[0]].control_run(), searched, heuristic=True)
    counted = 0 if reference is None else reference.n
    if len(set(played)) == 1 or not plain:
        runs = [run(everyone, played[0].counting_after(counted), everyone, reference)]
    else:
        # The mixed model: the options played by the heuristic to the precision asked, and every option
        # again on the first deals (the same ones) until the searched options reach theirs, so that a
        # searched option is compared with any other on the same deals.
        plain_run = run(plain, played[plain[0]].counting_after(counted), plain)
        runs = [plain_run, run(everyone, played[searched[0]].counting_after(counted + plain_run.n), searched,
                               reference)]

    def source(i: int) -> Trials:
        """The run that values option ``i``: the first that plays it (the heuristic's, under the mixed model)."""
        return next(r for r in runs if i in r.ids)

    def difference(i: int, j: int) -> Mean:
        """Option ``i``'s score minus option ``j``'s, on deals that both were played on (0 for itself)."""
        r = source(i)
        if i == j:
            return Mean(0.0, 0.0, r.n)
        if j not in r.ids:
            r = runs[-1]                   # the run that plays every option
        return r.difference(i, j, "score")

    scores = [source(i).combination({i: 1.0}, "score") for i in everyone]
    successes = [source(i).share(i, "won") for i in everyone]
    ranked = sorted(everyone, key=lambda j: -scores[j].mean)
    result = [BidOption(o, scores[i], successes[i], difference(i, ranked[0])) for i, o in enumerate(options)]
    first = runs[0]
    margin = difference(ranked[0], ranked[1]) if len(options) > 1 else Mean(0.0, 0.0, first.n)
    searched_deals = max(r.n if any(played[i].searches for i in r.ids) else 0 for r in runs)
    return BidAdvice(rules.players, seat, hand, tuple(bids), result, margin, first.effective_n(), first.n,
                     float(noise) if weighted else 0.0, settings.play_model(rules.players, sight), searched_deals,
                     counted)
