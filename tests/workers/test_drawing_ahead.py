"""The drawing process draws faces ahead only while no request waits: a request that comes
meanwhile is answered after the face under way, before any other; and it ends when its input
does, faces left to draw or not. After a hand it makes the captions of the hand likely next
(CaptionsAhead), and a failure there stops only that. An urgent request (a click's answer
waits for it) is drawn before the others waiting, even those asked before it."""

from __future__ import annotations

import io
import os
import pickle
import random
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from engine import GAMES
from engine.base import View
from presentation.drawing.api import Pictures
from presentation.drawing.parts import Parts
from presentation.drawing.warm import Warming
from tests.presentation.drawing.regen import shown
from tests.presentation.drawing.sample import MID_GAME, hearts_follower, hearts_trick_ended, views
from workers.drawing import CaptionsAhead, Requests, serve
from workers.runner import HEADER_SIZE, frame


class Answers(io.BytesIO):
    """The child's output, with a count read at each answer (as the answer is sent)."""

    def __init__(self, count: Callable[[], int]) -> None:
        super().__init__()
        self.count = count
        self.counted: list[int] = []

    def flush(self) -> None:
        self.counted.append(self.count())


class Interrupting(Warming):
    """Writes a request into the child's input while it draws its ``at``-th face ahead, then
    closes the input (the child ends when it has nothing left to do)."""

    def __init__(self, parts: Parts, sink: int, request: bytes, at: int) -> None:
        super().__init__(parts)
        self.sink, self.request, self.at = sink, request, at

    def step(self) -> bool:
        if self.drawn + 1 == self.at:
            os.write(self.sink, self.request)
            os.close(self.sink)
        return super().step()


def _answers(data: bytes) -> list[Any]:
    """The child's answers (request id, picture, error), each picture as what it shows."""
    out = []
    while data:
        size = int.from_bytes(data[:HEADER_SIZE], "big")
        request_id, png, error = pickle.loads(data[HEADER_SIZE : HEADER_SIZE + size])
        out.append((request_id, None if png is None else shown(png), error))
        data = data[HEADER_SIZE + size :]
    return out


def test_a_request_waits_for_one_face_drawn_ahead_at_most() -> None:
    position = MID_GAME["grinch"]
    _, own, spectator = views(position)
    assert own is not None
    pictures = Pictures()
    assert isinstance(pictures.faces, Parts)
    source, into = os.pipe()
    warming = Interrupting(
        pictures.faces, into, frame((2, "table", "en", (spectator, position.names), {})), at=3
    )
    answers = Answers(lambda: warming.drawn)
    os.write(into, frame((1, "hand", "en", (own, position.names), {})))
    child = threading.Thread(target=serve, args=(pictures, source, answers, warming))
    child.start()
    child.join(30)
    assert not child.is_alive()
    os.close(source)
    hand, table = _answers(answers.getvalue())
    assert hand == (1, shown(Pictures().hand(own, position.names)), None)
    assert table == (2, shown(Pictures().table(spectator, position.names)), None)
    # The hand before any face drawn ahead; the table right after the face under way.
    assert answers.counted == [0, 3]
    assert warming.pending  # the input ended: the child too, faces left undrawn


def test_requests_are_cut_from_the_input_as_it_comes() -> None:
    requests = Requests()
    data = frame((1, "hand", "en", (), {})) + frame((2, "card", "lt", ("ten", "R1a"), {}))
    requests.feed(data[:3])
    assert requests.take() is None
    requests.feed(data[3:-5])
    assert requests.take() == (1, "hand", "en", (), {})
    assert requests.take() is None
    requests.feed(data[-5:])
    assert requests.take() == (2, "card", "lt", ("ten", "R1a"), {})
    assert requests.take() is None


def test_urgent_requests_are_taken_first_each_kind_in_order() -> None:
    requests = Requests()
    requests.feed(
        frame((1, "table", "en", (), {}, False))
        + frame((2, "summary", "en", (), {}))  # a request without the field: not urgent
        + frame((3, "hand", "en", (), {}, True))
        + frame((4, "hand", "en", (), {}, True))
    )
    taken = [requests.take() for _ in range(4)]
    assert [request[0] for request in taken if request is not None] == [3, 4, 1, 2]
    assert requests.take() is None


class Asking(Pictures):
    """Writes ``request`` into the child's input while it draws its first table, then closes
    the input."""

    def __init__(self, sink: int, request: bytes) -> None:
        super().__init__()
        self.sink, self.request = sink, request

    def table(self, view: View, names: Sequence[str]) -> bytes:
        if self.request:
            os.write(self.sink, self.request)
            os.close(self.sink)
            self.request = b""
        return super().table(view, names)


