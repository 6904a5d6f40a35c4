"""Rules configuration: player count, contracts, deal sizes and every named variant (FFT by default).

Variants are set by name with ``NAME=VALUE`` strings (the command line's ``--variant``); the names
and values are listed in ``VARIANTS`` and documented in ``docs/rules.md``.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, fields, replace
from typing import Iterable

from analyzer.errors import RulesError, shown


class Contract(enum.IntEnum):
    """Contracts from low to high; the value orders bids."""

    PRISE = 1
    GARDE = 2
    GARDE_SANS = 3
    GARDE_CONTRE = 4

    @property
    def multiplier(self) -> int:
        return CONTRACT_MULTIPLIERS[self]

    @property
    def token(self) -> str:
        return CONTRACT_TOKENS[self]

    @property
    def chien_shown(self) -> bool:
        """Prise and Garde: the chien is shown and taken by the taker, who then discards."""
        return self <= Contract.GARDE

    @property
    def chien_to_taker(self) -> bool:
        """Whose the chien (or the discard) is at the end: the taker's except in Garde contre."""
        return self != Contract.GARDE_CONTRE

    @classmethod
    def parse(cls, text: str) -> "Contract":
        key = text.strip().lower().replace("_", "-").replace(" ", "-")
        key = CONTRACT_ALIASES.get(key, key)
        for contract, tok in CONTRACT_TOKENS.items():
            if tok == key:
                return contract
        raise RulesError(f"unknown contract {shown(text)} (expected one of: {', '.join(CONTRACT_TOKENS.values())})")


CONTRACT_MULTIPLIERS = {Contract.PRISE: 1, Contract.GARDE: 2, Contract.GARDE_SANS: 4, Contract.GARDE_CONTRE: 6}
CONTRACT_TOKENS = {Contract.PRISE: "prise", Contract.GARDE: "garde",
                   Contract.GARDE_SANS: "garde-sans", Contract.GARDE_CONTRE: "garde-contre"}
CONTRACT_ALIASES = {"petite": "prise", "take": "prise", "garde-sans-le-chien": "garde-sans",
                    "garde-contre-le-chien": "garde-contre", "guard": "garde"}


class PoigneeLevel(enum.IntEnum):
    SIMPLE = 0
    DOUBLE = 1
    TRIPLE = 2

    @classmethod
    def parse(cls, text: str) -> "PoigneeLevel":
        try:
            return cls[text.strip().upper()]
        except KeyError:
            raise RulesError(f"unknown poignée level {shown(text)} (expected simple, double or triple)") from None


# Target for the taker's side by oudlers held at the end, in half-points.
TARGET_HALF_POINTS = (112, 102, 82, 72)

HAND_SIZE = {3: 24, 4: 18, 5: 15}
CHIEN_SIZE = {3: 6, 4: 6, 5: 3}
POIGNEE_THRESHOLDS = {3: (13, 15, 18), 4: (10, 13, 15), 5: (8, 10, 13)}

# name -> (allowed values, default); the default is the FFT rule.
VARIANTS: dict[str, tuple[tuple[str, ...], str]] = {
    "petit-au-bout": (("multiplied", "flat"), "multiplied"),
    "poignee-values": (("20-30-40", "20-40-60"), "20-30-40"),
    "petit-sec": (("annul", "play"), "annul"),
    "all-pass": (("redeal", "goulash"), "redeal"),
    "misere": (("off", "on"), "off"),
    "lone-taker-share": (("4",), "4"),
    "chelem": (("fft", "petit-chelem"), "fft"),
}


@dataclass(frozen=True)
class Rules:
    """The rules a deal is played and scored under.  ``Rules()`` is FFT at 4 players."""

    players: int = 4
    petit_au_bout: str = "multiplied"
    poignee_values: str = "20-30-40"
    petit_sec: str = "annul"
    all_pass: str = "redeal"
    misere: str = "off"
    lone_taker_share: str = "4"
    chelem: str = "fft"

    def __post_init__(self) -> None:
        if self.players not in HAND_SIZE:
            raise RulesError(f"unsupported player count {self.players} (expected 3, 4 or 5)")
        for f in fields(self):
            if f.name == "players":
                continue
            allowed, _ = VARIANTS[f.name.replace("_", "-")]
            value = getattr(self, f.name)
            if value not in allowed:
                raise RulesError(
                    f"variant {f.name.replace('_', '-')}={value}: unknown value (expected {' or '.join(allowed)})")

    @classmethod
    def from_options(cls, players: int = 4, variants: Iterable[str] = ()) -> "Rules":
        """Build from ``NAME=VALUE`` strings; the error names the bad option."""
        settings: dict[str, str] = {}
        for item in variants:
            name, sep, value = item.partition("=")
            name = name.strip().lower()
            if not sep or not name or not value.strip():
                raise RulesError(f"variant {shown(item)}: expected NAME=VALUE")
            if name not in VARIANTS:
                raise RulesError(f"unknown variant {shown(name)} (known: {', '.join(VARIANTS)})")
            settings[name.replace("-", "_")] = value.strip().lower()
        return cls(players=players, **settings)

    def with_players(self, players: int) -> "Rules":
        return replace(self, players=players)

    @property
    def hand_size(self) -> int:
        return HAND_SIZE[self.players]

    @property
    def chien_size(self) -> int:
        return CHIEN_SIZE[self.players]

    @property
    def tricks(self) -> int:
        return self.hand_size

    @property
    def poignee_thresholds(self) -> tuple[int, int, int]:
        return POIGNEE_THRESHOLDS[self.players]

    def poignee_bonus(self, level: PoigneeLevel) -> int:
        values = (20, 30, 40) if self.poignee_values == "20-30-40" else (20, 40, 60)
        return values[level]

    def petit_au_bout_bonus(self, contract: Contract) -> int:
        return 10 * contract.multiplier if self.petit_au_bout == "multiplied" else 10

    @property
    def half_point_rule(self) -> bool:
        """At 3 and 5 players the taker's count may end in .5; the half goes to the winning side."""
        return self.players != 4

    def describe(self) -> dict[str, str | int]:
        return {f.name.replace("_", "-"): getattr(self, f.name) for f in fields(self)}

    def variants(self) -> dict[str, str]:
        """Every variant's value (the FFT defaults included), by name: what a command's JSON states."""
        return {name: value for name, value in self.describe().items() if name != "players"}


def target_half_points(oudlers: int) -> int:
    """Half-points the taker's side needs with ``oudlers`` oudlers at the end."""
    if not 0 <= oudlers <= 3:
        raise RulesError(f"oudlers must be 0-3, got {oudlers}")
    return TARGET_HALF_POINTS[oudlers]
