"""Ten's move lines for ``/history``: every move of random games said in every language.

Ten has no secret move: everything is public except the order of the draw pile (rules §7),
and a drawn card is face up at once. What a line must not do is peek: a drawn card is named
only from the spectator's view after the move, never from the deck, so a view without it
gives "drew a card".
"""

from __future__ import annotations

import random
import re

import pytest

import i18n
from engine.ten import GAME
from engine.ten.actions import Bid, Draw
from engine.ten.state import TenState
from engine.ten.view import TenView
from presentation import UIS
from presentation.base import Names
from presentation.ten import UI
from tests.presentation.languages import names_for, pseudo, untranslated
from tests.presentation.test_ten_ui import rig

NAMES = Names(("Ann", "Ben", "Cat"), frozenset({2}))
CARD_ID = re.compile(r"\b[RBOGC][1-9#][a-f]\b|\bW[1-9#]\b")  # an engine card id (R5b, W3)
CODE = re.compile(r"\w\.\w")  # a dotted action code (bid.3, buy.R5b.5.0)
KINDS = {"Draw", "Stop", "Take", "Bid", "Pass", "Pay", "Buy", "NoBuy", "Decline"}


def moves(players: int, seed: int) -> list[tuple[str, int, TenView, str]]:
    """(action text, seat, spectator view after, kind) for every move of one random game."""
    rng = random.Random(seed)
    state = GAME.new_game(players, seed)
    out = []
    while GAME.to_act(state):
        (seat,) = GAME.to_act(state)
        action = rng.choice(GAME.legal_actions(state, seat))
        state = GAME.apply(state, seat, action)
        out.append((str(action), seat, GAME.view(state, None), type(action).__name__))
    return out


GAMES = [(players, seed) for players in (1, 2, 3, 5) for seed in (1, 2)]


@pytest.mark.parametrize(("players", "seed"), GAMES)
def test_every_move_is_a_short_readable_line_in_every_language(players: int, seed: int) -> None:
    names = names_for(players)
    for action, seat, view, _ in moves(players, seed):
        for language in i18n.LANGUAGES:
            with i18n.using(language):
                line = UI.move_line(action, seat, view, names)
            where = f"{language} {action!r}: {line!r}"
            assert line.strip(), where
            assert len(line) < 80, where
            assert action not in line.split(), where  # "pass" may be in "passed", not alone
            assert not CARD_ID.search(line) and not CODE.search(line), where
            assert names[seat] not in line, where  # the caller adds the player's name


def test_random_games_meet_every_kind_of_move() -> None:
    seen = {kind for players, seed in GAMES for *_, kind in moves(players, seed)}
    assert seen == KINDS


@pytest.mark.parametrize("players", [1, 4])
def test_no_english_leaks(monkeypatch: pytest.MonkeyPatch, players: int) -> None:
    pseudo(monkeypatch)
    names = names_for(players)
    for action, seat, view, _ in moves(players, 3):
        line = UI.move_line(action, seat, view, names)
        assert untranslated(line) == [], (action, line)


# ---- exact lines ---------------------------------------------------------------------------
def play(state: TenState, *texts: str) -> list[str]:
    """The English line of each move in turn (the spectator's view after each)."""
    lines = []
    for text in texts:
        (seat,) = GAME.to_act(state)
        state = GAME.apply(state, seat, GAME.parse_action(text))
        lines.append(UI.move_line(text, seat, GAME.view(state, None), NAMES))
    return lines


def test_a_turn_with_an_auction_and_a_purchase() -> None:
    state = rig(3, ["R5a", "C3a", "W5"], market=["O2a"])
    moves = ["draw", "draw", "draw", "bid.2", "pass", "pass", "pay.2.0"]
    assert play(state, *moves, "stop", "take.n", "buy.O2a.2.0") == [
        "drew 🟥R5 Red 5",
        "drew 🪙3",
        "drew 🌈5 Wild 5: up for auction",
        "bid 2 on 🌈5 Wild 5",  # Ben
        "passed on 🌈5 Wild 5",  # Cat
        "passed; Ben won 🌈5 Wild 5",  # Ann, last to speak
        "paid 2 for 🌈5 (2 🪙)",  # Ben
        "stopped at net 2",
        "took the numbers: 🟥R5",
        "bought 🟧O2 for 2 (2 🪙)",
    ]


