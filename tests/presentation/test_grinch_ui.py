"""Grinch renderer: ranks on every card, bonus marks explained, /rules true to the engine."""

from __future__ import annotations

import json
import random
from dataclasses import replace

from engine.grinch import GAME
from engine.grinch.cards import CARDS, bonus_of
from engine.grinch.scoring import bonus
from engine.grinch.state import GrinchState
from presentation.base import Button, HandScreen, Names, Panel
from presentation.common import LINE_WIDTH
from presentation.grinch import UI
from presentation.grinch.look import SUIT_EMBLEM
from presentation.grinch.text import SUIT_EMOJI, bonus_legend, card_long, card_short, suit_legend

NAMES = Names(("Ann", "Ben", "Cat"), frozenset({2}))


def text(panel: Panel) -> str:
    return json.dumps(
        [panel.title, panel.description, panel.fields, panel.footer], ensure_ascii=False
    )


def legal(state: GrinchState, seat: int) -> list[str]:
    return [str(a) for a in GAME.legal_actions(state, seat)]


def hand(state: GrinchState, seat: int) -> HandScreen:
    return UI.hand(GAME.view(state, seat), legal(state, seat), NAMES)


def labels(screen: HandScreen) -> dict[str, str | None]:
    return {c.label: c.action for c in screen.controls if isinstance(c, Button)}


def who_discarding(cards: tuple[str, ...]) -> GrinchState:
    """Round 1 (Ann is the Grinch), Ben about to discard from ``cards``."""
    state = GAME.new_game(3, 7)
    assert state.phase == "WHO_DISCARD" and state.grinch == 0
    hands = list(state.hands)
    hands[1] = cards
    return replace(state, hands=tuple(hands))


def test_named_cards_show_their_rank_like_the_summaries() -> None:
    assert card_long("O2a") == "🎀2 Cindy-Lou Who (+5 🎁)"
    assert card_long("N1a") == "⚡1 Sing! Sing! Sing! (+10 🌿)"
    assert card_long("W3a") == "🌿3 Wreaths"
    for card in CARDS:  # every form starts with the summaries' compact form
        assert card_long(card).startswith(card_short(card) + " ")


def test_hand_and_discard_buttons_carry_rank_and_bonus() -> None:
    state = who_discarding(("O2a", "W3a", "N1a", "P5b"))
    screen = hand(state, 1)
    assert labels(screen) == {
        "🎀2 Cindy-Lou Who (+5 🎁)": "d.O2a",
        "🌿3 Wreaths": "d.W3a",
        "⚡1 Sing! Sing! Sing! (+10 🌿)": "d.N1a",
        "🎁5 Presents": "d.P5b",
    }
    (panel,) = screen.panels
    assert "• 🎀2 Cindy-Lou Who (+5 🎁)" in panel.description
    assert panel.footer == f"{suit_legend()}\n{bonus_legend()}"  # the marks are explained


def test_the_bonus_legend_is_shown_only_with_a_bonus_card() -> None:
    screen = hand(who_discarding(("W3a", "W4a", "N5a", "P5b")), 1)
    assert screen.panels[0].footer == suit_legend()


def test_take_buttons_show_the_pile_tops_rank() -> None:
    rng = random.Random(3)
    state = GAME.new_game(3, 3)
    while state.phase != "GRINCH_TAKE":
        seat = min(GAME.to_act(state))
        state = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    piles = list(state.piles)
    piles[1] = ("O2a",)
    state = replace(state, piles=tuple(piles))
    screen = hand(state, state.grinch)
    assert labels(screen)["Ben: 🎀2 Cindy-Lou Who (+5 🎁)"] == "t.p1"
    assert bonus_legend() in (screen.panels[0].footer or "")


def test_the_legend_and_rules_say_what_the_engine_pays() -> None:
    # +5 needs at least 1 other card of the named suit, +10 at least 3; met, it adds to any row.
    for card in CARDS:
        found = bonus_of(card)
        if found is not None:
            assert found.need == (1 if found.points == 5 else 3)
    assert bonus(["O2a", "P3a", "W4a", "W5a", "N6a"]) == 5  # Cindy-Lou Who (+5 🎁), 1 other 🎁
    assert bonus(["O2a", "W3a", "W4a", "W5a", "N6a"]) == 0  # no 🎁
    assert bonus(["W1a", "P3a", "P4a", "P5a", "N6a"]) == 10  # +10 🎁 with 3 other 🎁
    assert bonus(["W1a", "P3a", "P4a", "N5a", "N6a"]) == 0  # only 2 other 🎁
    assert "at least 1 other 🎁 card" in bonus_legend()
    assert "at least 3 other 🎁 cards" in bonus_legend()
    rules = text(UI.rules())
    assert "Bonus cards add +5/+10 to any row" not in rules
    assert "a +5 card scores 5 only if your five cards hold at least 1 other card" in rules
    assert "a +10 card scores 10 only with at least 3 other cards of that suit" in rules
    assert "adds to whichever row you pick" in rules


def test_a_whole_game_ends_once_in_the_channel_and_in_every_last_dm() -> None:
    rng = random.Random(11)
    state = GAME.new_game(3, 11)
    results: list[Panel] = []
    previous = GAME.view(state, None)
    while GAME.to_act(state):
        seat = rng.choice(sorted(GAME.to_act(state)))
        state = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
        current = GAME.view(state, None)
        results += [p for p in UI.summaries(previous, current, NAMES) if "result" in p.title]
        previous = current
    final = GAME.view(state, None)
    outcome = final["outcome"]
    assert outcome is not None
    (result,) = results  # posted once
    assert result == UI.result(final, NAMES)
    table = UI.table(final, NAMES)
    assert table.title.endswith("— game over") and "posted below" in table.description
    for total in outcome["totals"]:
        assert f"— {total}" not in table.description  # the totals are not repeated
    for seat in range(3):
        screen = UI.hand(GAME.view(state, seat), [], NAMES)
        assert not screen.controls
        shown = screen.panels[0].description
        assert result.description in shown
        mine = outcome["totals"][seat]
        assert shown.startswith(("🏆 You", "You finished")) and f"**{mine}** points" in shown


def test_six_players_score_sheet_fits_a_phone() -> None:
    names = Names(tuple(f"Somebody Long {n}" for n in range(6)))
    state = GAME.new_game(6, 2)
    view = GAME.view(state, None)
    sheet = UI.scores(view, names)
    for line in "\n".join([sheet.description, *(v for _, v, _ in sheet.fields)]).splitlines():
        assert len(line) <= LINE_WIDTH, line
    for name in names.names:
        assert name in sheet.description and any(f[0] == name for f in sheet.fields)


def test_the_text_shows_the_suits_as_the_pictures_draw_them() -> None:
    """A suit's emoji in text is the emblem its card picture draws (Noise: a lightning bolt)."""
    drawn_as = {"bolt": "⚡", "present": "🎁"}
    for suit, emblem in SUIT_EMBLEM.items():
        if emblem in drawn_as:
            assert SUIT_EMOJI[suit] == drawn_as[emblem], (suit, emblem)