def test_an_urgent_request_goes_before_those_that_came_before_it() -> None:
    """A hand a click waits for, asked while a table is drawn, is drawn next: before a hand
    asked earlier that no click waits for."""
    position = MID_GAME["grinch"]
    _, own, spectator = views(position)
    assert own is not None
    source, into = os.pipe()
    pictures = Asking(into, frame((3, "hand", "en", (own, position.names), {}, True)))
    os.write(into, frame((1, "table", "en", (spectator, position.names), {}, False)))
    os.write(into, frame((2, "hand", "en", (own, position.names), {}, False)))
    answers = Answers(lambda: 0)
    serve(pictures, source, answers, None)  # returns at the input's end
    os.close(source)
    answered = _answers(answers.getvalue())
    assert [request_id for request_id, _, _ in answered] == [1, 3, 2]
    assert all(png is not None and error is None for _, png, error in answered)


class Failing(Interrupting):
    """Fails on its first face, the next request written into the input meanwhile."""

    def step(self) -> bool:
        super().step()
        raise RuntimeError("a face that cannot be drawn")


def test_drawing_ahead_that_fails_stops_and_the_pictures_go_on() -> None:
    position = MID_GAME["hearts"]
    _, own, spectator = views(position)
    assert own is not None
    pictures = Pictures()
    assert isinstance(pictures.faces, Parts)
    source, into = os.pipe()
    table = frame((2, "table", "en", (spectator, position.names), {}))
    warming = Failing(pictures.faces, into, table, at=1)
    os.write(into, frame((1, "hand", "en", (own, position.names), {})))
    answers = Answers(lambda: warming.drawn)
    serve(pictures, source, answers, warming)  # returns at the input's end
    os.close(source)
    assert _answers(answers.getvalue()) == [
        (1, shown(Pictures().hand(own, position.names)), None),
        (2, shown(Pictures().table(spectator, position.names)), None),
    ]
    assert warming.drawn == 1 and warming.pending  # no face drawn ahead after the failure


class Noted(CaptionsAhead):
    """Captions ahead that tell when they have made the newest hand's, and how many."""

    def __init__(self, pictures: Pictures) -> None:
        super().__init__(pictures)
        self.steps = 0
        self.idle = threading.Event()

    def step(self) -> None:
        super().step()
        self.steps += 1
        if not self.pending:
            self.idle.set()


def test_after_a_hand_the_child_makes_the_next_pictures_captions_while_it_waits() -> None:
    rng = random.Random(5)
    state = hearts_follower(GAMES["hearts"].new_game(2, 5), rng, trick_no=2)
    follower, leader = hearts_trick_ended(state, rng)
    names = ["Ada", "Bo"]
    pictures = Pictures()
    parts = pictures.faces
    assert isinstance(parts, Parts)
    captions = Noted(pictures)
    source, into = os.pipe()
    answers = Answers(lambda: parts.labels_made)
    child = threading.Thread(target=serve, args=(pictures, source, answers, None, captions))
    child.start()
    # One write: the child reads both before it is idle, so the failed hand comes before any
    # caption is made ahead.
    os.write(
        into,
        frame((1, "hand", "en", (follower, names), {}))
        + frame((2, "hand", "en", (leader, names[:1]), {})),  # fails: noted not
    )
    assert captions.idle.wait(30)
    assert captions.steps == 1  # the follower's hand; not the one that failed
    made = parts.labels_made
    os.write(into, frame((3, "hand", "en", (leader, names), {})))
    os.close(into)
    child.join(30)
    assert not child.is_alive()
    os.close(source)
    first, failed, later = _answers(answers.getvalue())
    assert first == (1, shown(Pictures().hand(follower, names)), None)
    assert failed[0] == 2 and failed[2] is not None
    assert later == (3, shown(Pictures().hand(leader, names)), None)
    # The next trick's header was made ahead: none made for the third answer. (After it the
    # child may make the leader's next captions before it sees the input end.)
    assert answers.counted[2] == made


class FailingCaptions(CaptionsAhead):
    def step(self) -> None:
        raise RuntimeError("a caption that cannot be made")


def test_captions_ahead_that_fail_stop_and_the_pictures_go_on(
    caplog: pytest.LogCaptureFixture,
) -> None:
    position = MID_GAME["hearts"]
    _, own, spectator = views(position)
    assert own is not None
    pictures = Pictures()
    captions = FailingCaptions(pictures)
    source, into = os.pipe()
    answers = io.BytesIO()
    child = threading.Thread(target=serve, args=(pictures, source, answers, None, captions))
    child.start()
    os.write(into, frame((1, "hand", "en", (own, position.names), {})))
    deadline = time.monotonic() + 30
    while "no more are made ahead" not in caplog.text and time.monotonic() < deadline:
        time.sleep(0.01)
    os.write(into, frame((2, "hand", "en", (own, position.names), {})))
    os.write(into, frame((3, "table", "en", (spectator, position.names), {})))
    os.close(into)
    child.join(30)
    assert not child.is_alive()
    os.close(source)
    assert _answers(answers.getvalue()) == [
        (1, shown(Pictures().hand(own, position.names)), None),
        (2, shown(Pictures().hand(own, position.names)), None),
        (3, shown(Pictures().table(spectator, position.names)), None),
    ]
    assert caplog.text.count("no more are made ahead") == 1  # not tried again
