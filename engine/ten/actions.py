"""Ten: actions and their text forms (rules §4.9, written without ':' and ',').

| text                         | action            | rules form                 |
|------------------------------|-------------------|----------------------------|
| ``draw`` / ``stop``          | Draw / Stop       | draw / stop                |
| ``take.n`` / ``take.c``      | Take              | take:num / take:cur        |
| ``bid.<k>`` / ``pass``       | Bid / Pass        | bid:<k> / pass             |
| ``pay.<t>.<b>[.<cards>]``    | Pay               | pay:<t>:<b>:<ids>          |
| ``buy.<card>.<t>.<b>[.<cards>]`` | Buy           | buy:<id>:<t>:<b>:<ids>     |
| ``nobuy``                    | NoBuy             | nobuy                      |
| ``decline``                  | Decline           | decline (solo wild offer)  |

``<card>`` is the bought market card's id (always a number card such as ``R5b``); the payment
part is described in :mod:`engine.ten.payments` (cards by type, e.g. ``R11xB2``).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.base import BadActionText, CodedAction
from engine.ten.cards import CARD_INDEX, is_number
from engine.ten.payments import Payment, parse_payment


@dataclass(frozen=True, slots=True)
class Draw(CodedAction):
    code = "draw"


@dataclass(frozen=True, slots=True)
class Stop(CodedAction):
    code = "stop"


@dataclass(frozen=True, slots=True)
class Take:
    """Take the row's number cards (``numbers=True``) or its currency."""

    numbers: bool

    def __str__(self) -> str:
        return "take.n" if self.numbers else "take.c"


@dataclass(frozen=True, slots=True)
class Bid(CodedAction):
    code = "bid"
    amount: int


@dataclass(frozen=True, slots=True)
class Pass(CodedAction):
    code = "pass"


@dataclass(frozen=True, slots=True)
class Pay(CodedAction):
    """Pay for a won auction or the solo wild offer."""

    code = "pay"
    payment: Payment


@dataclass(frozen=True, slots=True)
class Buy(CodedAction):
    code = "buy"
    card: str
    payment: Payment


@dataclass(frozen=True, slots=True)
class NoBuy(CodedAction):
    code = "nobuy"


@dataclass(frozen=True, slots=True)
class Decline(CodedAction):
    code = "decline"


TenAction = Draw | Stop | Take | Bid | Pass | Pay | Buy | NoBuy | Decline


def _simple(text: str) -> TenAction | None:
    table: dict[str, TenAction] = {
        "draw": Draw(),
        "stop": Stop(),
        "take.n": Take(True),
        "take.c": Take(False),
        "pass": Pass(),
        "nobuy": NoBuy(),
        "decline": Decline(),
    }
    return table.get(text)


def parse_action(text: str) -> TenAction:
    """Inverse of ``str(action)``; raises BadActionText for anything else."""
    if not isinstance(text, str) or len(text) > 40:
        raise BadActionText("That is not a Ten action.")
    simple = _simple(text)
    if simple is not None:
        return simple
    parts = text.split(".")
    try:
        if parts[0] == "bid" and len(parts) == 2:
            amount = parts[1]
            if amount.isascii() and amount.isdigit() and str(int(amount)) == amount:
                return Bid(int(amount))
        elif parts[0] == "pay":
            return Pay(parse_payment(parts[1:]))
        elif parts[0] == "buy" and len(parts) >= 2:
            card = parts[1]
            if card in CARD_INDEX and is_number(card):
                return Buy(card, parse_payment(parts[2:]))
    except ValueError as exc:
        raise BadActionText("That is not a Ten action.") from exc
    raise BadActionText("That is not a Ten action.")
