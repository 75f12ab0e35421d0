"""Ten renderer: the public table, the DM controls (payments above all) and the result."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import replace

from engine.base import IllegalAction
from engine.ten import GAME
from engine.ten.cards import deck_for
from engine.ten.state import OVER, TenState, TurnLog
from presentation.base import Button, Control, HandScreen, Names, Panel, Select
from presentation.ten import UI

NAMES = Names(("Ann", "Ben", "Cat"), frozenset({2}))
SOLO = Names(("Ann",))


def text(panel: Panel) -> str:
    return json.dumps(
        [panel.title, panel.description, panel.fields, panel.footer], ensure_ascii=False
    )


def rig(
    players: int,
    draws: Sequence[str],
    *,
    tokens: Sequence[int] | None = None,
    bust: Sequence[int] | None = None,
    collections: Sequence[Sequence[str]] | None = None,
    market: Sequence[str] = (),
) -> TenState:
    """Seat 0 to play, the draw pile starting with ``draws``; every card stays in one zone."""
    state = GAME.new_game(players, 0)
    colls = [tuple(c) for c in collections] if collections else [()] * players
    rest = list(deck_for(players))
    for card in [*draws, *market, *(c for coll in colls for c in coll)]:
        rest.remove(card)
    return replace(
        state,
        deck=(*draws, *rest),
        active=0,
        turn=TurnLog(seat=0),
        tokens=tuple(tokens) if tokens else state.tokens,
        bust=tuple(bust) if bust else state.bust,
        collections=tuple(colls),
        market=tuple(market),
    )


def act(state: TenState, *texts: str) -> TenState:
    for action in texts:
        (seat,) = GAME.to_act(state)
        state = GAME.apply(state, seat, GAME.parse_action(action))
    return state


def legal(state: TenState, seat: int) -> list[str]:
    return [str(a) for a in GAME.legal_actions(state, seat)]


def hand(state: TenState, seat: int, names: Names = NAMES) -> HandScreen:
    return UI.hand(GAME.view(state, seat), legal(state, seat), names)


def table(state: TenState, names: Names = NAMES) -> str:
    return text(UI.table(GAME.view(state, None), names))


def offered(controls: Sequence[Control]) -> list[str]:
    found: list[str] = []
    for control in controls:
        if isinstance(control, Button) and control.action and not control.disabled:
            found.append(control.action)
        elif isinstance(control, Select):
            found.extend(action for _, action, _ in control.options)
    return found


def buttons(screen: HandScreen) -> dict[str, Button]:
    return {c.label: c for c in screen.controls if isinstance(c, Button)}


def menu(screen: HandScreen, placeholder: str) -> dict[str, tuple[str, str | None]]:
    for control in screen.controls:
        if isinstance(control, Select) and control.placeholder.startswith(placeholder):
            return {label: (action, desc) for label, action, desc in control.options}
    raise AssertionError(f"no menu {placeholder!r}")


# ---- the public table ----------------------------------------------------------------------
BEN_CARDS = ["R1a", "R2a", "R#a", "W4", "B3a"]


def _mid_turn() -> TenState:
    state = rig(
        3,
        ["R5a", "C3a", "B6a", "W5", "W#"],
        tokens=(5, 7, 5),
        bust=(0, 2, 0),
        collections=[[], BEN_CARDS, []],
        market=["O2a", "O8a"],
    )
    return act(state, "draw", "draw", "draw")


def test_table_shows_row_totals_market_collections_and_turn() -> None:
    state = _mid_turn()
    shown = table(state)
    assert "🎯 **Ann**'s turn (drawing, 3 cards turned over) · 🂠 deck" in shown
    assert "**Row:** 🟥R5 🪙3 🟦B6" in shown
    assert "Numbers 11 − currency 3 = **net 8** → busts at 11 (2 to spare)" in shown
    assert "Currency **3** → busts at 11 (7 to spare)" in shown
    assert "🟧O 2 8" in shown  # the market, by colour
    # Ben's collection by colour: both wilds complete red 1-4; his tokens and bust tokens.
    assert "🟥 Red **1** **2** **✱3** **✱4** → 4" in shown
    assert "🟦 Blue **3** → 1" in shown
    assert "**5** pts · 🪙 7 · 💥 2 · 5 cards" in shown
    assert "Cat 🤖" in shown


def test_the_draw_pile_stays_hidden() -> None:
    state = _mid_turn()  # the super wild W# is the card after W5, still in the draw pile
    state = act(state, "draw")
    assert "🌈✱" not in table(state)
    for seat in range(3):
        assert "🌈✱" not in text(hand(state, seat).panels[0])


def test_auction_is_shown_bid_by_bid() -> None:
    state = act(_mid_turn(), "draw")
    assert "🔨 Auction for **🌈5 Wild 5**: ⏳ Ben · Cat … · Ann …" in table(state)
    state = act(state, "bid.2")
    assert "Ben 2 · ⏳ Cat · Ann …" in table(state)
    state = act(state, "pass", "bid.3")
    assert "**Ann** won **🌈5 Wild 5** for 3 and pays." in table(state)
    state = act(state, "pay.3.0")
    assert "This turn: 🌈5 → Ann for 3 (3 🪙)" in table(state)


def test_last_turn_tells_a_number_bust() -> None:
    state = rig(3, ["R5a", "C1a", "B6a", "G1a"], tokens=(5, 9, 2))
    state = act(state, "draw", "draw", "draw", "draw")
    shown = table(state)
    assert "🎯 **Ben**'s turn" in shown
    assert (
        "💥 **Ann** busted on 🟩G1 (net over 10); +1 💥; 🟥R5 🟦B6 🟩G1 to the market; "
        "Ben +1, Cat +1 🪙" in shown
    )


def test_last_turn_tells_currency_and_a_purchase() -> None:
    state = rig(3, ["C5a", "C4a", "R1a"], tokens=(8, 5, 5))
    state = act(state, "draw", "draw", "draw", "stop", "take.c")
    assert "took the currency: **+2** 🪙; 🟥R1 to the market; 7 🪙 lost to the cap" in table(state)
    state = rig(3, ["G2a"], market=["R3a"])
    state = act(state, "draw", "stop", "take.n", "buy.R3a.3.0")
    shown = table(state)
    assert "✅ **Ann** stopped and took the numbers: 🟩G2" in shown
    assert "🛒 Bought **🟥R3** for 3 🪙." in shown


# ---- the acting player's controls ----------------------------------------------------------
def test_draw_then_stop_and_the_reward_buttons() -> None:
    state = rig(3, ["R5a", "C3a"])
    first = hand(state, 0)
    assert list(buttons(first)) == [f"Draw (deck {len(state.deck)})"]
    assert "👉 **Draw** your first card." in text(first.panels[0])
    state = act(state, "draw", "draw")
    screen = hand(state, 0)
    assert set(buttons(screen)) == {f"Draw (deck {len(state.deck)})", "Stop"}
    assert "**Row:** 🟥R5 🪙3" in text(screen.panels[0])  # the essentials of the table
    waiting = hand(state, 1)
    assert waiting.controls == ()
    assert "⏳ **Ann**'s turn (drawing" in text(waiting.panels[0])
    reward = hand(act(state, "stop"), 0)
    labels = buttons(reward)
    assert labels["Take the numbers: 🟥R5"].action == "take.n"
    assert labels["Take the currency: +3 🪙"].action == "take.c"
    assert "you hold 5, at most 10" in text(reward.panels[0])


def test_bids_are_one_menu_beside_pass() -> None:
    cards = ["R1a", "R2a", "B1a", "B2a", "O1a", "O2a", "G1a", "G2a", "W1", "W2"]
    state = rig(3, ["W5"], tokens=(5, 10, 5), bust=(0, 5, 0), collections=[[], cards, []])
    state = act(state, "draw")
    screen = hand(state, 1)
    assert list(buttons(screen)) == ["Pass"] and buttons(screen)["Pass"].action == "pass"
    (select,) = [c for c in screen.controls if isinstance(c, Select)]
    assert select.placeholder == "Bid 1 to 35…"
    bids = menu(screen, "Bid")
    # 35 bids do not fit a menu of 25: the 24 lowest and the highest (all in).
    assert list(bids) == [f"Bid {n}" for n in [*range(1, 25), 35]]
    assert bids["Bid 10"] == ("bid.10", "paid with tokens")
    assert bids["Bid 11"] == ("bid.11", "needs bust tokens or cards")
    assert set(offered(screen.controls)) <= set(legal(state, 1))
    shown = text(screen.panels[0])
    assert "You can bid up to **35** (10 🪙 + 5 💥 × 3 + 10 cards)" in shown
    assert "Bids above 10 need bust tokens or cards to pay." in shown


def test_a_short_bid_list_is_one_menu_too() -> None:
    state = act(rig(3, ["W5"], tokens=(5, 3, 5)), "draw", "bid.2")
    screen = hand(state, 2)
    assert menu(screen, "Bid 3 to 5") == {
        f"Bid {n}": (f"bid.{n}", "paid with tokens") for n in range(3, 6)
    }
    assert len(screen.controls) == 2


def _won(price: int) -> TenState:
    """Ann holds 4 tokens, 2 bust tokens, R1a and B2a, and has won a wild for ``price``."""
    state = rig(3, ["W#"], tokens=(4, 5, 5), bust=(2, 0, 0), collections=[["R1a", "B2a"], [], []])
    return act(state, "draw", "pass", "pass", f"bid.{price}")


def test_payment_proposes_tokens_and_lets_cards_be_chosen() -> None:
    state = _won(5)
    screen = hand(state, 0)
    labels = buttons(screen)
    primary = labels["Pay 2 🪙 + 1 💥"]
    assert primary.style == "primary" and primary.action == "pay.2.1"
    assert labels["Pay 2 💥 (1 lost)"].action == "pay.0.2"
    cards = menu(screen, "Pay differently (use cards)")
    assert cards["Pay 4 🪙 + 🟥R1"][0] == "pay.4.0.R1"
    assert cards["Pay 4 🪙 + 🟦B2"][0] == "pay.4.0.B2"
    assert cards["Pay 3 🪙 + 🟥R1 🟦B2"] == ("pay.3.0.R1B2", "your score after: 0")
    after = GAME.apply(state, 0, GAME.parse_action(cards["Pay 4 🪙 + 🟦B2"][0]))
    assert sorted(after.collections[0]) == ["R1a", "W#"] and after.tokens[0] == 0
    for action in offered(screen.controls):  # each option is one complete legal payment
        GAME.apply(state, 0, GAME.parse_action(action))


def test_without_enough_tokens_the_menu_names_the_cards() -> None:
    state = rig(3, ["W#"], tokens=(1, 5, 5), collections=[["R1a", "B2a"], [], []])
    state = act(state, "draw", "pass", "pass", "bid.3")
    screen = hand(state, 0)
    assert not [b for b in buttons(screen).values() if b.action]  # no card is spent by a button
    assert menu(screen, "Pay with cards") == {
        "Pay 1 🪙 + 🟥R1 🟦B2": ("pay.1.0.R1B2", "your score after: 0")
    }
    assert "You lack the tokens: choose in the menu which cards to give up." in text(
        screen.panels[0]
    )


def test_a_long_card_payment_is_grouped_by_colour_to_fit_a_menu() -> None:
    cards = [f"{c}{n}a" for c in "RBOG" for n in range(1, 10)]
    state = rig(3, ["W#"], tokens=(0, 5, 5), collections=[cards, [], []])
    state = act(state, "draw", "pass", "pass", "bid.36")
    options = menu(hand(state, 0), "Pay with cards")
    assert len(options) == 1
    (label,) = options
    assert label == "Pay " + " · ".join(
        f"{sq} 1 2 3 4 5 6 7 8 9" for sq in ("🟥R", "🟦B", "🟧O", "🟩G")
    )
    assert len(label) <= 100


def test_buy_menu_with_proposed_payment_and_alternatives() -> None:
    state = rig(
        3,
        ["C1a"],
        tokens=(4, 5, 5),
        collections=[["R1a", "B2a"], [], []],
        market=["G3a", "R1b", "G9a"],
    )
    state = act(state, "draw", "stop", "take.n")
    screen = hand(state, 0)
    shown = text(screen.panels[0])
    assert "You already hold: 🟥R 1" in shown and "Too dear: 🟩G 9" in shown
    buy = menu(screen, "Buy a card")
    assert buy == {"🟩G3 Green 3 for 3 🪙": ("buy.G3a.3.0", "your score 2 → 3 (+1)")}
    other = menu(screen, "Pay differently")
    assert other["🟩G3 for 2 🪙 + 🟥R1"] == ("buy.G3a.2.0.R1", "your score 2 → 2")
    assert "🟩G3 for 1 🪙 + 🟥R1 🟦B2" in other
    assert buttons(screen)["No purchase"].action == "nobuy"
    for action in offered(screen.controls):
        GAME.apply(state, 0, GAME.parse_action(action))


def test_every_control_is_a_complete_engine_action_in_random_games() -> None:
    with_cards = 0
    for seed, players in enumerate((1, 2, 3, 4, 5)):
        names = Names(tuple(f"P{s}" for s in range(players)))
        rng = random.Random(seed)
        state = GAME.new_game(players, seed)
        for _ in range(160):
            to_act = GAME.to_act(state)
            if not to_act:
                break
            (seat,) = to_act
            screen = hand(state, seat, names)
            actions = offered(screen.controls)
            assert actions and len(screen.controls) <= 25
            for control in screen.controls:
                if isinstance(control, Select):
                    assert 0 < len(control.options) <= 25
                    assert all(len(label) <= 100 for label, _, _ in control.options)
                else:
                    assert len(control.label) <= 80
            for action in actions:
                assert len(f"g:99999999:9999:{action}") <= 100
                GAME.apply(state, seat, GAME.parse_action(action))  # raises if not legal
            with_cards += sum(1 for a in actions if a.count(".") == 3 and a.startswith("pay."))
            state = GAME.apply(state, seat, GAME.parse_action(rng.choice(actions)))
        assert UI.table(GAME.view(state, None), names).title
    assert with_cards, "no payment with cards was ever offered"


def test_an_illegal_payment_is_not_offered() -> None:
    state = _won(3)
    for action in offered(hand(state, 0).controls):
        assert action != "pay.0.2"  # one bust token suffices (rules P3)
    try:
        GAME.apply(state, 0, GAME.parse_action("pay.0.2"))
    except IllegalAction:
        pass
    else:  # pragma: no cover - the engine must refuse it
        raise AssertionError("pay.0.2 should be illegal for a price of 3")


# ---- results, scores, rules ----------------------------------------------------------------
def _finished(collections: list[list[str]], tokens: list[int]) -> TenState:
    state = rig(len(collections), [], collections=collections)
    return replace(state, tokens=tuple(tokens), phase=OVER, deck=())


def test_result_uses_the_outcome_and_explains_a_tie_break() -> None:
    before = GAME.view(rig(3, []), None)
    state = _finished([["R1a", "R2a"], ["B1a", "B2a"], ["G1a"]], [3, 6, 9])
    after = GAME.view(state, None)
    (panel,) = UI.summaries(before, after, NAMES)
    shown = text(panel)
    assert panel.title == "🏆 Ten — result"
    assert "**Ben** wins!" in shown
    assert "Tie on 2 points: more currency tokens wins" in shown
    assert shown.index("**Ben** — **2**") < shown.index("**Ann** — **2**")
    assert "3. **Cat 🤖** — **1**" in shown
    assert UI.summaries(after, after, NAMES) == []
    final = UI.table(after, NAMES)  # the board as it ended; the ranking is the message below
    assert final.title == "🔟 Ten — 3 players — game over"
    assert "**Ben** wins!" in final.description
    assert "🟦 Blue **1** **2** → 2" in text(final)


def test_scores_and_result_rank_a_tie_below_the_winner_by_the_same_tie_break() -> None:
    # Ben and Cat tie on 1 point; Cat has more tokens, so rules §5 puts Cat second, Ben third.
    state = _finished([["R1a", "R2a"], ["B1a"], ["G1a"]], [3, 4, 9])
    view = GAME.view(state, None)
    assert UI.scores(view, NAMES).description.splitlines()[:3] == [
        "🏆 **Ann** — 2",
        "2. **Cat** — 1",
        "3. **Ben** — 1",
    ]
    result = text(UI.result(view, NAMES))
    assert "2. **Cat 🤖** — **1**" in result and "3. **Ben** — **1**" in result
    # While the game runs, the same tie-break orders the sheet and names the one leader.
    running = GAME.view(replace(state, phase=rig(3, []).phase), None)
    sheet = UI.scores(running, NAMES)
    assert sheet.description.splitlines()[1:3] == ["2. **Cat** — 1", "3. **Ben** — 1"]
    assert sheet.fields[-1] == ("Leading", "Ann", False)
    level = GAME.view(replace(state, phase=rig(3, []).phase, tokens=(3, 9, 9)), None)
    assert UI.scores(level, NAMES).description.splitlines()[1:3] == [
        "2. **Ben** — 1",
        "2. **Cat** — 1",
    ]


def test_the_result_says_whose_seat_a_computer_took() -> None:
    state = _finished([["R1a", "R2a"], ["B1a"], ["G1a"]], [3, 4, 9])
    names = Names(("Cindy-Bot", "Ben", "Cat"), frozenset({0, 2}), ("Ann", None, None))
    shown = text(UI.result(GAME.view(state, None), names))
    assert "**Cindy-Bot 🤖 (took Ann's seat)** wins!" in shown
    assert "🏆 **Cindy-Bot 🤖 (took Ann's seat)** — **2**" in shown
    assert "**Ben** — **1**" in shown


def test_nothing_to_buy_says_so() -> None:
    state = act(rig(3, ["G2a"]), "draw", "stop", "take.n")
    screen = hand(state, 0)
    assert "👉 The market is empty: choose **No purchase**." in text(screen.panels[0])
    assert offered(screen.controls) == ["nobuy"]


def test_no_message_per_turn_the_table_tells_it() -> None:
    state = rig(3, ["R5a", "B6a"])
    before = GAME.view(state, None)
    after = GAME.view(act(state, "draw", "draw"), None)
    assert after["last_turn"] and UI.summaries(before, after, NAMES) == []


def test_solo_offer_target_and_result() -> None:
    state = rig(1, ["W3"], tokens=(5,), collections=[["R1a"]])
    state = act(state, "draw")
    screen = hand(state, 0, SOLO)
    labels = buttons(screen)
    assert labels["Pay 3 🪙"].action == "pay.3.0" and labels["Decline"].action == "decline"
    assert menu(screen, "Pay differently")["Pay 2 🪙 + 🟥R1"][0] == "pay.2.0.R1"
    assert "🎯 Solo target **20** · score 1 (19 to go)" in table(state, SOLO)
    reward = hand(act(state, "pay.3.0", "draw", "stop"), 0, SOLO)
    assert "the others get" not in text(reward.panels[0])
    short = replace(state, phase=OVER, deck=(), auction=None)
    missed = text(UI.table(GAME.view(short, None), SOLO))
    assert "**Ann** scored **1**: 19 short of the **20** needed to win." in missed
    run = [f"{c}{n}a" for c in "RB" for n in range(1, 10)] + ["O1a", "O2a"]
    won = _finished([run], [0])
    assert "target **20** reached — **Ann wins!**" in table(won, SOLO)
    assert "Solo target **20** · final score 22 (reached ✅)" in text(
        UI.scores(GAME.view(won, None), SOLO)
    )


def test_scores_by_colour_and_rules() -> None:
    state = _finished([["R1a", "R2a"], ["B1a"], []], [3, 6, 9])
    sheet = UI.scores(GAME.view(state, None), NAMES)
    assert sheet.description.splitlines() == [
        "🏆 **Ann** — 2",
        "2. **Ben** — 1",
        "3. **Cat** — 0",
        "Ties: more tokens, then fewer cards.",
    ]
    ann = sheet.fields[0]
    assert ann[0] == "Ann"
    assert ann[1] == (
        "🟥 Red: 2 · 🟦 Blue: 0 · 🟧 Orange: 0\n🟩 Green: 0 · Total: 2\n🪙 3 · 2 cards"
    )
    rules = text(UI.rules())
    for words in ("reaches 11", "bust token", "auction", "1–9 scores 10", "Solo", "20 points"):
        assert words in rules
