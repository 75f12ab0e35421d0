"""Grinch, Grow Your Heart: the test vectors of rules/grinch.md section 8, the card table,
and every phase transition and ruling on small scripted games."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from engine.base import BadActionText, IllegalAction
from engine.grinch import GAME
from engine.grinch.actions import Action, ChooseRow, Discard, Take
from engine.grinch.cards import CARDS, ROWS, bonus_of, bonus_text, card_name, rank_of, suit_of
from engine.grinch.rules import ROUNDS
from engine.grinch.scoring import base, bonus, row_values, score
from engine.grinch.state import GrinchState

# Section 8: hand, bases in row order (W N O P Rainbow Match Run), bonus.
VECTORS = [
    ("W3a W4a W5a W6a W6b", (24, 0, 0, 0, 6, 0, 15), 0),  # 1 one suit; pair of 6s; 3-4-5-6
    ("N2a O3a P3b W4b N5a", (4, 7, 3, 3, 15, 0, 15), 5),  # 2 run 2,3,3,4,5; N2a met by O3a
    ("W3a W3b N3a O3b P3a", (6, 3, 3, 3, 12, 30, 0), 0),  # 3 five of a kind
    ("W1a N2b O3a P4a W5b", (6, 2, 3, 4, 14, 0, 25), 5),  # 4 1-5 run; W1a unmet; N2b met
    ("N1a W2a W4a W6a O5a", (12, 1, 5, 0, 12, 0, 0), 15),  # 5 Sing! met; W2a met by N1a
    ("N1a W3a W5b O6a P6b", (8, 1, 6, 6, 18, 0, 0), 0),  # 6 Sing! unmet (2 W)
    ("O2a P5a W5a N5b O6b", (5, 5, 8, 5, 21, 10, 0), 5),  # 7 Cindy-Lou Who met; three 5s
    ("O2a O3a O4a O5b O6a", (0, 0, 20, 0, 6, 0, 25), 0),  # 8 Cindy-Lou Who unmet; 2-6 run
    ("N2b P2b W6a W6b O1a", (12, 2, 1, 2, 11, 0, 0), 10),  # 9 two +5 meet each other
    ("W4a N4a O4b P1a P1b", (4, 4, 4, 2, 13, 10, 0), 0),  # 10 full house; two +10 unmet
    ("W6a N6a O6a P6a W1b", (7, 6, 6, 6, 24, 20, 0), 0),  # 11 four of a kind; Rainbow max
    ("N1a O1b W3a W4b W5a", (12, 1, 1, 0, 7, 0, 0), 20),  # 12 two +10 W met; no run
    ("W2a W2b N2a N2b O2a", (4, 4, 2, 0, 6, 30, 0), 15),  # 13 five +5 cards, three met
    ("P1a P2a P3a P4b P6b", (0, 0, 0, 16, 6, 0, 15), 0),  # 14 1-2-3-4 run, gap to 6
    ("W2b O3b N4b P5b W6b", (8, 4, 3, 5, 18, 0, 25), 5),  # 15 2-6 run; W2b met
    ("P1a O1a O2b O5a N3a", (0, 3, 8, 1, 9, 0, 0), 10),  # 16 P1a met by three O
    ("W1b N2a O3a P5a W6a", (7, 2, 3, 5, 16, 0, 0), 5),  # 17 1-2-3 and 5-6: no run
    ("W1a N1b P3a P4a P5a", (1, 1, 0, 12, 7, 0, 0), 20),  # 18 two +10 P met by three P
    ("W1a N1b O1a P1b P4b", (1, 1, 1, 5, 7, 20, 0), 0),  # 19 four +10 cards, none met
]
CELLS = [
    pytest.param(hand, row, bases[i] + extra, id=f"v{k + 1}-{row}")
    for k, (hand, bases, extra) in enumerate(VECTORS)
    for i, row in enumerate(ROWS)
]


@pytest.mark.parametrize(("hand", "row", "expected"), CELLS)
def test_vector_cell(hand: str, row: str, expected: int) -> None:
    cards = hand.split()
    assert score(cards, row) == expected
    assert score(reversed(cards), row) == expected  # order is irrelevant


@pytest.mark.parametrize(
    ("hand", "bases", "extra"), VECTORS, ids=[f"v{k + 1}" for k in range(len(VECTORS))]
)
def test_vector_bonus_and_bases(hand: str, bases: tuple[int, ...], extra: int) -> None:
    cards = hand.split()
    assert bonus(cards) == extra
    assert tuple(base(cards, row) for row in ROWS) == bases
    assert row_values(cards) == {row: b + extra for row, b in zip(ROWS, bases, strict=True)}


def test_score_rejects_bad_hands() -> None:
    for bad in (["W1a"] * 5, ["W1a", "W2a", "W3a", "W4a"], ["W1a", "W2a", "W3a", "W4a", "X9z"]):
        with pytest.raises(ValueError):
            score(bad, "run")
    with pytest.raises(ValueError):
        score(["W1a", "W2a", "W3a", "W4a", "W5a"], "flush")


def test_card_table_matches_section_2() -> None:
    assert len(CARDS) == 48 == len(set(CARDS))
    for suit_index, suit in enumerate("WNOP"):
        for rank in range(1, 7):
            for copy_index, copy in enumerate("ab"):
                card = f"{suit}{rank}{copy}"
                assert CARDS.index(card) == 12 * suit_index + 2 * (rank - 1) + copy_index
                assert suit_of(card) == suit and rank_of(card) == rank
    bonus_cards = [c for c in CARDS if bonus_of(c) is not None]
    assert len(bonus_cards) == 16
    named: dict[tuple[str, int], int] = {}
    owned: dict[tuple[str, int], int] = {}
    for card in bonus_cards:
        b = bonus_of(card)
        assert b is not None
        assert (rank_of(card), b.points, b.need) in ((1, 10, 3), (2, 5, 1))
        assert b.suit != suit_of(card)
        named[b.suit, b.points] = named.get((b.suit, b.points), 0) + 1
        owned[suit_of(card), b.points] = owned.get((suit_of(card), b.points), 0) + 1
    assert named == owned == {(s, p): 2 for s in "WNOP" for p in (5, 10)}
    assert bonus_text("N1a") == "+10 W" and bonus_text("O2a") == "+5 P"
    assert bonus_text("W3a") is None
    assert card_name("N1a") == "Sing! Sing! Sing!"
    assert card_name("O2a") == "Cindy-Lou Who"
    assert card_name("W3a") == "Wreaths 3" and card_name("P6b") == "Presents 6"


# ---------------------------------------------------------------- scripted play helpers


def whos_discard(state: GrinchState) -> GrinchState:
    """Every Who discards the first card of their hand."""
    assert state.phase == "WHO_DISCARD"
    for seat in sorted(GAME.to_act(state)):
        state = GAME.apply(state, seat, Discard(state.hands[seat][0]))
    return state


def finish_turn(
    state: GrinchState, takes: tuple[Take, Take] = (Take(None), Take(None))
) -> GrinchState:
    state = whos_discard(state)
    for take in takes:
        state = GAME.apply(state, state.grinch, take)
    return GAME.apply(state, state.grinch, Discard(state.hands[state.grinch][0]))


def score_round(state: GrinchState) -> GrinchState:
    assert state.phase == "SCORING"
    for seat in range(state.players):
        state = GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
    return state


def test_new_game_shuffle_deal_and_first_draw() -> None:
    for n in range(2, 7):
        key = 1234 + n
        state = GAME.new_game(n, key)
        deck = list(CARDS)
        random.Random(key * 100 + 1).shuffle(deck)
        expected: list[list[str]] = [[] for _ in range(n)]
        order = [(0 + i) % n for i in range(1, n + 1)]  # grinch = 0: seats 1, 2, ..., 0
        for card, seat in zip(deck, order * 2, strict=False):
            expected[seat].append(card)
        pos = 2 * n
        for seat in order[:-1]:  # WHO_DRAW skips the Grinch
            expected[seat] += deck[pos : pos + 2]
            pos += 2
        assert state.grinch == 0 and state.round == 1 and state.turn == 1
        assert state.phase == "WHO_DISCARD"
        assert [sorted(h) for h in state.hands] == [sorted(h) for h in expected]
        assert list(state.deck) == deck[pos:]
        assert len(state.deck) == 48 - 2 * n - 2 * (n - 1)
        assert GAME.to_act(state) == set(range(1, n))


def test_flow_check_six_players() -> None:
    state = GAME.new_game(6, 8)
    # 36 after the deal: the Grinch holds only his 2 dealt cards, the Whos 2 + 2 drawn.
    assert [len(h) for h in state.hands] == [2, 4, 4, 4, 4, 4]
    assert 48 - 2 * 6 == 36 and len(state.deck) == 26
    sizes = []
    state = whos_discard(state)
    for turn in (1, 2, 3):
        for _ in range(2):
            state = GAME.apply(state, 0, Take(None))
        sizes.append(len(state.deck))
        state = GAME.apply(state, 0, Discard(state.hands[0][0]))
        if turn < 3:
            sizes.append(len(state.deck))
            state = whos_discard(state)
    assert sizes == [24, 14, 12, 2, 0]
    assert state.phase == "SCORING"
    assert all(len(h) == 5 for h in state.hands)


def test_rounds_grinch_rotation_and_heart() -> None:
    for n in range(2, 7):
        state = GAME.new_game(n, n)
        grinches = []
        for rnd in range(1, ROUNDS[n] + 1):
            assert state.round == rnd
            grinches.append(state.grinch)
            for turn in (1, 2, 3):
                assert state.turn == turn
                assert GAME.view(state, None)["heart"] == turn + 2
                assert all(
                    len(h) == turn + 1 + 2 * (s != state.grinch) for s, h in enumerate(state.hands)
                )
                state = finish_turn(state)
            assert all(len(h) == 5 for h in state.hands) and state.phase == "SCORING"
            state = score_round(state)
        assert grinches == [(r - 1) % n for r in range(1, ROUNDS[n] + 1)]
        assert state.phase == "GAME_END"
        assert GAME.to_act(state) == set()
        assert GAME.outcome(state) is not None
    assert ROUNDS == {2: 6, 3: 6, 4: 4, 5: 5, 6: 6}


def test_who_discards_are_secret_until_all_are_in() -> None:
    state = GAME.new_game(4, 5)
    card = state.hands[2][1]
    state = GAME.apply(state, 2, Discard(card))
    assert GAME.to_act(state) == {1, 3}
    assert card in state.hands[2]  # still held until every Who is in
    for seat in (None, 0, 1, 3):
        view = GAME.view(state, seat)
        assert view["submitted"] == [2]
        assert view["my_pending"] is None
        assert view["piles"] == [[], [], [], []]
        assert f'"{card}"' not in json.dumps(view)
    assert GAME.view(state, 2)["my_pending"] == card
    with pytest.raises(IllegalAction, match="already"):
        GAME.apply(state, 2, Discard(state.hands[2][0]))
    with pytest.raises(IllegalAction):
        GAME.apply(state, 0, Discard(state.hands[0][0]))  # the Grinch waits
    with pytest.raises(IllegalAction):
        GAME.apply(state, 1, Take(None))
    with pytest.raises(IllegalAction, match="not in your hand"):
        GAME.apply(state, 1, Discard(state.hands[3][0]))
    state = GAME.apply(state, 1, Discard(state.hands[1][0]))
    assert all(p == () for p in state.piles)
    last = state.hands[3][-1]
    state = GAME.apply(state, 3, Discard(last))
    assert state.phase == "GRINCH_TAKE" and GAME.to_act(state) == {0}
    assert state.piles[2] == (card,) and state.piles[3] == (last,) and state.piles[0] == ()
    assert [len(h) for h in state.hands] == [2, 3, 3, 3]
    assert GAME.view(state, 1)["submitted"] == []


def test_grinch_takes_one_at_a_time_and_visibility() -> None:
    state = whos_discard(GAME.new_game(3, 11))
    assert [str(a) for a in GAME.legal_actions(state, 0)] == ["t.deck", "t.p1", "t.p2"]
    with pytest.raises(IllegalAction, match="empty"):
        GAME.apply(state, 0, Take(0))  # own pile is empty in turn 1 (ruling 12)
    with pytest.raises(IllegalAction, match="no such pile"):
        GAME.apply(state, 0, Take(5))
    with pytest.raises(IllegalAction):
        GAME.apply(state, 0, Discard(state.hands[0][0]))  # takes come first
    with pytest.raises(IllegalAction, match="Grinch's turn"):
        GAME.apply(state, 1, Take(None))
    top = state.deck[0]
    state = GAME.apply(state, 0, Take(None))
    assert top in state.hands[0] and state.phase == "GRINCH_TAKE"
    for seat in (None, 1, 2):
        view = GAME.view(state, seat)
        assert view["takes"] == [{"source": "deck", "owner": None, "card": None}]
        assert view["takes_done"] == 1
        assert f'"{top}"' not in json.dumps(view)
    assert GAME.view(state, 0)["takes"] == [{"source": "deck", "owner": None, "card": top}]
    pile_card = state.piles[2][-1]
    state = GAME.apply(state, 0, Take(2))
    assert state.phase == "GRINCH_DISCARD" and state.piles[2] == ()
    assert GAME.view(state, 1)["takes"][1] == {"source": "pile", "owner": 2, "card": pile_card}
    assert GAME.view(state, 1)["takes_done"] == 2
    with pytest.raises(IllegalAction):
        GAME.apply(state, 0, Take(None))  # only two takes
    # Ruling 10: any card may be discarded, including one just taken.
    state = GAME.apply(state, 0, Discard(pile_card))
    assert state.piles[0] == (pile_card,)
    assert state.turn == 2 and state.phase == "WHO_DISCARD"
    assert [len(h) for h in state.hands] == [3, 5, 5]
    assert state.takes == ()


def test_twice_from_one_pile_and_from_own_pile() -> None:
    state = finish_turn(GAME.new_game(2, 3))  # turn 2 now
    state = whos_discard(state)
    assert len(state.piles[1]) == 2 and len(state.piles[0]) == 1
    first, second = state.piles[1][1], state.piles[1][0]
    state = GAME.apply(state, 0, Take(1))
    assert "t.p1" in [str(a) for a in GAME.legal_actions(state, 0)]
    state = GAME.apply(state, 0, Take(1))
    assert first in state.hands[0] and second in state.hands[0] and state.piles[1] == ()
    assert [t["card"] for t in GAME.view(state, 1)["takes"]] == [first, second]
    state = GAME.apply(state, 0, Discard(first))
    # Turn 3: the Grinch's own pile holds his earlier discards; pile 1 got one new card.
    state = whos_discard(state)
    assert len(state.piles[1]) == 1
    own_top = state.piles[0][-1]
    assert own_top == first
    state = GAME.apply(state, 0, Take(0))
    assert own_top in state.hands[0]
    state = GAME.apply(state, 0, Take(1))
    with pytest.raises(IllegalAction):
        GAME.apply(state, 0, Take(1))
    assert state.phase == "GRINCH_DISCARD"
    state = GAME.apply(state, 0, Discard(state.hands[0][0]))
    assert state.phase == "SCORING" and [len(h) for h in state.hands] == [5, 5]


def test_empty_pile_cannot_be_chosen() -> None:
    state = whos_discard(GAME.new_game(2, 4))
    state = GAME.apply(state, 0, Take(1))
    assert state.piles[1] == ()
    assert [str(a) for a in GAME.legal_actions(state, 0)] == ["t.deck"]
    before = GAME.to_json(state)
    with pytest.raises(IllegalAction, match="empty"):
        GAME.apply(state, 0, Take(1))
    assert GAME.to_json(state) == before


def to_scoring(n: int, seed: int) -> GrinchState:
    state = GAME.new_game(n, seed)
    for _ in range(3):
        state = finish_turn(state)
    assert state.phase == "SCORING"
    return state


def test_scoring_secret_rows_and_reveal() -> None:
    state = to_scoring(3, 21)
    assert GAME.to_act(state) == {0, 1, 2}
    hands = state.hands
    view = GAME.view(state, 1)
    assert view["row_values"] == row_values(hands[1])
    assert list(view["row_values"]) == list(ROWS)
    assert GAME.view(state, None)["row_values"] is None
    before = {seat: GAME.view(state, seat) for seat in (None, 0, 2)}
    state = GAME.apply(state, 1, ChooseRow("run"))
    assert GAME.view(state, 1)["row_values"] is None
    assert GAME.view(state, 1)["my_pending"] == "run"
    for seat in (None, 0, 2):
        view = GAME.view(state, seat)
        assert view["my_pending"] is None and view["submitted"] == [1]
        # Nothing but the lock-in itself is visible to the others.
        assert view == {**before[seat], "submitted": [1], "to_act": sorted({0, 1, 2} - {1})}
    with pytest.raises(IllegalAction, match="already"):
        GAME.apply(state, 1, ChooseRow("match"))
    state = GAME.apply(state, 0, ChooseRow("run"))  # several may pick the same row
    state = GAME.apply(state, 2, ChooseRow("wreaths"))
    assert state.round == 2 and state.grinch == 1 and state.phase == "WHO_DISCARD"
    view = GAME.view(state, 2)
    points = [score(hands[0], "run"), score(hands[1], "run"), score(hands[2], "wreaths")]
    assert view["last_round"] == {
        "round": 1,
        "grinch": 0,
        "hands": [list(h) for h in hands],
        "rows": ["run", "run", "wreaths"],
        "points": points,
    }
    assert view["sheet"][1]["run"] == points[1] and view["sheet"][1]["match"] is None
    assert view["totals"] == points
    assert view["used_rows"] == ["wreaths"]


def test_row_reuse_refused() -> None:
    state = to_scoring(2, 2)
    state = GAME.apply(GAME.apply(state, 0, ChooseRow("match")), 1, ChooseRow("match"))
    for _ in range(3):
        state = finish_turn(state)
    assert "r.match" not in [str(a) for a in GAME.legal_actions(state, 0)]
    assert len(GAME.legal_actions(state, 0)) == 6
    before = GAME.to_json(state)
    with pytest.raises(IllegalAction, match="already filled"):
        GAME.apply(state, 0, ChooseRow("match"))
    assert GAME.to_json(state) == before


def test_game_end_totals_and_shared_win() -> None:
    state = to_scoring(2, 9)
    # Jump to the last round with equal sheets so that equal points give a shared win.
    cells = (1, 2, 3, 4, 5, None, None)
    state = replace(state, round=ROUNDS[2], sheet=(cells, cells))
    state = replace(state, hands=(state.hands[0], state.hands[0]))  # equal hands (test only)
    state = GAME.apply(GAME.apply(state, 0, ChooseRow("run")), 1, ChooseRow("run"))
    assert state.phase == "GAME_END"
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.totals[0] == outcome.totals[1] == 15 + score(state.hands[0], "run")
    assert outcome.winners == frozenset({0, 1})
    view = GAME.view(state, 0)
    assert view["outcome"] == {"totals": list(outcome.totals), "winners": [0, 1]}
    assert view["to_act"] == [] and view["phase"] == "GAME_END"
    with pytest.raises(IllegalAction, match="over"):
        GAME.apply(state, 0, ChooseRow("match"))
    assert GAME.legal_actions(state, 0) == []


def test_single_winner() -> None:
    state = to_scoring(2, 9)
    state = replace(state, round=ROUNDS[2], sheet=((0,) * 5 + (None, None),) * 2)
    a, b = state.hands
    best = max(ROWS[5:], key=lambda r: score(a, r))
    state = GAME.apply(GAME.apply(state, 0, ChooseRow(best)), 1, ChooseRow(best))
    outcome = GAME.outcome(state)
    assert outcome is not None
    top = max(outcome.totals)
    assert outcome.winners == frozenset(s for s in (0, 1) if outcome.totals[s] == top)
    assert outcome.totals == (score(a, best), score(b, best))


def test_action_texts() -> None:
    for text, action in [
        ("d.W3a", Discard("W3a")),
        ("t.deck", Take(None)),
        ("t.p0", Take(0)),
        ("t.p5", Take(5)),
        ("r.rainbow", ChooseRow("rainbow")),
    ]:
        assert GAME.parse_action(text) == action
        assert str(action) == text
    for bad in ("", "d.", "d.W7a", "d.w3a", "t.p", "t.p10", "t.deck ", "r.flush", "x.y", "d:W3a"):
        with pytest.raises(BadActionText):
            GAME.parse_action(bad)


def test_wrong_seat_and_wrong_move_rejected() -> None:
    state = GAME.new_game(3, 1)
    before = GAME.to_json(state)
    wrong: list[tuple[int, Action]] = [
        (3, Discard("W1a")),
        (-1, Discard("W1a")),
        (1, ChooseRow("run")),
        (1, Take(None)),
    ]
    for seat, action in wrong:
        with pytest.raises(IllegalAction):
            GAME.apply(state, seat, action)
    with pytest.raises(IllegalAction):
        GAME.apply(state, 1, "d.W1a")  # type: ignore[arg-type]  # a text, not an action: refused
    assert GAME.to_json(state) == before
    with pytest.raises(IllegalAction):
        GAME.new_game(1, 0)
    with pytest.raises(IllegalAction):
        GAME.new_game(7, 0)


VIEW_KEYS = {
    "game", "players", "seat", "role", "round", "rounds", "grinch", "turn", "heart", "phase",
    "takes_done", "to_act", "submitted", "my_pending", "deck_size", "piles", "takeable",
    "hand_sizes", "hand", "takes", "rows", "sheet", "totals", "row_values", "used_rows",
    "last_round", "outcome",
}  # fmt: skip


def test_view_keys_and_spectator() -> None:
    state = GAME.new_game(4, 77)
    view = GAME.view(state, None)
    assert set(view) == VIEW_KEYS
    assert view["game"] == "grinch" and view["seat"] is None and view["hand"] is None
    assert view["rounds"] == 4 and view["heart"] == 3 and view["to_act"] == [1, 2, 3]
    assert view["hand_sizes"] == [2, 4, 4, 4] and view["deck_size"] == 48 - 8 - 6
    assert view["rows"] == list(ROWS) and view["used_rows"] is None
    mine = GAME.view(state, 1)
    assert set(mine) == VIEW_KEYS and mine["hand"] == list(state.hands[1])
    assert mine["role"] == "who" and GAME.view(state, 0)["role"] == "grinch"
    with pytest.raises(IllegalAction):
        GAME.view(state, 4)


def test_json_round_trip_through_a_round() -> None:
    state = GAME.new_game(5, 42)
    rng = random.Random(1)
    while state.round < 2:
        text = GAME.to_json(state)
        assert GAME.to_json(GAME.from_json(text)) == text
        assert GAME.from_json(text) == state
        seat = min(GAME.to_act(state))
        state = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    assert GAME.from_json(GAME.to_json(state)) == state
    with pytest.raises(ValueError):
        GAME.from_json('{"game": "hearts"}')
