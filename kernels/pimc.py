"""Determinized search (PIMC): for each decision, draw worlds the seat cannot tell from the real one, play
each legal card in each world (a heuristic rollout, or in ``PIMC``'s last ``SOLVE_TRICKS`` tricks the exact
solver, ``kernels/endgame.py``), and play the card with the best average score.  How it works and why each
part: docs/design.md, "Determinized search (PIMC)"; what each part was measured to gain:
docs/journal/matches.md, docs/journal/search-time.md, docs/journal/inference.md.

``seat_knowledge`` is the kernel twin of ``analyzer/knowledge.py`` (and is tested against it): what the seat
has seen becomes, for each card still in play, the set of places it may be in, and worlds are drawn exactly
uniformly among those (``kernels/worlds.py``).  Rollouts after the first in a world use the heuristic with a
little noise (``NOISY``), so that several rollouts per world are not copies.  Under the FFT rule a deal with
a petit sec is annulled, so no world gives a seat a petit sec as dealt; such worlds are drawn again
(rejection keeps the draw uniform among the others).

The worlds are spent where they decide something: equivalent cards (no card between them anywhere but in
the seat's hand or the tricks won) are searched once (``candidate_classes``), and racing (``race_cut``)
stops searching a class of cards clearly behind the leader, or alike it in every world from
``RACE_ALIKE_FIRST`` worlds, and ends the decision when one class is left.  Where the worlds do not tell two
classes apart the search plays the heuristic's card (``heuristic_at``: card ids would lead a King before
the trumps), and ``PIMC`` keeps the heuristic's card unless the search's best beats it by more than
``PRIOR_Z`` standard errors of their paired difference (the prior).

Policies: ``PIMC`` (the solver, the petit sec constraint, racing, the prior); ``PIMC_FIXED`` (the same
without racing: a yardstick); ``PIMC_UNIFORM`` (none of them: a yardstick), and ``PIMC_SOLVER``,
``PIMC_CONSTRAINED``, ``PIMC_WEIGHTED``, ``PIMC_PLAYS`` and ``PIMC_PRIOR`` with one part each over it, to
measure each part in duplicate.  ``PIMC_WEIGHTED`` weighs each world by the probability of the auction
(``auction_likelihood``), ``PIMC_PLAYS`` by how well it explains the cards played (``play_likelihood``,
``resampled_worlds``); neither paid, so ``PIMC`` uses neither.  ``PIMC_PRIOR`` is the default answers'
search, racing from ``PRIOR_RACE_FIRST`` worlds; ``PIMC_CHELEM`` is it drawing at least ``CHELEM_WORLDS``
worlds for the taker's side, unraced, until its chelem is lost (``chelem_alive``, ``decision_worlds``), where
a chelem's announcement is the question or a chelem is in sight.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.extending import intrinsic

from kernels.bidding import bid_probability
from kernels.discard import KING_BITS
from kernels.endgame import (LOW_SUIT_BITS, MAX_MOVES, MID_TRUMP_BITS, W_NODE_LIMIT, card_values, merge_skip,
                             new_workspace, seat_share, trick_words)
from kernels.heuristic import ALL_TRUMPS, EXCUSE_MASK, FIRST_TRUMP_ID, ONE, ZERO, lowest_bit, popcount
from kernels.playout import (BID_METHOD, BIDS, CALLED, CHELEM, CHIEN_S, CHIEN_T, CONTRACT, EXCL_S, EXCL_T, GARDE,
                             HAND_SIZE, HEURISTIC, LEADER, NOISY, PARTNER, PARTNER_KNOWN, PETIT_SEC_ANNULLED, PIMC,
                             PLAYED_S, PLAYED_T, PLAYERS, POIGNEE_T, RESULT_SIZE, SHOWN_T, STATE_SIZE, TAKER,
                             TAKER_TRICKS, TO_THE_END, TRICK, TRICK_LEN, advance_shared, heuristic_at, legal_words,
                             play_out, side_of)
from kernels.shared import INTS, WORDS, SharedKernel
from kernels.worlds import plan_worlds, sample_plan, uniform01

PIMC_UNIFORM = 4       # worlds uniform under the voids, every world rolled out by the heuristic (no solver)
PIMC_SOLVER = 5        # PIMC_UNIFORM with the endgame solver
PIMC_CONSTRAINED = 6   # PIMC_UNIFORM with the petit sec constraint
PIMC_WEIGHTED = 7      # PIMC_UNIFORM with worlds weighted by the auction
PIMC_PLAYS = 8         # PIMC_UNIFORM with worlds resampled by how well they explain the cards played
PIMC_FIXED = 9         # PIMC without racing: every class of cards searched in every world (a yardstick)
PIMC_PRIOR = 10        # PIMC_UNIFORM keeping the heuristic's card unless beaten beyond noise (PRIOR_Z)
PIMC_CHELEM = 11       # PIMC_PRIOR, the taker's side with CHELEM_WORLDS without racing until its chelem is lost
# The inference's settings: the bidders' error around the model, in points (as ``bid --auction-noise``),
# the likelihood of a card other than the heuristic's choice (against 1 for that choice), the worlds
# drawn per world kept when resampling by the cards played, the share of equal weights mixed in, and
# the draws a world gets to meet the petit sec constraint.
AUCTION_NOISE = 8.0
PLAY_MISMATCH = 0.3
OVERSAMPLE = 4
UNIFORM_SHARE = 0.25
MAX_REDRAWS = 64
REDRAW_SALT = np.uint64(0x5DEECE66D2545F49)
NO_PAST = np.empty(0, dtype=np.int64)     # no cards played to weigh the worlds by (for Python callers)
# ``PIMC`` solves each world exactly from this many tricks before the end (by player count), each
# solve stopped past SOLVE_NODE_LIMIT nodes (that world is then rolled out).
SOLVE_TRICKS = np.array([0, 0, 0, 5, 4, 3], dtype=np.int64)
SOLVE_NODE_LIMIT = 20000
SOLVE_TABLE_BITS = 12
# Racing (``race_cut``): from RACE_FIRST worlds on, every RACE_STEP worlds, the classes of cards that
# are behind by more than RACE_Z standard errors (or, from RACE_ALIKE_FIRST worlds, behind by the same or
# tied in every world) stop being searched, and the decision stops once one class is left.
RACE_FIRST = 16
RACE_STEP = 8
RACE_Z = 2.5
# A class behind the leader by the same in every world so far, or tied with it in every one, is dropped from
# RACE_ALIKE_FIRST worlds only: a few worlds alike say little of the rare world where the cards part (a chelem,
# the Petit, a King let through; docs/journal/search-time.md, "Classes alike in every world wait for 8 worlds").
RACE_ALIKE_FIRST = 8
# ``PIMC_PRIOR`` races from PRIOR_RACE_FIRST worlds on, every PRIOR_RACE_STEP.  ``PIMC_CHELEM`` does too, but
# not for the taker's side while its chelem is alive: racing cuts a card tied with the leader in the first
# worlds, where a chelem is lost in one world of many (docs/journal/calibration.md, "A chelem in sight").
PRIOR_RACE_FIRST = 4
PRIOR_RACE_STEP = 4
# ``PIMC`` keeps the heuristic's card unless the search's best beats it by more than PRIOR_Z standard
# errors of their paired difference (with few worlds, a card ahead by chance replaced a good one).
PRIOR_Z = 1.0
# ``PIMC_CHELEM`` draws at least CHELEM_WORLDS worlds for the taker's side's decisions while every trick has
# gone to it, or all but one after a petit chelem's announcement (``decision_worlds``), its worlds per decision
# otherwise: with fewer it lets slip chelems that deep search takes (docs/design.md, "The default: the
# heuristic where it agrees, a short search where it does not"; docs/journal/calibration.md, "A chelem in sight").
CHELEM_WORLDS = 12

OUDLER_T = np.uint64(1 | 1 << 20 | 1 << 21)


@njit(cache=True)
def seat_knowledge(hs, ht, st, seat, allowed, room):
    """Fill ``allowed`` (per card: bitmask of the places it may be in; 0 out of play) and ``room``
    (cards each place holds now) with what ``seat`` knows."""
    players = st[PLAYERS]
    aside = players
    for p in range(players + 1):
        room[p] = popcount(hs[p]) + popcount(ht[p])
    everywhere = (1 << (players + 1)) - 1
    shown_chien = st[CONTRACT] <= GARDE
    taker = st[TAKER]
    known_s = ZERO
    known_t = ZERO
    forbid_s = ZERO
    forbid_t = ZERO
    chien_s = ZERO
    chien_t = ZERO
    if shown_chien:
        if seat == taker:
            known_s, known_t = hs[aside], ht[aside]
        else:
            known_t = np.uint64(st[SHOWN_T])
            chien_s = np.uint64(st[CHIEN_S])
            chien_t = np.uint64(st[CHIEN_T])
        forbid_s = KING_BITS
        forbid_t = (ALL_TRUMPS | EXCUSE_MASK) & ~np.uint64(st[SHOWN_T])
    aside_full = popcount(known_s) + popcount(known_t) == room[aside]
    excl_s = np.empty(players, dtype=np.uint64)
    excl_t = np.empty(players, dtype=np.uint64)
    held_t = np.empty(players, dtype=np.uint64)
    for s in range(players):
        excl_s[s] = np.uint64(st[EXCL_S + s])
        excl_t[s] = np.uint64(st[EXCL_T + s])
        held_t[s] = np.uint64(st[POIGNEE_T + s])
        if held_t[s] & EXCUSE_MASK != ZERO:
            excl_t[s] |= ALL_TRUMPS & ~held_t[s]       # showing the Excuse means "no more trumps"
    for card in range(78):
        allowed[card] = 0
    for p in range(players + 1):
        for word in range(2):
            x = hs[p] if word == 0 else ht[p]
            while x != ZERO:
                b = lowest_bit(x)
                x &= x - ONE
                card = b if word == 0 else FIRST_TRUMP_ID + b
                bit = ONE << np.uint64(b)
                if p == seat:
                    allowed[card] = 1 << seat
                    continue
                if (known_s if word == 0 else known_t) & bit != ZERO:
                    allowed[card] = 1 << aside
                    continue
                holder = -1
                if word == 1:
                    for s in range(players):
                        if held_t[s] & bit != ZERO:
                            holder = s
                if holder >= 0:
                    allowed[card] = 1 << holder
                    continue
                a = everywhere & ~(1 << seat)
                if aside_full or (forbid_s if word == 0 else forbid_t) & bit != ZERO:
                    a &= ~(1 << aside)
                if (chien_s if word == 0 else chien_t) & bit != ZERO:
                    a &= (1 << taker) | (1 << aside)
                for s in range(players):
                    if (excl_s[s] if word == 0 else excl_t[s]) & bit != ZERO:
                        a &= ~(1 << s)
                allowed[card] = a


@njit(cache=True, inline="always")
def world_into(place, st, seat, world_s, world_t):
    """Write the world ``place`` (each card's place, -1 out of play) as hand words into ``world_s``/
    ``world_t``; returns the taker's partner in it as ``seat`` sees it: at 5 players whoever holds the
    called card, unless the partner is already known (-1: the taker plays alone)."""
    players = st[PLAYERS]
    for p in range(players + 1):
        world_s[p] = ZERO
        world_t[p] = ZERO
    for card in range(78):
        p = place[card]
        if p < 0:
            continue
        if card < FIRST_TRUMP_ID:
            world_s[p] |= ONE << np.uint64(card)
        else:
            world_t[p] |= ONE << np.uint64(card - FIRST_TRUMP_ID)
    partner = st[PARTNER]
    if st[CALLED] >= 0 and st[PARTNER_KNOWN] == 0 and seat != partner:
        partner = place[st[CALLED]]
        if partner == players or partner == st[TAKER]:
            partner = -1
    return partner


@njit(cache=True, inline="always")
def load_world(world_s, world_t, st, partner, play_s, play_t, play_st):
    """Set up ``play_s``/``play_t``/``play_st`` to play on from the position ``st`` in the world
    ``world_s``/``world_t`` whose taker's partner is ``partner`` (``draw_world``'s)."""
    for p in range(st[PLAYERS] + 1):
        play_s[p] = world_s[p]
        play_t[p] = world_t[p]
    for i in range(STATE_SIZE):
        play_st[i] = st[i]
    play_st[PARTNER] = partner


@njit(cache=True, inline="always")
def is_search(policy):
    return PIMC <= policy <= PIMC_CHELEM


@njit(cache=True, inline="always")
def search_features(policy):
    """(solves the ending, applies the petit sec constraint, weights worlds by the auction, weights
    worlds by the cards played, races, keeps the heuristic's card unless beaten beyond noise, and the
    worlds racing starts from and steps by)."""
    if policy == PIMC or policy == PIMC_FIXED:
        return True, True, False, False, policy == PIMC, True, RACE_FIRST, RACE_STEP
    prior = policy == PIMC_PRIOR or policy == PIMC_CHELEM
    return (policy == PIMC_SOLVER, policy == PIMC_CONSTRAINED, policy == PIMC_WEIGHTED, policy == PIMC_PLAYS,
            prior, prior, PRIOR_RACE_FIRST, PRIOR_RACE_STEP)


@njit(cache=True, inline="always")
def hand_as_dealt(world_s, world_t, st, s):
    """Seat ``s``'s hand as dealt in a world: its cards now and those it played; a taker who took
    the shown chien also had the discard and not the chien."""
    hand_s = world_s[s] | np.uint64(st[PLAYED_S + s])
    hand_t = world_t[s] | np.uint64(st[PLAYED_T + s])
    players = st[PLAYERS]
    if s == st[TAKER] and st[CONTRACT] <= GARDE:
        hand_s = (hand_s | world_s[players]) & ~np.uint64(st[CHIEN_S])
        hand_t = (hand_t | world_t[players]) & ~np.uint64(st[CHIEN_T])
    return hand_s, hand_t


@njit(cache=True)
def dealt_petit_sec(world_s, world_t, st, seat):
    """Whether a seat other than ``seat`` was dealt a petit sec in this world (the Petit its only
    trump, without the Excuse)."""
    for s in range(st[PLAYERS]):
        if s != seat and hand_as_dealt(world_s, world_t, st, s)[1] == ONE:
            return True
    return False


@njit(cache=True)
def auction_likelihood(world_s, world_t, st, seat, noise):
    """P(the seats other than ``seat`` bid as recorded) in this world, each seat bidding by the
    recorded model on its hand as dealt with a normal error of ``noise`` points (1 when the auction
    is not known; a bid not recorded, -1, tells nothing)."""
    method = st[BID_METHOD]
    players = st[PLAYERS]
    if method < 0:
        return 1.0
    likelihood = 1.0
    best = np.int64(0)          # not a constant 0: bid_probability would be compiled for it too
    for s in range(players):
        bid = st[BIDS + s]
        if bid < 0:                     # not recorded: no evidence
            continue
        if s != seat:
            hand_s, hand_t = hand_as_dealt(world_s, world_t, st, s)
            likelihood *= bid_probability(hand_s, hand_t, method, players, best, bid, noise)
        if bid > best:
            best = bid
    return likelihood


@njit(cache=True)
def replay_scratch(players):
    """The arrays ``play_likelihood`` replays a deal in (hands, state, result, policies, trace, and a copy
    of the hands and state with a one-card trace, to ask the heuristic), allocated once per decision rather
    than once per world."""
    return (np.empty(players + 1, dtype=np.uint64), np.empty(players + 1, dtype=np.uint64),
            np.empty(STATE_SIZE, dtype=np.int64), np.empty(RESULT_SIZE, dtype=np.int64),
            np.full(players, HEURISTIC, dtype=np.int64), np.empty(0, dtype=np.int16),
            np.empty(players + 1, dtype=np.uint64), np.empty(players + 1, dtype=np.uint64),
            np.empty(STATE_SIZE, dtype=np.int64), np.empty(1, dtype=np.int16))


@njit(cache=True)
def play_likelihood(world_s, world_t, st, start, past, seat, partner, mismatch, scratch):
    """How well this world explains the cards ``past`` the seats other than ``seat`` played from the
    position ``start``: the product over those cards of 1 when the card is the heuristic's choice in
    the world (what ``kernels.playout.advance`` plays for ``HEURISTIC``) and ``mismatch`` when not.  A
    likelihood up to a constant factor, on purpose not divided by the number of legal cards: players are
    not random, and dividing would favour worlds where a seat had few cards to choose from (it lost in duplicate:
    docs/journal/inference.md).  The world's hands at ``start`` are its hands now and the cards each
    seat played since; the replay runs in ``scratch`` (``replay_scratch``)."""
    rs, rt, rst, result, policies, no_trace, cs, ct, cst, one = scratch
    players = st[PLAYERS]
    for p in range(players + 1):
        rs[p] = world_s[p]
        rt[p] = world_t[p]
    for s in range(players):
        rs[s] |= np.uint64(st[PLAYED_S + s]) & ~np.uint64(start[PLAYED_S + s])
        rt[s] |= np.uint64(st[PLAYED_T + s]) & ~np.uint64(start[PLAYED_T + s])
    for i in range(STATE_SIZE):
        rst[i] = start[i]
    rst[PARTNER] = partner
    likelihood = 1.0
    for k in range(past.shape[0]):
        s = (rst[LEADER] + rst[TRICK_LEN]) % players
        if s != seat:
            # The heuristic's card played on the replay by ``advance`` (the card is compiled there only); where
            # it is not the card played, the replay goes back a card and plays that one.
            for p in range(players + 1):
                cs[p] = rs[p]
                ct[p] = rt[p]
            for i in range(STATE_SIZE):
                cst[i] = rst[i]
            advance_shared(rs, rt, rst, policies, ZERO, past[k:k], np.int64(1), result, one)
            if one[0] == past[k]:
                continue
            likelihood *= mismatch
            for p in range(players + 1):
                rs[p] = cs[p]
                rt[p] = ct[p]
            for i in range(STATE_SIZE):
                rst[i] = cst[i]
        advance_shared(rs, rt, rst, policies, ZERO, past[k:k + 1], np.int64(1), result, no_trace)
    return likelihood


@njit(cache=True)
def resampled_worlds(sampler, state, st, seat, constrain, start, past, worlds, kept_s, kept_t, kept_partner,
                     kept_count):
    """Worlds in proportion to how well they explain the cards played: ``OVERSAMPLE`` x ``worlds``
    worlds are drawn (``draw_world``), each weighed by ``play_likelihood`` mixed with equal weights
    (``mixture_weights``), and ``worlds`` of them kept by systematic resampling.  The distinct worlds
    kept go to ``kept_s``/``kept_t``/``kept_partner`` with the times each was drawn in ``kept_count``;
    returns (RNG state, their number)."""
    players = st[PLAYERS]
    n = worlds * OVERSAMPLE
    drawn_s = np.empty((n, players + 1), dtype=np.uint64)
    drawn_t = np.empty((n, players + 1), dtype=np.uint64)
    drawn_partner = np.empty(n, dtype=np.int64)
    likelihood = np.empty(n, dtype=np.float64)
    place = np.empty(78, dtype=np.int64)
    scratch = replay_scratch(players)
    for i in range(n):
        state, drawn_partner[i] = draw_world(sampler, state, place, st, seat, constrain, drawn_s[i], drawn_t[i])
        likelihood[i] = play_likelihood(drawn_s[i], drawn_t[i], st, start, past, seat, drawn_partner[i], PLAY_MISMATCH,
                                        scratch)
    weights = np.empty(n, dtype=np.float64)
    mixture_weights(likelihood, weights)
    counts = np.empty(n, dtype=np.int64)
    state, u = uniform01(state)
    systematic_counts(weights, worlds, u, counts)
    kept = 0
    for i in range(n):
        if counts[i] > 0:
            kept_s[kept] = drawn_s[i]
            kept_t[kept] = drawn_t[i]
            kept_partner[kept] = drawn_partner[i]
            kept_count[kept] = counts[i]
            kept += 1
    return state, kept


@njit(cache=True)
def systematic_counts(weights, n, u, counts):
    """Systematic resampling: how many of ``n`` draws each item gets (into ``counts``) when the draws
    are the points (u + k) / n, k = 0…n-1, of the weights' cumulative sum (``u`` uniform in [0, 1),
    weights summing to 1).  Each item gets ⌊n·w⌋ or ⌈n·w⌉ draws, the last one what rounding left."""
    m = weights.shape[0]
    cumulative = 0.0
    given = 0
    for i in range(m):
        cumulative += weights[i]
        count = 0
        while given + count < n and ((u + given + count) / n < cumulative or i == m - 1):
            count += 1
        counts[i] = count
        given += count


@njit(cache=True)
def seat_sampler(hs, ht, st, seat):
    """The plan (``kernels.worlds.plan_worlds``) of the worlds ``seat`` cannot tell from the real one,
    for ``draw_world``; the aside is the place it may open (the Kings and trumps that cannot be in it)."""
    players = st[PLAYERS]
    allowed = np.empty(78, dtype=np.int64)
    room = np.empty(players + 1, dtype=np.int64)
    seat_knowledge(hs, ht, st, seat, allowed, room)
    return plan_worlds(allowed, room, players)


@njit(cache=True)
def draw_world(sampler, state, place, st, seat, constrain, world_s, world_t):
    """A world (``seat_sampler``) into ``place`` and ``world_s``/``world_t``, drawn again (up to
    ``MAX_REDRAWS`` times) while it breaks the petit sec constraint when ``constrain``; returns (RNG
    state, the partner as ``seat`` sees it).  The redraws come from a stream of their own, so that the
    main stream advances by one world whatever happens: with and without the constraint the search
    sees the same worlds but the few it rejects (common random numbers when the two are compared).
    One call site each for the inlined ``sample_plan`` and ``world_into``: the first draw and the
    redraws go round the same loop."""
    main = state
    stream = state
    partner = np.int64(-1)
    for k in range(MAX_REDRAWS + 1):
        stream = sample_plan(sampler, stream, place)
        partner = world_into(place, st, seat, world_s, world_t)
        if k == 0:
            main = stream
            if not constrain or st[PETIT_SEC_ANNULLED] == 0:
                break
            stream = main ^ REDRAW_SALT
        if k == MAX_REDRAWS or not dealt_petit_sec(world_s, world_t, st, seat):
            break
    return main, partner


@njit(cache=True)
def mixture_weights(likelihood, out):
    """Per world: (1 - UNIFORM_SHARE) x its share of the total likelihood + UNIFORM_SHARE / worlds
    (exactly equal weights when the likelihoods are equal or all 0)."""
    n = likelihood.shape[0]
    total = 0.0
    equal = True
    for i in range(n):
        total += likelihood[i]
        equal = equal and likelihood[i] == likelihood[0]
    for i in range(n):
        out[i] = 1.0 / n if total <= 0.0 or equal else (1.0 - UNIFORM_SHARE) * likelihood[i] / total + UNIFORM_SHARE / n


@njit(cache=True)
def candidate_classes(hs, ht, st, seat, legal_s, legal_t, candidates, rep):
    """Equivalent legal cards, as the seat sees them: ``rep[j]`` is the index of the candidate that
    stands for ``candidates[j]`` (ascending card ids), the highest of its class; returns the number
    of classes.  Two cards of the seat's hand are equivalent when they are worth one half-point each
    (spot cards of one suit, or trumps 2 to 20) and no card between them is anywhere but in the
    seat's hand or in the tricks already won: the other hands, the cards aside (which some seats
    count as still out) and the trick in play are the same cards in every world the seat can draw,
    so a card of the class wins, loses and scores as any other.  Trumps the seat showed in a poignée
    are not merged (the others know them).  The endgame solver merges the same way within a world
    (``kernels.endgame.merge_skip``)."""
    players = st[PLAYERS]
    trick_s, trick_t = trick_words(st)
    out_s = np.uint64(trick_s)
    out_t = np.uint64(trick_t)
    for p in range(players + 1):
        out_s |= hs[p]
        out_t |= ht[p]
    mergeable_t = MID_TRUMP_BITS & ~np.uint64(st[POIGNEE_T + seat])
    n = candidates.shape[0]
    classes = 0
    for j in range(n - 1, -1, -1):
        card = candidates[j]
        if card < FIRST_TRUMP_ID:
            merged = merge_skip(ONE << np.uint64(card), legal_s, out_s, LOW_SUIT_BITS)
        else:
            merged = merge_skip(ONE << np.uint64(card - FIRST_TRUMP_ID), legal_t, out_t, mergeable_t)
        # The equivalent card merge_skip found is the next card in play above, legal: the next candidate.
        rep[j] = rep[j + 1] if merged else j
        classes += int(not merged)
    return classes


@njit(cache=True)
def paired_difference(values, n, a, b):
    """(mean, sample variance) of ``values[v, a] - values[v, b]`` over the first ``n`` rows."""
    sum_d = 0.0
    sum_d2 = 0.0
    for v in range(n):
        d = values[v, a] - values[v, b]
        sum_d += d
        sum_d2 += d * d
    mean = sum_d / n
    return mean, max(sum_d2 / n - mean * mean, 0.0) * n / max(n - 1, 1)


@njit(cache=True, inline="always")
def beyond_noise(mean, var, n, z):
    """Whether a paired difference of ``mean`` and sample variance ``var`` over ``n`` worlds is positive
    by more than ``z`` standard errors (a positive difference the same in every world always is)."""
    return mean > 0.0 and mean * mean * n > z * z * var


@njit(cache=True)
def race_cut(values, n, alive, preferred):
    """Successive elimination after ``n`` worlds: the leader is the class with the best mean value
    (among equals the class ``preferred``, else the first); a class is dropped when the leader beats
    it on average by more than ``RACE_Z`` standard errors of the paired difference world by world,
    or, from ``RACE_ALIKE_FIRST`` worlds, by the same in every world so far or ties it in every one.
    ``alive`` marks the classes still searched; returns their number."""
    m = values.shape[1]
    lead = np.int64(-1)         # np.int64: not a constant, which paired_difference would be compiled for
    lead_total = -np.inf
    for j in range(m):
        if alive[j]:
            total = 0.0
            for v in range(n):
                total += values[v, j]
            if total > lead_total or (total == lead_total and j == preferred):
                lead, lead_total = j, total
    left = 0
    for j in range(m):
        if not alive[j]:
            continue
        if j != lead:
            mean, var = paired_difference(values, n, lead, j)
            if beyond_noise(mean, var, n, RACE_Z) if var > 0.0 else n >= RACE_ALIKE_FIRST:
                alive[j] = False
                continue
        left += 1
    return left


@njit(cache=True)
def pimc_card_solving(hs, ht, st, worlds, rollouts, state, solve_tricks, w, constrain, weigh, start, past, race,
                      prior, race_first, race_step):
    """The card PIMC plays for the seat to play; returns (card, RNG state).  From ``solve_tricks``
    tricks before the end (the trick in play counted; 0: never) each world is solved exactly
    (``kernels/endgame.py``, workspace ``w`` with its node limit) instead of rolled out, the seat's
    score under perfect play by all replacing the heuristic's; a world the solver gives up on is
    rolled out.  ``constrain``: worlds meet the petit sec constraint; ``weigh``: each world's values
    count by its auction weight (``mixture_weights``), not equally.  When ``past`` holds the cards
    played since the position ``start`` (empty: none known), the worlds are resampled in proportion
    to how well they explain those cards (``resampled_worlds``), each counting as often as it was
    drawn.  ``weigh`` and ``past`` ``None``: neither (the users' search, compiled without the inference).
    Equivalent cards share one rollout (``candidate_classes``); ``race`` (unweighted worlds only): a
    decision whose legal cards are all equivalent draws no world, and before the solved endings the classes
    ruled out by the worlds so far stop being searched (``race_cut``), the decision ending when one is left
    (after ``race_first`` worlds and every ``race_step``).  Equal values go to the heuristic's card;
    ``prior`` (equal weights only): the heuristic's card is played unless the best card beats it by more
    than ``PRIOR_Z`` standard errors of their paired difference over the worlds searched."""
    players = st[PLAYERS]
    seat = (st[LEADER] + st[TRICK_LEN]) % players
    legal_s, legal_t = legal_words(hs[seat], ht[seat], st)
    n_legal = popcount(legal_s) + popcount(legal_t)
    candidates = np.empty(n_legal, dtype=np.int64)
    k = 0
    x = legal_s
    while x != ZERO:
        candidates[k] = lowest_bit(x)
        x &= x - ONE
        k += 1
    x = legal_t
    while x != ZERO:
        candidates[k] = FIRST_TRUMP_ID + lowest_bit(x)
        x &= x - ONE
        k += 1
    if n_legal == 1:
        return candidates[0], state
    rep = np.empty(n_legal, dtype=np.int64)
    n_alive = candidate_classes(hs, ht, st, seat, legal_s, legal_t, candidates, rep)
    alive = np.empty(n_legal, dtype=np.bool_)
    for j in range(n_legal):
        alive[j] = rep[j] == j
    # ``weigh`` and ``past`` are None in the users' search: the branches on them are then pruned where it
    # compiles, and the inference's code (``auction_likelihood``, ``resampled_worlds``) is not compiled in.
    weighted = False
    if weigh is not None:
        weighted = weigh
    weigh_plays = False
    if past is not None:
        weigh_plays = past.shape[0] > 0
    race = race and not weighted and not weigh_plays
    if race and n_alive == 1:
        return candidates[0], state                 # every legal card plays alike
    # Ties go to the heuristic's card: where no world tells two cards apart (a King or a trump
    # when no world shows a void), the id order would lead the King before the trumps.
    mine = heuristic_at(hs, ht, st)
    preferred = np.int64(0)
    for j in range(n_legal):
        if candidates[j] == mine:
            preferred = j
    sampler = seat_sampler(hs, ht, st, seat)
    place = np.empty(78, dtype=np.int64)
    world_s = np.empty(players + 1, dtype=np.uint64)
    world_t = np.empty(players + 1, dtype=np.uint64)
    play_s = np.empty(players + 1, dtype=np.uint64)
    play_t = np.empty(players + 1, dtype=np.uint64)
    play_st = np.empty(STATE_SIZE, dtype=np.int64)
    forced = np.empty(1, dtype=np.int64)
    result = np.empty(RESULT_SIZE, dtype=np.int64)
    no_trace = np.empty(0, dtype=np.int16)
    first = np.full(players, HEURISTIC, dtype=np.int64)
    noisy = np.full(players, NOISY, dtype=np.int64)
    values = np.zeros((worlds, n_legal), dtype=np.float64)
    likelihood = np.ones(worlds, dtype=np.float64)
    n_eval = worlds
    if past is not None:
        if weigh_plays:
            kept_s = np.empty((worlds, players + 1), dtype=np.uint64)
            kept_t = np.empty((worlds, players + 1), dtype=np.uint64)
            kept_partner = np.empty(worlds, dtype=np.int64)
            kept_count = np.empty(worlds, dtype=np.int64)
            state, n_eval = resampled_worlds(sampler, state, st, seat, constrain, start, past, worlds, kept_s,
                                             kept_t, kept_partner, kept_count)
    solving = solve_tricks > 0 and HAND_SIZE[players] - st[TRICK] <= solve_tricks
    race = race and not solving      # solved endings: every class in every world (a rare world can swing an ending)
    solved_cards = np.empty(MAX_MOVES, dtype=np.int64)
    solved_values = np.empty(MAX_MOVES, dtype=np.int64)
    evaluated = n_eval
    for v in range(n_eval):
        kept = False
        if past is not None:
            if weigh_plays:
                for p in range(players + 1):
                    world_s[p] = kept_s[v, p]
                    world_t[p] = kept_t[v, p]
                partner = kept_partner[v]
                kept = True
        if not kept:
            state, partner = draw_world(sampler, state, place, st, seat, constrain, world_s, world_t)
        if weigh is not None:
            if weigh:
                likelihood[v] = auction_likelihood(world_s, world_t, st, seat, AUCTION_NOISE)
        solved = False
        if solving:
            load_world(world_s, world_t, st, partner, play_s, play_t, play_st)
            m = card_values(play_s, play_t, play_st, w, np.bool_(True), solved_cards, solved_values)
            solved = m == n_legal
            if solved:
                share = seat_share(players, st[TAKER], partner, seat)
                for i in range(m):
                    for j in range(n_legal):
                        if candidates[j] == solved_cards[i]:
                            values[v, j] = share * solved_values[i]
        if not solved:
            for j in range(n_legal):
                if not alive[j]:
                    continue
                for r in range(rollouts):
                    load_world(world_s, world_t, st, partner, play_s, play_t, play_st)
                    forced[0] = candidates[j]
                    state, _ = advance_shared(play_s, play_t, play_st, first if r == 0 else noisy, state, forced,
                                              np.int64(TO_THE_END), result, no_trace)
                    values[v, j] += result[seat]
            for j in range(n_legal):
                values[v, j] = values[v, rep[j]]        # an equivalent card scores as its class's
        if race and n_alive > 1 and v + 1 >= race_first and (v + 1) % race_step == 0 and v + 1 < n_eval:
            n_alive = race_cut(values, v + 1, alive, rep[preferred])
            if n_alive == 1:
                evaluated = v + 1
                break
    weights = np.ones(worlds, dtype=np.float64)
    if weigh is not None:
        if weigh:
            mixture_weights(likelihood, weights)
    if past is not None:
        if weigh_plays:
            for v in range(n_eval):
                weights[v] *= kept_count[v]
    best = np.int64(0)
    best_total = -np.inf
    for j in range(n_legal):
        if not alive[rep[j]]:
            continue
        total = 0.0
        for v in range(evaluated):
            total += weights[v] * values[v, j]
        if total > best_total or (total == best_total and j == preferred):
            best, best_total = j, total
    if prior and not weighted and not weigh_plays and rep[best] != rep[preferred] and alive[rep[preferred]]:
        mean, var = paired_difference(values, evaluated, best, preferred)
        if not beyond_noise(mean, var, evaluated, PRIOR_Z):
            best = preferred
    return candidates[best], state


# The users' search (no inference: ``weigh`` and ``past`` None), its argument and return types exactly:
# compiled once per process and called through a pointer by the kernels that search (kernels/shared.py),
# not linked into each of them.  The inference's variant (the quality commands') is called directly.
SEARCH_TYPES = (WORDS, WORDS, INTS, types.int64, types.int64, types.uint64, types.int64, INTS, types.boolean,
                types.none, INTS, types.none, types.boolean, types.boolean, types.int64, types.int64)
USERS_SEARCH = SharedKernel(pimc_card_solving, "search", SEARCH_TYPES, types.Tuple((types.int64, types.uint64)))


@intrinsic
def search_card(typingctx, hs, ht, st, worlds, rollouts, state, solve_tricks, w, constrain, weigh, start, past, race,
                prior, race_first, race_step):
    """``pimc_card_solving`` with the users' search's types, through its one compiled copy (``USERS_SEARCH``)."""
    return USERS_SEARCH.typed(hs, ht, st, worlds, rollouts, state, solve_tricks, w, constrain, weigh, start, past,
                              race, prior, race_first, race_step)


@njit(cache=True)
def chelem_alive(st, seat, policy):
    """Whether ``seat``'s decision is one ``PIMC_CHELEM`` searches for the chelem: the taker's side's while
    every trick so far is its own, or all but one when it announced a petit chelem (variant
    chelem=petit-chelem)."""
    spare = 1 if st[CHELEM] == 2 else 0
    return policy == PIMC_CHELEM and side_of(st, seat) == 1 and st[TRICK] - st[TAKER_TRICKS] <= spare


@njit(cache=True)
def decision_worlds(st, seat, policy, worlds):
    """The most worlds the search of ``policy`` draws for ``seat``'s decision: ``worlds``, but at least
    ``CHELEM_WORLDS`` where the chelem search's chelem is alive (``chelem_alive``)."""
    if chelem_alive(st, seat, policy):
        return max(worlds, CHELEM_WORLDS)
    return worlds


# ``play_out_search``'s ``inferring`` where a seat's policy may be ``PIMC_WEIGHTED`` or ``PIMC_PLAYS`` (the
# inference's yardsticks, ``match``'s); ``None`` elsewhere: the search compiled without the inference.
INFER = np.int64(1)


@njit(cache=True)
def play_out_search(hs, ht, st, policies, worlds, rollouts, state, result, trace, inferring):
    """Play to the end like ``kernels.playout.play_out``, with seats whose policy is a search
    (``is_search``) deciding by determinized search with that policy's features (``search_features``;
    the solver from ``SOLVE_TRICKS``; their worlds by ``decision_worlds``); returns the RNG state.
    ``inferring``: ``INFER``, or ``None`` where no policy is ``PIMC_WEIGHTED`` or ``PIMC_PLAYS`` (they then
    play as ``PIMC_UNIFORM``): the branch on it is pruned where it compiles, and the users' commands compile
    the search without the inference's code (docs/journal/compiling.md)."""
    return search_loop(hs, ht, st, policies, worlds, rollouts, state, result, trace, inferring)


@njit(cache=True, inline="always")
def search_loop(hs, ht, st, policies, worlds, rollouts, state, result, trace, inferring):
    """``play_out_search``'s loop, inlined where the drivers play (``play_to_end``): compiled on its own, it
    was one more layer linking and optimising the whole search again (docs/journal/compiling.md)."""
    players = st[PLAYERS]
    n_tricks = HAND_SIZE[players]
    w = new_workspace(np.int64(SOLVE_TABLE_BITS))
    w[W_NODE_LIMIT] = SOLVE_NODE_LIMIT
    forced = np.empty(1, dtype=np.int64)
    none = np.empty(0, dtype=np.int64)
    start = st.copy()
    past = np.empty(HAND_SIZE[players] * players, dtype=np.int64)
    card = np.empty(1, dtype=np.int16)
    k = 0
    while st[TRICK] < n_tricks:
        seat = (st[LEADER] + st[TRICK_LEN]) % players
        if is_search(policies[seat]):
            solves, constrain, weigh, weigh_plays, race, prior, race_first, race_step = search_features(policies[seat])
            solve_tricks = SOLVE_TRICKS[players] if solves else 0
            drawn = decision_worlds(st, seat, policies[seat], worlds)
            race = race and not chelem_alive(st, seat, policies[seat])
            if inferring is None:
                forced[0], state = search_card(hs, ht, st, drawn, rollouts, state, solve_tricks, w, constrain,
                                               None, start, None, race, prior, race_first, race_step)
            else:
                forced[0], state = pimc_card_solving(hs, ht, st, drawn, rollouts, state, solve_tricks, w, constrain,
                                                     weigh, start, past[:k] if weigh_plays else past[:0], race,
                                                     prior, race_first, race_step)
            state, _ = advance_shared(hs, ht, st, policies, state, forced, np.int64(1), result, card)
        else:
            state, _ = advance_shared(hs, ht, st, policies, state, none, np.int64(1), result, card)
        past[k] = card[0]
        if k < trace.shape[0]:
            trace[k] = card[0]
        k += 1
    return state


@njit(cache=True, inline="always")
def play_to_end(hs, ht, st, policies, worlds, state, result, trace):
    """``play_out``, or ``play_out_search`` (one rollout per world) when some seat's policy is PIMC:
    the search's card-by-card loop only where it is needed.  Returns the RNG state."""
    for s in range(st[PLAYERS]):
        if is_search(policies[s]):
            return search_loop(hs, ht, st, policies, worlds, np.int64(1), state, result, trace, None)
    return play_out(hs, ht, st, policies, state, result, trace)


# ``play_deal``'s ``searching`` where some seat may search (``None`` where none does).
SEARCH = np.int64(1)


@njit(cache=True, inline="always")
def play_deal(searching, hs, ht, st, policies, worlds, state, result, trace):
    """``play_to_end``, or ``play_out`` when ``searching`` is ``None`` (no seat's policy then searches).
    The choice is made by the argument's type where the caller compiles (a branch on ``is None`` that Numba
    prunes, through inlined callers too): each batch driver is compiled in two versions, one of which is
    given ``None`` and so never compiles the search, for the commands that do not
    search (``--policy heuristic``: a first run compiles far less; docs/journal/compiling.md,
    docs/journal/2026-11-29-first-runs.md).
    ``SEARCH`` (an int64, not a constant ``True``: a literal would be typed twice, and an ``@overload``
    choosing by a literal compiled its whole search once more only to learn its type)."""
    if searching is None:
        return play_out(hs, ht, st, policies, state, result, trace)
    return play_to_end(hs, ht, st, policies, worlds, state, result, trace)
