"""Gnoming A Round: the deck table (§2), every scoring vector of §10, adjustments, tie-break."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.gnoming import GAME
from engine.gnoming.cards import (
    CARD_IDS,
    IDX_OF_ID,
    LINES,
    card_kind,
    card_label,
    card_short,
    card_value,
    is_card_id,
)
from engine.gnoming.scoring import (
    first_out_adjustments,
    game_winners,
    score_cards,
    score_grid,
)


def grid_ids(text: str) -> list[str]:
    """'3 4 5 / 6 7 8 / 3 4 5' -> 9 distinct card ids (copies numbered in order)."""
    used: Counter[str] = Counter()
    ids: list[str] = []
    for token in text.replace("/", " ").split():
        if token == "M":
            prefix = "MU"
        elif token == "H":
            prefix = "HZ"
        elif token.startswith("-"):
            prefix = f"N{token[1:]}"
        else:
            prefix = f"P{token}"
        used[prefix] += 1
        ids.append(f"{prefix}-{used[prefix]:02d}")
    assert len(ids) == 9
    return ids


# (grid, raw, out and lowest, out and not lowest) — rules §10, table rows 1-20.
VECTORS = [
    ("3 4 5 / 6 7 8 / 3 4 5", 45, 40, 50),
    ("6 6 6 / 3 4 5 / 7 8 3", 24, 19, 29),
    ("5 5 5 / 5 3 4 / 5 7 8", 12, 7, 17),
    ("-2 -2 -2 / 3 4 5 / 6 7 8", 27, 22, 32),
    ("M 4 4 / 7 3 5 / 7 8 6", 11, 6, 16),
    ("8 8 M / 3 4 8 / 5 6 8", 2, -3, 7),
    ("H 3 3 / 3 5 6 / 7 8 -1", 44, 39, 49),
    ("M 3 4 / 5 6 7 / 8 -1 -2", 30, 25, 35),
    ("M 5 5 / 6 M 6 / 7 8 3", 22, 17, 27),
    ("7 7 7 / 7 7 7 / 7 7 7", -42, -47, -37),
    ("4 4 4 / 8 8 8 / -3 H M", -5, -10, 0),
    ("-2 -2 M / 3 4 5 / 6 7 8", 29, 24, 34),
    ("H H H / 3 3 3 / 5 5 5", 22, 17, 27),
    ("6 6 6 / 6 3 6 / 6 4 6", -11, -16, -6),
    ("3 5 4 / 8 M 8 / 7 5 6", 7, 2, 12),
    ("M 3 3 / 4 -1 5 / 5 6 H", 26, 21, 31),
    ("-4 -4 -4 / -3 -3 -3 / -2 -2 M", -25, -30, -20),
    ("M 8 8 / 3 4 5 / M 3 3", 10, 5, 15),
    ("M M M / 5 5 5 / 6 7 8", 16, 11, 21),
    ("5 5 M / 3 4 5 / M 4 5", 1, -4, 6),
]


@pytest.mark.parametrize(
    ("grid", "raw", "out_lowest", "out_not_lowest"),
    VECTORS,
    ids=[f"v{i}" for i in range(1, len(VECTORS) + 1)],
)
def test_vector(grid: str, raw: int, out_lowest: int, out_not_lowest: int) -> None:
    ids = grid_ids(grid)
    assert score_grid(ids) == raw
    # Went out first with the lowest raw score (others scored more): -5.
    lowest = [raw, raw + 1, raw + 30]
    assert raw + first_out_adjustments(lowest, 0)[0] == out_lowest
    # Went out first but someone scored less: +5.
    not_lowest = [raw, raw - 1, raw + 30]
    assert raw + first_out_adjustments(not_lowest, 0)[0] == out_not_lowest


def test_vector_details_wild_choice_and_lines() -> None:
    # v9: the wild is the centre mulligan (cell 4), matching row 1 as 6.
    v9 = score_cards([IDX_OF_ID[c] for c in grid_ids("M 5 5 / 6 M 6 / 7 8 3")])
    assert v9.wild == 4
    assert v9.lines == ((1, 6),)
    # v18: the wild is cell 0; the other mulligan blocks row 2.
    v18 = score_cards([IDX_OF_ID[c] for c in grid_ids("M 8 8 / 3 4 5 / M 3 3")])
    assert v18.wild == 0 and v18.lines == ((0, 8),)
    # v5: one mulligan stands for 4 in its row and for 7 in its column.
    v5 = score_cards([IDX_OF_ID[c] for c in grid_ids("M 4 4 / 7 3 5 / 7 8 6")])
    assert sorted(v5.lines) == [(0, 4), (3, 7)]
    # v10: all six lines.
    v10 = score_cards([IDX_OF_ID[c] for c in grid_ids("7 7 7 / 7 7 7 / 7 7 7")])
    assert len(v10.lines) == 6
    # v13: three hazards counted.
    v13 = score_cards([IDX_OF_ID[c] for c in grid_ids("H H H / 3 3 3 / 5 5 5")])
    assert v13.hazards == 3 and v13.wild is None


def test_round_adjustment_examples() -> None:
    # Rules §10: A went out first.
    assert first_out_adjustments([12, 12, 20], 0) == [-5, 0, 0]  # a tie for lowest counts
    assert first_out_adjustments([13, 12, 20], 0) == [5, 0, 0]
    assert first_out_adjustments([13, 12, 20], None) == [0, 0, 0]  # stall cap: no adjustment
    assert first_out_adjustments([20, 3, 3], 2) == [0, 0, -5]


def test_tie_break_examples() -> None:
    assert game_winners([30, 30, 41], [4, 9, 0]) == frozenset({0})
    assert game_winners([30, 30, 41], [4, 4, 0]) == frozenset({0, 1})
    assert game_winners([29, 30, 41], [40, -9, -9]) == frozenset({0})  # only totals first
    assert game_winners([5, 5, 5], [1, 1, 1]) == frozenset({0, 1, 2})


def test_deck_composition() -> None:
    assert len(CARD_IDS) == 110 and len(set(CARD_IDS)) == 110
    counts = Counter((card_kind(c), card_value(c)) for c in CARD_IDS)
    expected = {("P", 3): 14, ("P", 4): 14, ("P", 5): 14, ("P", 6): 14, ("P", 7): 13}
    expected |= {("P", 8): 13, ("N", -1): 6, ("N", -2): 8, ("N", -3): 5, ("N", -4): 3}
    expected |= {("H", 10): 3, ("M", 0): 3}
    assert counts == expected
    # Index ranges of the rules table.
    assert CARD_IDS[0] == "P3-01" and CARD_IDS[13] == "P3-14" and CARD_IDS[14] == "P4-01"
    assert CARD_IDS[56] == "P7-01" and CARD_IDS[68] == "P7-13" and CARD_IDS[81] == "P8-13"
    assert CARD_IDS[82] == "N1-01" and CARD_IDS[88] == "N2-01" and CARD_IDS[96] == "N3-01"
    assert CARD_IDS[101] == "N4-01" and CARD_IDS[103] == "N4-03"
    assert CARD_IDS[104] == "HZ-01" and CARD_IDS[107] == "MU-01" and CARD_IDS[109] == "MU-03"
    assert LINES[3] == (0, 3, 6)


def test_display_helpers() -> None:
    assert card_label("P6-03") == "6" and card_short("P6-03") == "6"
    assert card_label("N2-01") == "-2" and card_short("N4-03") == "-4"
    assert card_label("HZ-02") == "Hazard" and card_short("HZ-02") == "H"
    assert card_label("MU-01") == "Mulligan" and card_short("MU-01") == "M"
    assert is_card_id("P8-13") and not is_card_id("P8-14") and not is_card_id("N5-01")
    with pytest.raises(KeyError):
        card_label("XX")


def test_score_grid_rejects_bad_input() -> None:
    with pytest.raises(ValueError):
        score_grid(["P3-01"] * 8)
    with pytest.raises(ValueError):
        score_grid(["P3-01", *grid_ids("3 4 5 / 6 7 8 / 3 4 5")[1:-1], "P3-99"])
    with pytest.raises(ValueError):
        score_grid(["P3-01"] * 9)


def test_outcome_uses_tie_break() -> None:
    state = GAME.new_game(3, 1)
    state.phase = "finished"
    state.totals = [30, 30, 41]
    state.round_scores = [[10, 10, 10], [16, 11, 11], [4, 9, 20]]
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.winners == frozenset({0}) and outcome.totals == (30, 30, 41)
    state.round_scores[2] = [4, 4, 20]
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == frozenset({0, 1})
    assert GAME.view(state, 0)["outcome"] == {"totals": [30, 30, 41], "winners": [0, 1]}
