"""Playing through the fake Discord as users do: read buttons, click them, wait for the bot."""

from __future__ import annotations

import asyncio
import random
import sqlite3
import time
from pathlib import Path
from typing import Any

from tests.e2e.agreement import assert_scores_agree
from tests.fakediscord import FakeDiscord, InteractionRecord, Reply
from tests.fakediscord.components import Button, Select, buttons, selects
from tests.fakediscord.process import BotProcess

JSON = dict[str, Any]


SHORT_IDLE = 0.1  # seconds: enough when the database says no automatic move is to come
# Seconds a whole-game test waits for a live button before failing: a computer may still be
# thinking when the bot has been quiet a moment, on a loaded machine for seconds.
MOVE_STALL = 20.0
# Seconds an answer may take that follows computer players' moves (a move's, or a game's
# start with computers seated): each is a round trip to the thinking process, on a loaded
# machine (a full suite's first tests, run while the other workers still start) for seconds.
AFTER_COMPUTERS = 15.0


async def quiet(
    fake: FakeDiscord, idle: float = 0.25, timeout: float = 30.0, *, next_move: bool = False
) -> None:
    """Wait until the bot has made no request for ``idle`` seconds (counted from when the last
    full rate-limit window reopened) and its database says every game is shown: the bot paces
    its writes, so a pause alone does not mean it is done.

    Where the database also says no computer's (or autopilot's, or forced) move is still to
    come (``fake.idle_checks``), a pause of SHORT_IDLE is enough: a game's messages are marked
    shown only after every one of them went through, so what the pause still guards is only
    the bot's work that no game tracks. Most waits of a whole-game test are this one.

    ``next_move``: the wait between two clicks of a game being played. The next click reads
    a hand, so once the database says every hand shows the latest move and no automatic move
    is to come (``fake.hand_checks``), it goes after SHORT_IDLE without a pause, while the
    table and the bot's untracked messages (a round's summary, a notice) may still wait for
    their channel's window, as they do when players click quickly. A test's last wait,
    before it reads the channel, is without it."""
    deadline = time.monotonic() + timeout
    seen = len(fake.requests)
    last_change = last_request = now = time.monotonic()
    busy = 0.0
    short = min(idle, SHORT_IDLE)
    while time.monotonic() < deadline:
        await asyncio.sleep(0.025)
        now = time.monotonic()
        if len(fake.requests) != seen:
            seen, last_change = len(fake.requests), now
            last_request = now
        busy = fake.rate_limits.busy_for()
        if busy > 0:
            last_change = max(last_change, now + busy)
        if next_move and now - last_request >= short and _hands_done(fake):
            return
        paused = now - last_change
        if paused < short or not all(check() for check in fake.settle_checks):
            continue
        if paused >= idle or (fake.idle_checks and all(c() for c in fake.idle_checks)):
            return
    recent = [f"{r.at - now:+.1f}s {r.method} {r.path} {r.status}" for r in fake.requests[-5:]]
    unsettled = [i for i, check in enumerate(fake.settle_checks) if not check()]
    raise TimeoutError(
        "the bot kept making requests or did not finish showing a game: "
        f"last request {now - last_change:.1f}s ago, rate-limit windows busy {busy:.1f}s, "
        f"settle checks failing: {unsettled}; last requests: {recent}"
    )


def _hands_done(fake: FakeDiscord) -> bool:
    """The database says every player's DM shows the latest move and no automatic move is
    to come (``fake.hand_checks``; False when it cannot say: none registered)."""
    return bool(fake.hand_checks) and all(check() for check in fake.hand_checks)


def assert_no_interaction_on_the_gateway(fake: FakeDiscord) -> None:
    """With the interactions endpoint set, the gateway sessions carried every other event
    but not one interaction (Discord's two ways of delivering them exclude each other)."""
    sessions = list(fake.sessions.values())
    assert sessions and all(s.sent for s in sessions)
    assert not [f for s in sessions for f in s.sent if f["t"] == "INTERACTION_CREATE"]


def bot_env(tmp_path: Path, timeout: str = "0") -> dict[str, str]:
    """The bot's settings for a test: a database in tmp_path; turn timers off by default."""
    return {"DATABASE_PATH": str(tmp_path / "bot.db"), "TURN_TIMEOUT_SECONDS": timeout}


