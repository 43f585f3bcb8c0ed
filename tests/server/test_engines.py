"""The searches the lobby's results ask for (hipparchusd.server.engines.Engines), with no
pipeline: an engine seat's move is played through the sequencing callable Engines is given,
on that game alone, and an ``analyze`` stream reports with the send callable it is given, to
the asking session only, ending with a final ``analysis`` event (PROTOCOL.md section 9).
The searches run on a real worker process (EnginePool)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import trio

from hipparchusd.lobby import EventMessage, Lobby, Result, Session
from hipparchusd.protocol import parse_request
from hipparchusd.server.engines import Engines, Send, Sequenced
from hipparchusd.server.workers import EnginePool

#: With this fixed deal (hipparchus ``seed=``) seat 1 leads the first trick.
SEAT_1_LEADS = 3
#: Seconds a test may wait for a search: far more than a warm search takes (milliseconds),
#: since the first one waits for the worker process to start, which takes seconds on a loaded
#: machine.
SEARCH_WAIT = 120


def engines_for(lobby: Lobby, sequenced: Sequenced, send: Send, **limits: int) -> Engines:
    """Engines over two pools of one worker each, started on demand."""
    return Engines(
        lobby,
        EnginePool(1, on_demand=True, name="moves"),
        EnginePool(1, on_demand=True, name="analyses"),
        max_searches=limits.get("max_searches", 4),
        max_searches_per_address=limits.get("max_searches_per_address", 4),
        sequenced=sequenced,
        send=send,
    )


def carry_out(lobby: Lobby, session: Session, line: str) -> Result:
    """``line`` from ``session``, prepared and committed (a store that accepts everything);
    it must succeed."""
    request = parse_request(line)
    assert request is not None
    result = lobby.prepare(session, request)
    result.commit()
    assert result.response is not None and result.response.error is None, result.response
    return result


def never_sends(session: Session, messages: Sequence[EventMessage]) -> None:
    raise AssertionError(f"nothing is streamed here, yet {messages} went to {session.id}")


async def never_sequences(games: Sequence[str], prepare: Callable[[], Result]) -> Result:
    raise AssertionError(f"no engine seat moves here, yet a move was played on {games}")


async def test_an_engine_seat_moves_through_the_sequencing_callable() -> None:
    lobby = Lobby(clock=lambda: 1000.0)
    ann = lobby.connect("ann")
    carry_out(lobby, ann, f"new hipparchus seed={SEAT_1_LEADS}")
    carry_out(lobby, ann, "join g1")
    started = carry_out(lobby, ann, "bot g1 level=ismcts:200 name=engine")
    table = lobby.tables["g1"]
    assert table.game.seats_to_move() == {1}  # the engine's seat leads

    played: list[tuple[Sequence[str], Result]] = []
    moved = trio.Event()

    async def sequenced(games: Sequence[str], prepare: Callable[[], Result]) -> Result:
        result = prepare()
        result.commit()
        played.append((games, result))
        moved.set()
        return result

    engines = engines_for(lobby, sequenced=sequenced, send=never_sends)
    async with trio.open_nursery() as nursery:
        await nursery.start(engines.run)
        engines.submit(list(started.engine))
        with trio.fail_after(SEARCH_WAIT):
            await moved.wait()
        nursery.cancel_scope.cancel()

    ((games, result),) = played
    assert tuple(games) == ("g1",)
    # The engine's seat led; in a two-seat trick the other seat follows next (docs/rules.md).
    assert table.game.seats_to_move() == {0}
    kinds = [(d.message.kind, d.message.data.get("seat")) for d in result.deliveries]
    assert ("played", 1) in kinds


async def test_an_analyze_stream_reports_to_its_session_through_the_send_callable() -> None:
    lobby = Lobby(clock=lambda: 1000.0)
    ann, bob = lobby.connect("ann"), lobby.connect("bob")
    carry_out(lobby, ann, f"new hipparchus seed={SEAT_1_LEADS}")
    carry_out(lobby, ann, "join g1")
    carry_out(lobby, bob, "join g1")
    assert lobby.tables["g1"].game.seats_to_move() == {1}  # bob's seat
    asked = carry_out(lobby, bob, "analyze g1 200 interval=50")

    sent: list[tuple[Session, list[EventMessage]]] = []
    final = trio.Event()

    def send(session: Session, messages: Sequence[EventMessage]) -> None:
        sent.append((session, list(messages)))
        if messages[-1].data["final"]:
            final.set()

    engines = engines_for(lobby, sequenced=never_sequences, send=send)
    async with trio.open_nursery() as nursery:
        await nursery.start(engines.run)
        engines.submit(list(asked.engine))
        assert bob.id in engines.streaming_sessions
        with trio.fail_after(SEARCH_WAIT):
            await final.wait()
            await engines.end_stream(bob.id)  # already over: returns once it is wound up
        nursery.cancel_scope.cancel()

    assert all(session is bob for session, _ in sent)
    *reports, (_, last) = sent
    summary = last[-1]
    # The budget of 200 playouts was spent: the last report says so, and is the only final one.
    assert summary.kind == "analysis" and summary.data["seat"] == 1
    assert summary.data["final"] is True and summary.data["reason"] == "budget"
    assert summary.data["playouts"] == 200
    assert all(m.kind == "info" for m in last[:-1])
    assert not any(messages[-1].data["final"] for _, messages in reports)
    assert bob.id not in engines.streaming_sessions


async def test_random_and_heuristic_seats_never_wait_for_a_worker() -> None:
    """A game of ``random`` and ``heuristic`` seats plays to its end with no worker at all
    (issue 24 item 5): their moves are made in this process."""
    lobby = Lobby(clock=lambda: 1000.0)
    ann = lobby.connect("ann")
    carry_out(lobby, ann, f"new hipparchus seed={SEAT_1_LEADS}")
    jobs = list(carry_out(lobby, ann, "bot g1 level=random").engine)
    jobs += carry_out(lobby, ann, "bot g1 level=heuristic").engine
    table = lobby.tables["g1"]
    over = trio.Event()

    async def sequenced(games: Sequence[str], prepare: Callable[[], Result]) -> Result:
        result = prepare()
        result.commit()
        engines.submit(list(result.engine))
        if table.game.outcome is not None:
            over.set()
        return result

    engines = engines_for(lobby, sequenced=sequenced, send=never_sends)
    async with trio.open_nursery() as nursery:
        await nursery.start(engines.run)
        engines.submit(jobs)
        with trio.fail_after(SEARCH_WAIT):
            await over.wait()
        nursery.cancel_scope.cancel()
    assert table.finished
    # No worker was started, nor asked for anything.
    for pool in engines.pools:
        assert pool.ready == 0 and pool.pids == [] and pool.restarts == 0


def test_client_searches_are_bounded_per_address() -> None:
    lobby = Lobby(clock=lambda: 1000.0)
    ann, bob, cat = (
        lobby.connect("10.0.0.1:1"),
        lobby.connect("10.0.0.1:2"),
        lobby.connect("10.0.0.2:1"),
    )
    engines = engines_for(
        lobby, sequenced=never_sequences, send=never_sends, max_searches=3,
        max_searches_per_address=1,
    )  # fmt: skip
    assert engines.refusal(ann) is None
    engines._count(ann, 1)
    refused = engines.refusal(bob)
    assert refused is not None and refused[0] == "max-searches-per-address"
    assert "(max-searches-per-address)" in refused[1]
    assert engines.refusal(cat) is None  # another address
    engines._count(cat, 1)
    engines._count(cat, 1)
    refused = engines.refusal(cat)
    assert refused is not None and refused[0] == "max-searches"  # the server's limit, 3
    assert "(max-searches)" in refused[1]
    engines._count(ann, -1)
    assert engines.searches_by_address == {"10.0.0.2": 2}
