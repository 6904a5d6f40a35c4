"""Typed errors.  Each subclasses ``ValueError`` and its message names the bad token or option; and the one
warning an answer can carry (``PrecisionNotReached``)."""

SHOWN_CHARACTERS = 20


def shown(token: str) -> str:
    """``token`` quoted for a message, cut to its first characters when it is long (a whole hand pasted
    without spaces must not fill the screen)."""
    if len(token) > SHOWN_CHARACTERS:
        return repr(token[:SHOWN_CHARACTERS]) + "…"
    return repr(token)


class TarotError(ValueError):
    """Base of every error the analyzer raises for bad input or an illegal action."""


class InvalidNotationError(TarotError):
    """A token that is not a card in the notation of ``docs/notation.md``."""

    def __init__(self, token: str, why: str = "unknown card token"):
        self.token = token
        super().__init__(f"{why}: {shown(token)}")


class DuplicateCardError(TarotError):
    """The same card given twice in one hand."""

    def __init__(self, token: str):
        self.token = token
        super().__init__(f"duplicate card: {token!r}")


class WrongCardCountError(TarotError):
    """A hand (or chien) with the wrong number of cards for the player count."""

    def __init__(self, what: str, got: int, expected: int, players: int, hint: str = ""):
        self.got, self.expected = got, expected
        super().__init__(f"{what} has {got} cards, expected {expected} at {players} players"
                         + (f": {hint}" if hint else ""))


class CardPlacedElsewhereError(TarotError):
    """A card given for one place that is already in another (chien, another seat)."""

    def __init__(self, token: str, where: str, elsewhere: str):
        self.token = token
        super().__init__(f"card {token!r} given for {where} is already in {elsewhere}")


class RulesError(TarotError):
    """A bad rules option or scoring input (unknown contract, variant, impossible count …)."""


class AnnulledDealError(TarotError):
    """A hand whose deal the rules annul (petit sec, under the default petit-sec=annul): nothing to analyse."""


class IllegalActionError(TarotError):
    """An action the rules forbid in the current state of a game."""


class SizeLimitError(TarotError):
    """A run asked for more deals or hands than the analyzer holds in memory (the bounds are in --help)."""


class PrecisionNotReached(UserWarning):
    """A run asked to reach a precision stopped at its deal limit first (the answer stands, less sure)."""