def test_busts_the_currency_the_last_bid_and_no_purchase() -> None:
    assert play(rig(3, ["R9a", "G5a"]), "draw", "draw") == [
        "drew 🟥R9 Red 9",
        "drew 🟩G5 Green 5: bust, net over 10",
    ]
    assert play(rig(3, ["C5a", "C5b", "C1a"]), "draw", "draw", "draw")[-1] == (
        "drew 🪙1: bust, currency over 10"
    )
    assert play(rig(3, ["C4a"], tokens=(5, 5, 8)), "draw", "stop", "take.c") == [
        "drew 🪙4",
        "stopped at net -4",
        "took the currency: +4 🪙",
    ]
    state = rig(3, ["W#", "R1a"], tokens=(5, 5, 5))
    assert play(state, "draw", "pass", "bid.1", "bid.3", "pay.3.0") == [
        "drew 🌈✱ Super wild: up for auction",
        "passed on 🌈✱ Super wild",
        "bid 1 on 🌈✱ Super wild",
        "bid 3 and won 🌈✱ Super wild",  # Ann speaks last and outbids Cat
        "paid 3 for 🌈✱ (3 🪙)",
    ]
    assert play(rig(3, ["W2", "R1a"]), "draw", "pass", "pass", "pass", "draw", "stop")[3] == (
        "passed; 🌈2 Wild 2 discarded"
    )
    assert play(rig(3, ["R1a"]), "draw", "stop", "take.n", "nobuy")[-1] == "bought nothing"


def test_a_long_payment_is_summarized() -> None:
    collection = ["R1a", "R2a", "B3a", "O4a", "G6a"]
    state = rig(3, ["W3"], tokens=(5, 1, 0), bust=(0, 1, 0), collections=[[], collection, []])
    text = "pay.1.1.R12B3O4G6"
    lines = play(state, "draw", "bid.9", "pass", "pass", text)
    assert lines[-1] == "paid 9 for 🌈3 (1 🪙 + 1 💥 + 5 cards)"


def test_the_solo_wild_offer_and_a_decline() -> None:
    state = rig(1, ["W#", "W4", "R2a"])
    assert play(state, "draw", "decline", "draw", "pay.3.0") == [
        "drew 🌈✱ Super wild: offered for 5",
        "declined 🌈✱ Super wild",
        "drew 🌈4 Wild 4: offered for 3",
        "paid 3 for 🌈4 (3 🪙)",
    ]


def test_lines_in_romanian_estonian_and_lithuanian() -> None:
    state = rig(3, ["W5", "R5a"])
    state = GAME.apply(GAME.apply(state, 0, Draw()), 1, Bid(2))
    view = GAME.view(state, None)
    expected = {
        "ro": "a licitat 2 pentru 🌈5 Joker 5",
        "et": "pakkus 2, oksjonil 🌈5 Jokker 5",
        "lt": "pasiūlė 2 už 🌈5 Laukinė 5",
    }
    for language, line in expected.items():
        with i18n.using(language):
            assert UI.move_line("bid.2", 1, view, NAMES) == line
    with i18n.using("ro"):
        assert UI.move_line("nobuy", 0, view, NAMES) == "nu a cumpărat nimic"
    with i18n.using("lt"):
        assert UI.move_line("garbage", 0, view, NAMES) == "atliko ėjimą"


def test_a_draw_is_never_named_from_anything_but_the_view() -> None:
    """The next card of the pile is the one secret: a view that does not show it says less."""
    state = rig(3, ["R5a", "B7a"])
    assert UI.move_line("draw", 0, GAME.view(state, None), NAMES) == "drew a card"
    after = GAME.apply(state, 0, Draw())
    assert "🟦" not in UI.move_line("draw", 0, GAME.view(after, None), NAMES)  # B7 still hidden


@pytest.mark.parametrize(
    "text", ["", "garbage", "draw.1", "bid.x", "buy.R5b", "pay.1", "buy.W3.3.0", "d:W3", "x" * 99]
)
def test_garbage_gives_a_generic_line(text: str) -> None:
    view = GAME.view(rig(3, ["R5a"]), None)
    assert UI.move_line(text, 0, view, NAMES) == "made a move"


def test_a_view_that_does_not_fit_never_raises() -> None:
    any_view = UIS["ten"]  # the same renderer, as served any view
    for text in ("draw", "stop", "take.n", "take.c", "bid.3", "pass", "pay.3.0", "decline"):
        assert any_view.move_line(text, 0, {"turn": {"seat": 0}, "auction": {}}, NAMES)
    assert any_view.move_line("buy.R5b.5.0", 0, {}, NAMES) == "bought 🟥R5 for 5 (5 🪙)"
    assert any_view.move_line("bid.3", 0, {}, NAMES) == "bid 3"
