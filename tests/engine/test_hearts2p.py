"""2-Player Hearts: every test vector of rules/hearts2p.md section 8, one scenario per ruling."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from engine.base import BadActionText, IllegalAction
from engine.hearts2p import GAME
from engine.hearts2p.actions import Play
from engine.hearts2p.cards import (
    DECK,
    card_label,
    card_name,
    card_points,
    rank_name,
    sort_key,
    suit_symbol,
)
from engine.hearts2p.rules import deal, dealer_of, legal_cards, trick_winner
from engine.hearts2p.scoring import HandScore, game_winner, score_hand
from engine.hearts2p.state import State

HEARTS_ALL = "2H 4H 6H 8H 10H QH AH"


def cards(text: str) -> list[str]:
    return text.split()


# --- 8.1 deal --------------------------------------------------------------------------------


def test_deal_vector_canonical_deck() -> None:
    dealt = deal(DECK, 0)
    assert dealt.dead == ("2C", "AS")
    assert list(dealt.hands[1]) == cards("4C 8C QC 2D 6D 10D AD 4H 8H QH 2S 6S 10S")
    assert list(dealt.hands[0]) == cards("6C 10C AC 4D 8D QD 2H 6H 10H AH 4S 8S QS")
    assert dealt.opening_card == "4C"
    assert dealt.opening_seat == 1


def test_deal_non_dealer_gets_first_card() -> None:  # ruling 3
    dealt = deal(DECK, 1)
    assert "4C" in dealt.hands[0] and "6C" in dealt.hands[1]
    assert dealt.opening_seat == 0


def test_deal_dead_cards_are_top_and_bottom() -> None:  # ruling 2
    deck = list(reversed(DECK))
    dealt = deal(deck, 0)
    assert dealt.dead == ("AS", "2C")
    assert len(dealt.hands[0]) == len(dealt.hands[1]) == 13
    assert set(dealt.hands[0]) | set(dealt.hands[1]) | set(dealt.dead) == set(DECK)


@pytest.mark.parametrize(
    ("dead", "opening"),
    [(("2C", "AS"), "4C"), (("2C", "4C"), "6C"), (("4C", "2C"), "6C"), (("8D", "6C"), "2C")],
)
def test_opening_card_is_first_live_low_club(dead: tuple[str, str], opening: str) -> None:
    rest = [c for c in DECK if c not in dead]
    dealt = deal([dead[0], *rest, dead[1]], 0)
    assert dealt.dead == dead
    assert dealt.opening_card == opening
    assert opening in dealt.hands[dealt.opening_seat]


# --- 8.2 legal moves -------------------------------------------------------------------------

LEGAL = [
    ("L1", "2C 8C 6D AH QS", "", False, True, "2C", "2C"),
    ("L2", "4C 10C 6D 2H QS", "", False, True, "4C", "4C"),
    ("L3", "6C AC 8S", "", False, True, "6C", "6C"),
    ("L4", "8C AC 4H QS", "2C", False, True, "2C", "8C AC"),
    ("L5", "6D 2H AH 10S QS", "2C", False, True, "2C", "6D 2H AH 10S QS"),
    ("L6", "4D 2H AH QS", "", False, False, "2C", "4D QS"),
    ("L7", "2H 8H QH", "", False, False, "2C", "2H 8H QH"),
    ("L8", "6H AH QS", "", False, False, "2C", "QS"),
    ("L9", "6C 10H QS", "", True, False, "2C", "6C 10H QS"),
    ("L10", "4D AH 2S QS", "8S", False, False, "2C", "2S QS"),
    ("L11", "6C 4H QS", "10D", False, False, "2C", "6C 4H QS"),
    ("L12", "8C 2H AH QS", "6H", True, False, "2C", "2H AH"),
    ("L13", "8C QS", "6H", True, False, "2C", "8C QS"),
    ("L14", "QC 10H AS", "AC", False, False, "2C", "QC"),
    ("L15", "2D AH QS", "4S", False, False, "2C", "QS"),
    ("L16", "AH", "", False, False, "2C", "AH"),
]


@pytest.mark.parametrize("row", LEGAL, ids=[row[0] for row in LEGAL])
def test_legal_vectors(row: tuple[str, str, str, bool, bool, str, str]) -> None:
    _, hand, trick, broken, first, opening, legal = row
    trick_no = 1 if first else 5
    assert legal_cards(cards(hand), cards(trick), broken, trick_no, opening) == set(cards(legal))


def _state(
    hands: tuple[str, str],
    *,
    leader: int = 0,
    trick_no: int = 3,
    broken: bool = False,
    trick: tuple[tuple[int, str], ...] = (),
    totals: tuple[int, int] = (0, 0),
    dead: tuple[str, str] = ("2C", "4C"),
) -> State:
    """A hand in progress with the given hands; everything else consistent enough."""
    base = GAME.new_game(2, 1)
    return replace(
        base,
        hands=(tuple(cards(hands[0])), tuple(cards(hands[1]))),
        dead=dead,
        opening_card="6C",
        leader=leader,
        trick=trick,
        trick_no=trick_no,
        hearts_broken=broken,
        totals=totals,
    )


def _play(state: State, *moves: str) -> State:
    for text in moves:
        (seat,) = GAME.to_act(state)
        state = GAME.apply(state, seat, GAME.parse_action(text))
    return state


def test_sequence_check_trick3_heart_trumps_and_breaks() -> None:
    state = _state(("10D 8C QS", "2H 6S AH"), leader=0, trick_no=3)
    state = _play(state, "p.10D")
    assert not state.hearts_broken
    assert {str(a) for a in GAME.legal_actions(state, 1)} == {"p.2H", "p.6S", "p.AH"}
    state = _play(state, "p.2H")
    assert state.hearts_broken
    assert state.leader == 1 and state.trick_no == 4
    view = GAME.view(state, None)
    assert view["taken"][1]["points"] == 1
    assert view["last_trick"] is not None and view["last_trick"]["winner"] == 1
    assert {str(a) for a in GAME.legal_actions(state, 1)} == {"p.6S", "p.AH"}


# --- 8.3 trick winners -----------------------------------------------------------------------

WINNERS = [
    ("W1", "2C", "8C", 1, 0),
    ("W2", "AC", "2H", 1, 1),
    ("W3", "10D", "AS", 0, 0),
    ("W4", "6H", "QH", 1, 2),
    ("W5", "AH", "2H", 0, 2),
    ("W6", "QS", "AS", 1, 13),
    ("W7", "AS", "QS", 0, 13),
    ("W8", "4D", "QS", 0, 13),
    ("W9", "6H", "AC", 0, 1),
    ("W10", "8S", "QS", 1, 13),
]


@pytest.mark.parametrize(
    ("led", "followed", "winner", "points"),
    [row[1:] for row in WINNERS],
    ids=[row[0] for row in WINNERS],
)
def test_trick_winner_vectors(led: str, followed: str, winner: int, points: int) -> None:
    assert trick_winner(led, followed) == winner
    assert card_points(led) + card_points(followed) == points


@pytest.mark.parametrize(("led", "followed", "winner", "points"), [row[1:] for row in WINNERS])
def test_trick_winner_in_engine(led: str, followed: str, winner: int, points: int) -> None:
    used = {led, followed}
    spare_lead = next(c for c in ("6C", "6D", "6S") if c not in used)
    spare_follow = next(c for c in ("4D", "4S", "4C") if c[-1] != led[-1] and c not in used)
    state = _state(
        (f"{led} {spare_lead}", f"{followed} {spare_follow}"), leader=0, trick_no=4, broken=True
    )
    state = _play(state, f"p.{led}", f"p.{followed}")
    assert state.leader == winner
    view = GAME.view(state, 0)
    assert view["taken"][winner]["points"] == points
    assert view["taken"][winner]["cards"] == sorted([led, followed], key=sort_key)


# --- 8.4 hand scoring ------------------------------------------------------------------------

SCORING = [
    ("S1", "4C 6D", "QS 2H 4H 6H", "8H 10H QH AH", 16, 4, None),
    ("S2", "8D 2S", f"{HEARTS_ALL} QS", "", 0, 20, 0),
    ("S3", "QS 8D", HEARTS_ALL, "", 0, 20, 0),
    ("S4", "2H 10H", "4H 6H 8H QH AH QS", "", 0, 20, 0),
    ("S5", "QH 4C", "2H 4H 6H 8H 10H AH", "QS", 6, 13, None),
    ("S6", "QS AH", "2H 4H 6H", "8H 10H QH", 3, 3, None),
    ("S7", "4C 6D", HEARTS_ALL, "QS", 7, 13, None),
    ("S8", "QS 2H", "", "4H 6H 8H 10H QH AH", 20, 0, 1),
]


@pytest.mark.parametrize("row", SCORING, ids=[row[0] for row in SCORING])
def test_hand_scoring_vectors(row: tuple[str, str, str, str, int, int, int | None]) -> None:
    _, dead, a_took, b_took, a, b, moon = row
    # Give each pile some zero-point cards too: they must not matter.
    score = score_hand([[*cards(a_took), "AC"], [*cards(b_took), "2D"]], cards(dead))
    assert score.points == (a, b)
    assert score.moon == moon
    if moon is None:
        assert score.raw == score.points


def test_moon_raw_points_kept() -> None:
    score = score_hand([cards(HEARTS_ALL), []], ["QS", "8D"])
    assert score == HandScore(raw=(7, 0), points=(0, 20), moon=0)


# --- 8.5 game end ----------------------------------------------------------------------------

GAME_END = [
    ("G1", (94, 97), (14, 6), (108, 103), 1),
    ("G2", (85, 60), (16, 4), (101, 64), 1),
    ("G3", (95, 95), (0, 20), (95, 115), 0),
    ("G4", (97, 97), (3, 3), (100, 100), None),
    ("G5", (100, 100), (13, 7), (113, 107), 1),
    ("G6", (99, 80), (0, 20), (99, 100), 0),
    ("G7", (87, 50), (13, 7), (100, 57), 1),
    ("G8", (80, 99), (20, 0), (100, 99), 1),
]


@pytest.mark.parametrize(
    ("before", "hand", "after", "winner"),
    [row[1:] for row in GAME_END],
    ids=[row[0] for row in GAME_END],
)
def test_game_end_vectors(
    before: tuple[int, int], hand: tuple[int, int], after: tuple[int, int], winner: int | None
) -> None:
    totals = (before[0] + hand[0], before[1] + hand[1])
    assert totals == after
    assert game_winner(totals) == winner


def _last_trick_state(totals: tuple[int, int], a_takes: bool) -> State:
    """Trick 13 about to be played; all other point cards already taken by seat 0 or 1."""
    won0 = ("2H", "4H", "6H", "8H", "10H", "QS") if a_takes else ()
    won1 = () if a_takes else ("2H", "4H", "6H", "8H", "10H", "QS")
    state = _state(("QH", "AH"), leader=0, trick_no=13, broken=True, totals=totals)
    return replace(state, won=(won0, won1), dead=("2C", "4C"))


@pytest.mark.parametrize(
    ("totals", "after", "winner"),
    [
        ((97, 97), (97, 117), 0),
        ((95, 75), (95, 95), None),
        ((95, 81), (95, 101), 0),
        ((70, 70), (70, 90), None),
    ],
)
def test_game_end_through_engine(
    totals: tuple[int, int], after: tuple[int, int], winner: int | None
) -> None:
    # Seat 0 already took 18 points; seat 1 leads QH into AH, so seat 0 shoots the moon.
    state = _last_trick_state(totals, a_takes=True)
    state = replace(state, hands=(("AH",), ("QH",)), leader=1)
    state = _play(state, "p.QH", "p.AH")
    assert state.totals == after
    assert state.records[-1].moon == 0
    assert state.records[-1].points == (0, 20)
    outcome = GAME.outcome(state)
    if winner is None:
        assert outcome is None
        assert state.hand_no == 2 and state.dealer == 1  # ruling 4: the deal alternates
        assert len(state.hands[0]) == len(state.hands[1]) == 13
    else:
        assert outcome is not None
        assert outcome.winners == frozenset([winner])
        assert outcome.totals == after
        assert GAME.to_act(state) == set()
        with pytest.raises(IllegalAction):
            GAME.apply(state, 0, Play("AH"))


def test_tie_at_100_plays_another_hand() -> None:  # ruling 19, G4
    state = _last_trick_state((90, 82), a_takes=False)  # seat 1 holds 18 points already
    state = replace(state, hands=(("QH",), ("AH",)))
    state = _play(state, "p.QH", "p.AH")  # seat 1 takes QH, AH: moon by seat 1 -> 20 to seat 0
    assert state.records[-1].moon == 1
    assert state.totals == (110, 82)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == {1}
    tie = _last_trick_state((80, 100), a_takes=False)
    tie = _play(replace(tie, hands=(("QH",), ("AH",))), "p.QH", "p.AH")
    assert tie.totals == (100, 100)
    assert GAME.outcome(tie) is None and tie.hand_no == 2


# --- rulings ---------------------------------------------------------------------------------


def test_ruling1_deck_and_ids() -> None:
    assert len(DECK) == 28 and len(set(DECK)) == 28
    assert DECK[0] == "2C" and DECK[27] == "AS" and DECK[4] == "10C"
    assert sum(card_points(c) for c in DECK) == 20
    assert sorted(DECK[::-1], key=sort_key) == list(DECK)
    assert suit_symbol("10H") == "\u2665" and rank_name("QS") == "Queen"
    assert card_label("AS") == "A\u2660" and card_name("QS") == "Queen of spades"


def test_ruling4_dealer_alternates() -> None:
    assert [dealer_of(n) for n in (1, 2, 3, 4)] == [0, 1, 0, 1]
    assert GAME.new_game(2, 7).dealer == 0


def test_ruling5_no_passing_first_action_is_the_opening_lead() -> None:
    for seed in range(20):
        state = GAME.new_game(2, seed)
        (seat,) = GAME.to_act(state)
        assert GAME.legal_actions(state, seat) == [Play(state.opening_card)]
        assert state.opening_card in state.hands[seat]


def test_ruling6_opening_with_4c_or_6c_is_forced() -> None:
    seen = set()
    for seed in range(300):
        state = GAME.new_game(2, seed)
        seen.add(state.opening_card)
        assert state.opening_card == next(c for c in ("2C", "4C", "6C") if c not in state.dead)
        (seat,) = GAME.to_act(state)
        other = next(c for c in state.hands[seat] if c != state.opening_card)
        with pytest.raises(IllegalAction, match=card_label(state.opening_card)) as refused:
            GAME.apply(state, seat, Play(other))
        assert refused.value.values == {"card": card_label(state.opening_card)}
    assert seen == {"2C", "4C", "6C"}


def test_ruling7_follow_suit_is_compulsory() -> None:
    state = _state(("8D 2S", "AD 10H 4S"), leader=0, trick_no=5)
    state = _play(state, "p.8D")
    for card in ("10H", "4S"):
        with pytest.raises(IllegalAction, match="follow suit"):
            GAME.apply(state, 1, Play(card))
    assert GAME.legal_actions(state, 1) == [Play("AD")]


def test_ruling8_void_heart_wins_the_trick() -> None:
    state = _state(("AS 8D", "2H 10D"), leader=0, trick_no=5)
    # Seat 1 holds no spade: its 2H trumps the ace.
    state = _play(state, "p.AS", "p.2H")
    assert state.leader == 1 and state.won[1] == ("AS", "2H")


def test_ruling9_leader_with_only_hearts_may_lead_one() -> None:
    state = _state(("2H 8H", "4C 6D"), leader=0, trick_no=12)
    assert {str(a) for a in GAME.legal_actions(state, 0)} == {"p.2H", "p.8H"}
    state = _play(state, "p.8H")
    assert state.hearts_broken


def test_ruling10_discarding_a_non_heart_does_not_break_hearts() -> None:
    state = _state(("8D 4C", "QS 6H"), leader=0, trick_no=5)
    state = _play(state, "p.8D", "p.QS")
    assert not state.hearts_broken  # neither a void discard nor QS breaks hearts
    assert state.leader == 0 and sum(1 for c in state.won[0] if c == "QS") == 1


def test_ruling11_void_follower_may_play_heart_before_broken() -> None:
    state = _state(("8D 4C", "6H 2S"), leader=0, trick_no=2)
    state = _play(state, "p.8D")
    assert Play("6H") in GAME.legal_actions(state, 1)


def test_ruling12_hearts_and_qs_allowed_on_trick_one() -> None:
    state = _state(("6C 8D", "QS 2H AD"), leader=0, trick_no=1)
    state = _play(state, "p.6C")
    assert {str(a) for a in GAME.legal_actions(state, 1)} == {"p.QS", "p.2H", "p.AD"}
    assert _play(state, "p.2H").leader == 1


def test_ruling13_qs_may_be_led_but_must_follow_suit() -> None:
    state = _state(("QS 4D 2H", "8C AC 2S"), leader=0, trick_no=2)
    assert Play("QS") in GAME.legal_actions(state, 0)
    assert legal_cards(["8C", "QS"], ["2C"], False, 4, "2C") == {"8C"}
    state = _play(state, "p.QS")
    assert not state.hearts_broken


def test_ruling14_only_hearts_and_qs_must_lead_qs() -> None:
    state = _state(("6H AH QS", "8C 2D 4S"), leader=0, trick_no=11)
    assert GAME.legal_actions(state, 0) == [Play("QS")]
    with pytest.raises(IllegalAction, match="Hearts are not broken"):
        GAME.apply(state, 0, Play("6H"))


def test_ruling15_point_values() -> None:
    assert [card_points(c) for c in ("2H", "AH", "QS", "AS", "QH", "QC")] == [1, 1, 13, 0, 1, 0]


def test_ruling20_no_end_check_within_a_hand() -> None:
    state = _state(("QS 8D", "2S 10D"), leader=0, trick_no=12, totals=(95, 99))
    state = _play(state, "p.QS", "p.2S")  # seat 0 takes 13 points in trick 12: game goes on
    assert GAME.outcome(state) is None and GAME.to_act(state) == {0}


def test_ruling21_trick_history_is_public() -> None:
    state = _state(("8D 4C QS", "2D 6C AS"), leader=0, trick_no=4)
    state = _play(state, "p.8D", "p.2D", "p.4C")
    for seat in (0, 1, None):
        view = GAME.view(state, seat)
        assert view["played"] == [
            {"seat": 0, "card": "8D"},
            {"seat": 1, "card": "2D"},
            {"seat": 0, "card": "4C"},
        ]
        assert view["trick"] == [{"seat": 0, "card": "4C"}]
        assert view["last_trick"] is not None
        assert view["last_trick"]["cards"] == [
            {"seat": 0, "card": "8D"},
            {"seat": 1, "card": "2D"},
        ]


def test_ruling22_dead_cards_shown_after_the_hand() -> None:
    state = _state(("AH", "QH"), leader=1, trick_no=13, broken=True, dead=("8D", "2S"))
    assert all("8D" not in json.dumps(GAME.view(state, s)) for s in (0, 1, None))
    state = _play(state, "p.QH", "p.AH")
    for seat in (0, 1, None):
        last = GAME.view(state, seat)["last_hand"]
        assert last is not None
        assert last["dead"] == ["8D", "2S"]
        assert last["hand_no"] == 1
        assert last["last_trick"]["winner"] == 0


def test_ruling23_single_legal_card_is_one_action() -> None:
    state = _state(("QC 10H AS", "AC 4D"), leader=1, trick_no=6)
    state = _play(state, "p.AC")
    assert GAME.legal_actions(state, 0) == [Play("QC")]


# --- codec and rejections --------------------------------------------------------------------


def test_action_text() -> None:
    assert str(Play("10H")) == "p.10H"
    assert GAME.parse_action("p.QS") == Play("QS")
    for bad in ("p.3C", "QS", "p.", "x.QS", "p.qs", "p.QS.", ""):
        with pytest.raises(BadActionText):
            GAME.parse_action(bad)


def test_rejections_leave_state_untouched() -> None:
    state = GAME.new_game(2, 3)
    before = GAME.to_json(state)
    (seat,) = GAME.to_act(state)
    with pytest.raises(IllegalAction, match="not your turn"):
        GAME.apply(state, 1 - seat, Play(state.hands[1 - seat][0]))
    with pytest.raises(IllegalAction, match="not in your hand"):
        GAME.apply(state, seat, Play(state.hands[1 - seat][0]))
    with pytest.raises(IllegalAction):
        GAME.apply(state, 2, Play(state.opening_card))
    assert GAME.to_json(state) == before
    with pytest.raises(ValueError):
        GAME.new_game(3, 1)
