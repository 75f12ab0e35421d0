"""Ten: the immutable game state, the turn log and their JSON form."""

from __future__ import annotations

import json
from dataclasses import dataclass, fields
from typing import Any, Final

# Phases (rules §4.1).
DRAW: Final = "draw"  # DRAW_DECISION
BID: Final = "bid"  # AUCTION_BID
PAY: Final = "pay"  # AUCTION_PAY
REWARD: Final = "reward"  # REWARD_CHOICE
BUY: Final = "buy"
FINAL_BUY: Final = "final_buy"
SOLO_WILD: Final = "solo_wild"  # SOLO_WILD_OFFER
OVER: Final = "over"  # GAME_OVER

# Turn results.
BUST_NUMBER: Final = "bust_number"
BUST_CURRENCY: Final = "bust_currency"
TAKE_NUM: Final = "take_num"
TAKE_CUR: Final = "take_cur"


@dataclass(frozen=True, slots=True)
class AuctionRecord:
    """One wild drawn this turn: the bids (amount 0 = pass), who won it and how they paid."""

    wild: str
    bids: tuple[tuple[int, int], ...] = ()  # (seat, amount); amount 0 is a pass
    winner: int = -1  # -1: nobody took it (discarded)
    price: int = 0
    payment: str = ""  # payment text, "" if nothing was paid
    spent: tuple[str, ...] = ()  # card ids spent from the winner's collection


@dataclass(frozen=True, slots=True)
class TurnLog:
    """What happened in one turn, for the channel's turn summary."""

    seat: int
    drawn: tuple[str, ...] = ()  # every card turned over, wilds included
    auctions: tuple[AuctionRecord, ...] = ()
    result: str = ""  # "", bust_number, bust_currency, take_num, take_cur
    row: tuple[str, ...] = ()  # the row when the turn ended
    gains: tuple[int, ...] = ()  # currency tokens gained per seat (after the cap)
    lost: tuple[int, ...] = ()  # currency tokens lost to the cap per seat
    bust_token: bool = False  # the active player received a bust token
    buy: str = ""  # "" no buy phase (yet), "nobuy", else the bought card id
    buy_payment: str = ""
    buy_spent: tuple[str, ...] = ()
    rival: tuple[str, ...] = ()  # solo: cards turned over by the rival step


@dataclass(frozen=True, slots=True)
class TenState:
    """Everything about a game of Ten; never modified, ``apply`` builds a new one."""

    players: int
    seed: int
    start: int
    deck: tuple[str, ...]  # draw pile, top card first
    row: tuple[str, ...]
    market: tuple[str, ...]
    discard: tuple[str, ...]
    collections: tuple[tuple[str, ...], ...]
    tokens: tuple[int, ...]
    bust: tuple[int, ...]
    active: int
    phase: str
    drawn: int  # cards turned over this turn
    auction: str | None  # the wild in the auction slot (auction or solo offer)
    bids: tuple[tuple[int, int], ...]  # this auction's (seat, amount), 0 = pass
    final_index: int  # how many final buys are done
    turn: TurnLog
    last_turn: TurnLog | None
    final_buys: tuple[tuple[int, str], ...]  # (seat, "nobuy" or bought card id)
    turns: int  # completed turns


_TURN_FIELDS = tuple(f.name for f in fields(TurnLog))
_AUCTION_FIELDS = tuple(f.name for f in fields(AuctionRecord))


def turn_dict(turn: TurnLog) -> dict[str, Any]:
    """A turn log's fields by name, its auctions as dicts too (tuples stay tuples)."""
    data = {name: getattr(turn, name) for name in _TURN_FIELDS}
    data["auctions"] = [{name: getattr(a, name) for name in _AUCTION_FIELDS} for a in turn.auctions]
    return data


def _tuple(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuple(v) for v in value)
    return value


def _auction(data: dict[str, Any]) -> AuctionRecord:
    return AuctionRecord(**{k: _tuple(v) for k, v in data.items()})


def _turn(data: dict[str, Any]) -> TurnLog:
    values = {k: _tuple(v) for k, v in data.items() if k != "auctions"}
    return TurnLog(**values, auctions=tuple(_auction(a) for a in data["auctions"]))


def state_to_json(state: TenState) -> str:
    """The state's fields by name (the turn logs as objects; tuples are written as lists)."""
    data: dict[str, Any] = {f.name: getattr(state, f.name) for f in fields(state)}
    data["turn"] = turn_dict(state.turn)
    if state.last_turn is not None:
        data["last_turn"] = turn_dict(state.last_turn)
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def state_from_json(text: str) -> TenState:
    data = json.loads(text)
    values: dict[str, Any] = {}
    for f in fields(TenState):
        raw = data[f.name]
        if f.name == "turn":
            values[f.name] = _turn(raw)
        elif f.name == "last_turn":
            values[f.name] = None if raw is None else _turn(raw)
        else:
            values[f.name] = _tuple(raw)
    return TenState(**values)