def set_locales(
    fake: FakeDiscord,
    *,
    users: dict[int, str] | None = None,
    guilds: dict[int, str] | None = None,
) -> None:
    """Set Discord languages: interactions then carry ``locale`` (the user's) and
    ``guild_locale`` (the server's), e.g. ``set_locales(fake, users={bob: "ro"})``."""
    for user, locale in (users or {}).items():
        fake.set_user_locale(user, locale)
    for guild, locale in (guilds or {}).items():
        fake.set_guild_locale(guild, locale)


def seat_names(db: Path, game_id: int) -> list[str]:
    with sqlite3.connect(db) as conn:
        rows = conn.execute(
            "SELECT name FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
        ).fetchall()
    return [str(name) for (name,) in rows]


def live_controls(message: JSON) -> tuple[list[Button], list[Select]]:
    """Enabled move buttons and move menus of a message."""
    moves = [b for b in move_buttons(message) if not b.disabled]
    menus = [s for s in selects(message) if s.custom_id.startswith("gs:") and not s.disabled]
    return moves, menus


def newest_live_controls(
    fake: FakeDiscord, user: int
) -> tuple[JSON, list[Button], list[Select]] | None:
    """The user's newest DM with enabled move controls, with those controls."""
    for message in reversed(fake.dm_messages(user)):
        moves, menus = live_controls(message)
        if moves or menus:
            return message, moves, menus
    return None


def move_buttons(message: JSON) -> list[Button]:
    return [b for b in buttons(message) if b.custom_id and b.custom_id.startswith("g:")]


def live_move_buttons(messages: list[JSON]) -> tuple[JSON, list[Button]] | None:
    """The newest message among ``messages`` that has enabled move buttons."""
    for message in reversed(messages):
        enabled = [b for b in move_buttons(message) if not b.disabled]
        if enabled:
            return message, enabled
    return None


def find_button(message: JSON, label: str) -> Button:
    for button in buttons(message):
        if button.label == label:
            return button
    raise LookupError(f"no button {label!r} in {[b.label for b in buttons(message)]}")


COMPUTER_MENU = "🤖 Add a computer player…"  # the lobby's menu of computer levels


def computer_menu(message: JSON) -> Select | None:
    """The lobby's "Add a computer player" menu (None: the server allows no computers)."""
    return next((s for s in selects(message) if s.placeholder == COMPUTER_MENU), None)


async def add_computer(
    fake: FakeDiscord, user: int, lobby_id: int, level: str = "normal"
) -> InteractionRecord:
    """``user`` chooses ``level`` in the lobby's computer menu; the click's record."""
    lobby = fake.message(lobby_id)
    menu = computer_menu(lobby) if lobby is not None else None
    if menu is None:
        raise LookupError(f"lobby {lobby_id} has no computer menu")
    return await fake.select(user, lobby_id, menu.custom_id, [level])


COMPUTERS_MENU = "🤖 Remove a computer or change its level…"  # the lobby's menu of computers


def computers_choice(message: JSON, label: str) -> tuple[str, str]:
    """The lobby's computers menu and the value of its option ``label`` ("Remove Robo Max",
    "Robo Max: play hard"): ``(custom_id, value)``, to choose now or, as an old menu, later."""
    menu = next((s for s in selects(message) if s.placeholder == COMPUTERS_MENU), None)
    if menu is None:
        raise LookupError(f"message {message.get('id')} has no computers menu")
    for option_label, value in menu.options:
        if option_label == label:
            return menu.custom_id, value
    raise LookupError(f"no option {label!r} in {[o for o, _ in menu.options]}")


def channel_message_with_button(fake: FakeDiscord, channel: int, label: str) -> JSON:
    for message in reversed(fake.messages(channel)):
        if any(b.label == label and not b.disabled for b in buttons(message)):
            return message
    raise LookupError(f"no message with a {label!r} button in channel {channel}")


