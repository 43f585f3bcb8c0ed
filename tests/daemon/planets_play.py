"""Driving planets games through a live daemon, for the daemon, audit, store and client tests.

A :class:`Table` holds one game's seat connections (text or JSON mode), a JSON spectator that
watches from before the first join, and a :class:`~.planets_referee.Referee` fed with
everything seen. :meth:`Table.step` makes one random legal move (for a simultaneous pass: one
random seat among those ``to-move`` names), checking ``to-move``, ``legal``, the canonical
answer and every public and private event against the referee.
"""

from __future__ import annotations

import random
from typing import Any

import attrs

from hipparchusd.client import Legal, Response, parse_legal, random_move

from .client import Client, Reply
from .planets_referee import Referee, event_of

#: Three seats (18 cards each) where seat 0 wins every trick whatever is played (RULINGS P8):
#: after the left pass of :data:`SHOOT_PASSES` it holds all of Venus (which nobody else can
#: follow), the top four Saturns (above seat 2's S1-S5) and Jupiter 5 to Sun (above seat 1's
#: J1-J4), so every point card, its own and those the others must throw sooner or later, ends
#: in its tricks.
SHOOT_DEAL = [
    "V1,V2,V3,V4,V5,V6,V7,VM,VS,J1,J2,J3,J4,J5,J6,J7,JM,JS",
    "E1,E2,E3,E4,E5,E6,E7,EM,ES,M1,M2,M3,M4,M5,M6,M7,MM,MS",
    "N1,N2,N3,N4,N5,N6,N7,NM,NS,S1,S2,S3,S4,S5,S6,S7,SM,SS",
]
#: Each seat's pass in hand 1 of :data:`SHOOT_DEAL`.
SHOOT_PASSES = ["J1,J2,J3,J4", "E1,E2,E3,E4", "S6,S7,SM,SS"]


def legal_of(reply: Reply) -> Legal:
    """A ``legal`` reply of the test client, read by the client module's ``parse_legal``."""
    obj = reply.json() if reply.lines and reply.lines[0].startswith("{") else None
    return parse_legal(Response(None, reply.lines, obj))


def payload(reply: Reply) -> dict[str, Any]:
    """A reply's fields: the JSON object, or the text ``key=value`` words."""
    if reply.lines and reply.lines[0].startswith("{"):
        data: dict[str, Any] = reply.json()
        return data
    return dict(reply.fields())


def private_events(client: Client, kind: str, hand_number: int) -> list[dict[str, Any]]:
    """The data of every ``kind`` event of hand ``hand_number`` that ``client`` received."""
    found = []
    for line in client.events:
        if line.startswith("* server "):
            continue
        _, got, data = event_of(line)
        if got == kind and int(data["hand_number"]) == hand_number:
            found.append(data)
    return found


@attrs.define
class Table:
    """One planets game at a live daemon: seats, a spectator, the referee, and every move the
    daemon acknowledged as ``(seat, canonical word)``."""

    game: str
    seats: list[Client]
    spectator: Client
    referee: Referee
    rng: random.Random
    tokens: list[str]
    acked: list[tuple[int, str]] = attrs.field(factory=list)
    public_lines: list[str] = attrs.field(factory=list)
    legal_answers: int = 0

    async def _sync(self) -> None:
        """Every event published so far has reached every seat connection."""
        for client in self.seats:
            await client.ok("name")

    async def next_to_move(self) -> list[int]:
        """Feed the spectator's events to the referee up to the next ``to-move`` (its seats)
        or ``game-over`` (``[]``)."""
        while True:
            line = await self.spectator.next_event()
            _, kind, data = event_of(line)
            self.public_lines.append(line)
            referee = self.referee
            if kind == "hand-started":
                await self._sync()
                number = int(data["hand_number"])
                for seat, client in enumerate(self.seats):
                    (dealt,) = private_events(client, "hand", number)
                    referee.deal(seat, dealt)
            referee.public(line)
            if kind == "passed" and len(referee.passed_public) == referee.players:
                await self._check_received()  # that was the last pass of the hand
            if kind == "to-move":
                return referee.to_move()
            if kind == "game-over":
                return []

    async def _check_received(self) -> None:
        """After the last pass: each seat privately received what the rules give it."""
        await self._sync()
        for seat, client in enumerate(self.seats):
            (got,) = private_events(client, "received", self.referee.hand_number)
            self.referee.check_received(seat, got)

    async def play(self, seat: int, word: str) -> str:
        """``seat`` plays ``word``; the referee learns it; return the canonical word."""
        reply = await self.seats[seat].ok(f"play {self.game} {word}")
        canonical = str(payload(reply)["move"]) if reply.lines[0].startswith("{") else reply.text
        referee = self.referee
        if referee.shooter is not None:
            referee.choose(seat, canonical)
        elif referee.in_pass:
            # The canonical word sends every card to the seat the chosen order sent it to.
            targets = referee.targets(seat)
            meant = dict(zip(word.upper().split(","), targets, strict=True))
            assert dict(zip(canonical.split(","), targets, strict=True)) == meant, (word, canonical)
            referee.secret_pass(seat, canonical)
        else:
            assert canonical == word.upper(), (word, canonical)
        self.acked.append((seat, canonical))
        return canonical

    async def step(self, seats: list[int]) -> None:
        """One random legal move by one random seat of ``seats`` (those ``to-move`` named),
        after checking its ``legal`` answer (and now and then a waiting seat's)."""
        seat = self.rng.choice(seats)
        legal = legal_of(await self.seats[seat].ok(f"legal {self.game}"))
        self.referee.check_legal(seat, legal)
        self.legal_answers += 1
        if self.rng.random() < 0.05:
            other = self.rng.randrange(len(self.seats))
            self.referee.check_legal(
                other, legal_of(await self.seats[other].ok(f"legal {self.game}"))
            )
        await self.play(seat, random_move(legal, self.rng))

    async def play_to_end(self, max_moves: int = 100_000) -> None:
        """Random legal moves until ``game-over``."""
        for _ in range(max_moves):
            seats = await self.next_to_move()
            if not seats:
                return
            await self.step(seats)
        raise AssertionError("the game did not end")

    async def record(self) -> dict[str, Any]:
        """The daemon's JSON answer to ``record`` (the spectator asks; JSON mode)."""
        data: dict[str, Any] = (await self.spectator.ok(f"record {self.game}")).json()
        return data

    async def aclose(self) -> None:
        """Close every connection of the table."""
        for client in (*self.seats, self.spectator):
            await client.aclose()


async def open_table(
    port: int,
    options: str,
    *,
    players: int,
    rng: random.Random,
    json_seats: frozenset[int] = frozenset(),
    galaxies: bool = False,
    exact100: bool = False,
) -> Table:
    """Create ``new planets <options>`` (which must say ``players=<players>`` unless it is 4),
    have a JSON spectator watch it, and seat ``players`` connections (those in ``json_seats``
    in JSON mode), seat i named ``p<i>``."""
    spectator = await Client.connect(port)
    await spectator.ok("format json")
    game = str((await spectator.ok(f"new planets {options}")).json()["game"])
    await spectator.ok(f"watch {game}")
    seats, tokens = [], []
    for seat in range(players):
        client = await Client.connect(port)
        if seat in json_seats:
            await client.ok("format json")
        reply = await client.ok(f"join {game} {seat} name=p{seat}")
        fields = payload(reply)
        assert int(fields["seat"]) == seat
        tokens.append(str(fields["token"]))
        seats.append(client)
    referee = Referee(players, galaxies=galaxies, exact100=exact100)
    return Table(game, seats, spectator, referee, rng, tokens)
