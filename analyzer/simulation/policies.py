"""The one registry of card-play policies: every name a user or a yardstick may give, its kernel id, and
who it is for.  Every list of policy names (the settings' check, the Click choices, ``match``'s,
``play_deals``') is a view of ``POLICIES``."""

from __future__ import annotations

from dataclasses import dataclass

from kernels.pimc import (PIMC_CHELEM, PIMC_CONSTRAINED, PIMC_FIXED, PIMC_PLAYS, PIMC_PRIOR, PIMC_SOLVER,
                          PIMC_UNIFORM, PIMC_WEIGHTED)
from kernels.playout import HEURISTIC, PIMC, RANDOM

MIXED = "mixed"

# Who a policy is for: ADVICE (a player's choice in the advice commands, and a run's settings), PLAY (a
# run's settings, not offered to players: the mixed model's searches and their yardstick) and MATCH (a
# component of the search measured alone, in duplicate matches only).
ADVICE, PLAY, MATCH = "advice", "play", "match"


@dataclass(frozen=True)
class Policy:
    name: str
    kernel: int | None      # the kernels' policy id; None: the mixed model, which picks one per contract
    use: str                # ADVICE, PLAY or MATCH
    searches: bool          # decides by determinized search, the mixed model for some contracts (the batch
                            # drivers then compile the search in)
    help: str               # what it does, in words a player understands
    menu: int | None = None  # its place in the advice commands' --policy choices (ADVICE only)


# In this order in ``match``'s choices and the error messages.
POLICIES: dict[str, Policy] = {p.name: p for p in (
    Policy(MIXED, None, ADVICE, True,
           "searches the contracts where the quick rules go wrong and plays the others by them (seconds)", 0),
    Policy("random", RANDOM, ADVICE, False, "plays any legal card (a baseline)", 3),
    Policy("heuristic", HEURISTIC, ADVICE, False, "plays by quick rules of thumb (under a second, rougher)", 1),
    Policy("pimc", PIMC, ADVICE, True, "searches every card over sampled deals (minutes, the strongest)", 2),
    Policy("pimc-uniform", PIMC_UNIFORM, PLAY, True, "the search without its endgame solver (a yardstick)"),
    Policy("pimc-prior", PIMC_PRIOR, PLAY, True,
           "pimc-uniform keeping the heuristic's card unless another beats it beyond noise (the mixed model's)"),
    Policy("pimc-chelem", PIMC_CHELEM, PLAY, True,
           "pimc-prior whose taker's side searches more worlds until its chelem is lost"),
    Policy("pimc-solver", PIMC_SOLVER, MATCH, True, "pimc-uniform with the endgame solver"),
    Policy("pimc-constrained", PIMC_CONSTRAINED, MATCH, True, "pimc-uniform with the petit sec constraint"),
    Policy("pimc-weighted", PIMC_WEIGHTED, MATCH, True, "pimc-uniform with worlds weighted by the auction"),
    Policy("pimc-plays", PIMC_PLAYS, MATCH, True, "pimc-uniform with worlds weighted by the cards played"),
    Policy("pimc-fixed", PIMC_FIXED, MATCH, True, "pimc without racing (every world searched for every card)"),
)}

# The policies a run's settings play by, name -> kernel id (the mixed model picks among them).
PLAY_POLICY_IDS: dict[str, int] = {n: p.kernel for n, p in POLICIES.items() if p.use in (ADVICE, PLAY)
                                   and p.kernel is not None}
# Every policy a duplicate match may set against another, name -> kernel id.
MATCH_POLICY_IDS: dict[str, int] = {n: p.kernel for n, p in POLICIES.items() if p.kernel is not None}
# The policies that play without search, name -> kernel id (``analyzer.simulate.play_deals``).
FAST_POLICY_IDS: dict[str, int] = {n: p.kernel for n, p in POLICIES.items() if p.kernel is not None
                                   and not p.searches}


def advice_choices() -> list[str]:
    """The policies a player may choose in an advice command, the default first."""
    return sorted((n for n, p in POLICIES.items() if p.menu is not None), key=lambda n: POLICIES[n].menu)


def play_choices() -> list[str]:
    """The policies that play one known deal (``analyze``): every advice policy but the mixed model, which
    picks a play by contract."""
    return [n for n in advice_choices() if POLICIES[n].kernel is not None]


def kernel_id(name: str) -> int:
    """The kernel id of policy ``name`` (the mixed model has none: its settings pick one per contract)."""
    policy = POLICIES.get(name)
    if policy is None or policy.kernel is None:
        raise ValueError(f"unknown policy {name!r} (expected one of: {', '.join(MATCH_POLICY_IDS)})")
    return policy.kernel


def choices_help(names: list[str]) -> str:
    """The policies ``names`` in words, for a --policy option's help."""
    return "; ".join(f"{n} {POLICIES[n].help}" for n in names)