async def open_game(
    fake: FakeDiscord,
    channel: int,
    host: int,
    joiners: list[int],
    computers: int,
    *,
    game: str = "grinch",
    level: str = "normal",
) -> None:
    """`/<game> start`, everyone joins, computers added (at ``level``), the host starts.
    Each click is waited for until the lobby shows it: its update, or on a busy bot its
    deferral's edit (the click's answer may be a deferral, the lobby edited after it)."""
    rec = await fake.slash(host, channel, f"{game} start")
    lobby = await rec.wait_message()
    for user in joiners:
        click = await fake.click(user, int(lobby["id"]), find_button(lobby, "Join").custom_id or "")
        await click.wait_output()
    for _ in range(computers):
        await (await add_computer(fake, host, int(lobby["id"]), level)).wait_output()
    lobby = fake.message(int(lobby["id"])) or lobby
    start = await fake.click(host, int(lobby["id"]), find_button(lobby, "Start").custom_id or "")
    await start.wait_response()  # its acknowledgement first: on a busy bot, a deferral
    await start.wait_output(timeout=AFTER_COMPUTERS if computers else 5.0)
    await quiet(fake)


async def alice_and_bob_playing(
    fake: FakeDiscord,
    bot: BotProcess,
    tmp_path: Path,
    computers: int,
    *,
    game: str = "grinch",
    settle: float = 0.1,
) -> tuple[int, int, int]:
    """Most games' start: clicks settle ``settle`` s, the bot starts on tmp_path/bot.db
    (:func:`bot_env`), alice opens ``game`` in #games with bob and ``computers`` computer
    players. Returns (channel, alice, bob)."""
    fake.click_settle = settle
    await bot.start(env=bot_env(tmp_path))
    channel = fake.channel_named("games")
    alice, bob = fake.user_named("alice"), fake.user_named("bob")
    await open_game(fake, channel, alice, [bob], computers=computers, game=game)
    return channel, alice, bob


def game_row(db: Path) -> sqlite3.Row:
    with sqlite3.connect(db) as conn:
        conn.row_factory = sqlite3.Row
        row = conn.execute("SELECT * FROM games ORDER BY id DESC LIMIT 1").fetchone()
    assert isinstance(row, sqlite3.Row)
    return row


