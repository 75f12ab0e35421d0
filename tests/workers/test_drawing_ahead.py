"""The drawing process draws faces ahead only while no request waits: a request that comes
meanwhile is answered after the face under way, before any other; and it ends when its input
does, faces left to draw or not."""

from __future__ import annotations

import io
import os
import pickle
import threading
from typing import Any

from presentation.drawing.api import Pictures
from presentation.drawing.parts import Parts
from presentation.drawing.warm import Warming
from tests.presentation.drawing.sample import MID_GAME, views
from workers.drawing import Requests, serve
from workers.runner import HEADER_SIZE, frame


class Answers(io.BytesIO):
    """The child's output, with how many faces had been drawn ahead at each answer."""

    def __init__(self, warming: Warming) -> None:
        super().__init__()
        self.warming = warming
        self.drawn_at: list[int] = []

    def flush(self) -> None:
        self.drawn_at.append(self.warming.drawn)


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
    out = []
    while data:
        size = int.from_bytes(data[:HEADER_SIZE], "big")
        out.append(pickle.loads(data[HEADER_SIZE : HEADER_SIZE + size]))
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
    answers = Answers(warming)
    os.write(into, frame((1, "hand", "en", (own, position.names), {})))
    child = threading.Thread(target=serve, args=(pictures, source, answers, warming))
    child.start()
    child.join(30)
    assert not child.is_alive()
    os.close(source)
    hand, table = _answers(answers.getvalue())
    assert hand == (1, Pictures().hand(own, position.names), None)
    assert table == (2, Pictures().table(spectator, position.names), None)
    # The hand before any face drawn ahead; the table right after the face under way.
    assert answers.drawn_at == [0, 3]
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
    answers = Answers(warming)
    serve(pictures, source, answers, warming)  # returns at the input's end
    os.close(source)
    assert _answers(answers.getvalue()) == [
        (1, Pictures().hand(own, position.names), None),
        (2, Pictures().table(spectator, position.names), None),
    ]
    assert warming.drawn == 1 and warming.pending  # no face drawn ahead after the failure