def action_count(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        return int(conn.execute("SELECT COUNT(*) FROM actions").fetchone()[0])


UPDATE_MESSAGE, DEFERRED_UPDATE = 7, 6
OLD_CONTROL = "That move is no longer available."
# A click on an older hand DM whose buttons Discord let live (its retiring edit refused, or
# still waiting for its rate-limit slot) retires it with this: an update, and no move.
OUT_OF_DATE = "This hand is out of date"
# A click on a game that is over draws the clicked hand in its final state with this on top.
GAME_OVER = "This game is over."


def old_control_answer(reply: Reply) -> bool:
    """An old control's answer: the player's hand drawn again with the reason on top (an
    update of the clicked message, or of its deferred response), only the reason, an older
    hand DM marked out of date, or the final hand of a game that is over."""
    shown = [reply.content, *(str(edit.get("content") or "") for edit in reply.edits)]
    return any(OLD_CONTROL in text or OUT_OF_DATE in text or GAME_OVER in text for text in shown)


def move_accepted(reply: Reply) -> bool:
    """An accepted move answers with an update of the clicked message (a refusal is a new
    ephemeral message, or for an old control the hand with the reason on top); when the
    database is slow, a deferred update and then an edit."""
    return reply.type in (UPDATE_MESSAGE, DEFERRED_UPDATE) and not old_control_answer(reply)


def answered(fake: FakeDiscord, rec: InteractionRecord, message_id: int, versions: int) -> bool:
    """The click's own answer is in: after a deferral, the edit of the deferred response or a
    followup (the clicked message may be redrawn meanwhile for another reason, a timeout or
    another player's move, which says nothing of this click); otherwise the clicked message
    redrawn (computer players may think first) or a followup."""
    if rec.response is not None and rec.response.deferred:
        return bool(rec.edits) or bool(rec.followups())
    return len(fake.message_versions(message_id)) > versions or bool(rec.followups())


def movable(
    fake: FakeDiscord, users: list[int], hand_messages: dict[int, int]
) -> list[tuple[int, JSON, list[Button]]]:
    """Each user with a live move button: the user, the message and its enabled buttons (from
    the message in ``hand_messages`` for a user there, else from their newest DM)."""
    candidates = []
    for user in users:
        if user in hand_messages:
            message = fake.message(hand_messages[user])
            found = live_move_buttons([message]) if message else None
        else:
            found = live_move_buttons(fake.dm_messages(user))
        if found:
            candidates.append((user, *found))
    return candidates


async def play_one_move(
    fake: FakeDiscord,
    users: list[int],
    rng: random.Random,
    *,
    hand_messages: dict[int, int],
    next_move: bool = False,
) -> InteractionRecord | None:
    """One user with a live move button clicks one at random: the click, once answered;
    None if nobody can move.

    Users in ``hand_messages`` play from that ephemeral message (DMs closed); the others from
    their newest DM. ``next_move``: another click follows at once (see :func:`quiet`); the
    caller waits for the table itself before reading it.
    """
    candidates = movable(fake, users, hand_messages)
    if not candidates:
        return None
    user, message, options = rng.choice(candidates)
    button = rng.choice(options)
    message_id = int(message["id"])
    versions = len(fake.message_versions(message_id))
    rec = await fake.click(user, message_id, button.custom_id or "")
    reply = await rec.wait_response()
    assert move_accepted(reply), reply
    # An accepted move always redraws the message it was made from; computer players may
    # think for a while before that, so wait for the redraw (or an error) first.
    await fake.wait_for(lambda: answered(fake, rec, message_id, versions), timeout=AFTER_COMPUTERS)
    assert move_accepted(reply), reply  # a deferred answer is read once it came
    await quiet(fake, next_move=next_move)
    errors = [f.get("content") for f in rec.followups()]
    assert not errors, f"a live button was refused: {errors}"
    return rec


async def open_hand(fake: FakeDiscord, user: int, channel: int) -> int:
    """Press "My hand" on the table; returns the id of the ephemeral hand message."""
    table = channel_message_with_button(fake, channel, "My hand")
    rec = await fake.click(user, int(table["id"]), find_button(table, "My hand").custom_id or "")
    await rec.wait_response()
    message = await rec.wait_message()
    assert fake.is_ephemeral(message)
    return int(message["id"])


async def _wait_for_a_move(
    fake: FakeDiscord, users: list[int], hands: dict[int, int], db: Path
) -> None:
    """Wait, as a player waits for a slow computer, until someone has a live button or the
    game is over; fails after MOVE_STALL seconds."""
    try:
        await fake.wait_for(
            lambda: game_row(db)["status"] != "active" or movable(fake, users, hands),
            timeout=MOVE_STALL,
        )
    except TimeoutError:
        raise AssertionError(
            f"the game is active but nobody has had a live button for {MOVE_STALL:.0f} s"
        ) from None


async def play_to_the_end(
    fake: FakeDiscord,
    users: list[int],
    rng: random.Random,
    db: Path,
    *,
    channel: int,
    no_dm: tuple[int, ...] = (),
    limit: int = 400,
    check_scores: bool = True,
) -> int:
    """Click random live buttons until the newest game is over, then wait for the bot to be
    done (the result in the channel); returns the clicks made. A game that finished is then
    checked: its chart, `/scores` (asked by the first user), result and stored results agree
    (:func:`tests.e2e.agreement.assert_scores_agree`; ``check_scores`` False: not now)."""
    hands: dict[int, int] = {}
    clicks = 0
    while game_row(db)["status"] == "active":
        if not await play_one_move(fake, users, rng, hand_messages=hands, next_move=True):
            if not no_dm:
                await _wait_for_a_move(fake, users, hands, db)
                continue
            await quiet(fake)  # the table, whose My hand button is about to be pressed
            for user in no_dm:  # a player without DMs opens a fresh hand from the table
                hands[user] = await open_hand(fake, user, channel)
            if not await play_one_move(fake, users, rng, hand_messages=hands, next_move=True):
                raise AssertionError("the game is active but nobody has a live button")
        clicks += 1
        assert clicks < limit
    await quiet(fake)
    if check_scores and users and game_row(db)["status"] == "finished":
        await assert_scores_agree(fake, db, channel, users[0])
        await quiet(fake)
    return clicks
