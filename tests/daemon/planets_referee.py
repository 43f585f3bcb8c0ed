"""An independent referee for planets games played through the daemon (docs/planets.md,
RULINGS P1-P16), written from the rules and the wire format alone: it imports nothing of
``hipparchusd.games.planets``.

The daemon tests (and the audit, store and client tests) drive a live game and feed the referee
what they saw: the public events (a spectator's stream, in order), each seat's private ``hand``
and ``received`` events, and the moves they made. The referee knows every hand, so it can say
what ``to-move`` and ``legal`` must answer, who wins each trick and with how many points, the
shooting choice, the totals after each hand (with ``exact100=reset``) and who wins. Every
mismatch is an ``AssertionError`` that names the event.

Cards are the two-character wire form ``<suit><rank>`` (suits ``EJMNSV``, ranks
``1234567MSG``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

import attrs

SUITS = "EJMNSV"
RANKS = "1234567MSG"
#: The eleven point cards (P7): Jupiter 1 to Sun, Mars 7, Neptune 7.
POINT_CARDS = frozenset([*(f"J{rank}" for rank in RANKS[:9]), "M7", "N7"])
HAND_POINTS = 23
#: The pass cycle by seat count (P4, P15): (wire name, seat offset of each chosen card).
PASS_CYCLES: dict[int, tuple[tuple[str, tuple[int, ...]], ...]] = {
    3: (("left", (1, 1, 1, 1)), ("right", (-1, -1, -1, -1)), ("split", (1, 1, -1, -1))),
    4: (("left", (1, 1, 1)), ("right", (-1, -1, -1)), ("across", (2, 2, 2)), ("split", (1, 2, -1))),
    5: (
        ("left", (1, 1)),
        ("right", (-1, -1)),
        ("left2", (2, 2)),
        ("right2", (-2, -2)),
        ("none", ()),
    ),
    6: (
        ("left", (1, 1)),
        ("left2", (2, 2)),
        ("across", (3, 3)),
        ("right2", (-2, -2)),
        ("right", (-1, -1)),
        ("none", ()),
    ),
}


def card_key(card: str) -> tuple[int, int]:
    """Sort key of a card: suit (E, J, M, N, S, V), then rank."""
    return SUITS.index(card[0]), RANKS.index(card[1])


def sort_cards(cards: Iterable[str]) -> list[str]:
    """``cards`` in hand order."""
    return sorted(cards, key=card_key)


def points(card: str) -> int:
    """A card's points (P7): 1 for a Jupiter 1 to Sun, 7 for Mars 7 and Neptune 7."""
    if card in ("M7", "N7"):
        return 7
    return 1 if card in POINT_CARDS else 0


def deck(players: int, galaxies: bool = False) -> set[str]:
    """The cards in play (P1, P2)."""
    cards = {suit + rank for suit in SUITS for rank in RANKS[:9]}
    extra = {3: "", 4: "VS", 5: "V", 6: SUITS if galaxies else ""}[players]
    return cards | {suit + "G" for suit in extra}


def pass_of(players: int, hand_number: int) -> tuple[str, tuple[int, ...]]:
    """The pass of hand ``hand_number`` (1-based): its name and the seat offset per card."""
    cycle = PASS_CYCLES[players]
    return cycle[(hand_number - 1) % len(cycle)]


def as_list(value: Any) -> list[str]:
    """A list field of an event: a JSON list, or a text list (``E1,J2``; ``-`` is empty)."""
    if isinstance(value, list):
        return [str(x) for x in value]
    if value is None or value in ("-", ""):
        return []
    return str(value).split(",")


def as_ints(value: Any) -> list[int]:
    """A list of integers of an event field (JSON or text)."""
    return [int(x) for x in as_list(value)]


def as_opt_int(value: Any) -> int | None:
    """An integer field that may be null (JSON ``null``, text ``-``)."""
    if value is None or value == "-":
        return None
    return int(value)


def event_of(line: str) -> tuple[int, str, dict[str, Any]]:
    """(seq, kind, data) of a game event line, text or JSON."""
    if line.startswith("* {"):
        event = json.loads(line[2:])
        return int(event.get("seq", 0)), str(event["kind"]), dict(event["data"])
    parts = line.split(" ")
    data = dict(word.partition("=")[::2] for word in parts[4:])
    return int(parts[2]), parts[3], data


@attrs.define
class Referee:
    """The whole truth of one planets game, checked event by event.

    Call :meth:`deal` with each seat's ``hand`` event data when a hand starts, :meth:`secret_pass`
    for each pass a seat made (the canonical word the daemon answered), and :meth:`public` with
    every public event in the order a spectator received them.
    """

    players: int
    galaxies: bool = False
    exact100: bool = False
    hand_number: int = 0
    dealer: int | None = None
    hands: list[set[str]] = attrs.field(factory=list)
    passes: dict[int, list[str]] = attrs.field(factory=dict)
    passed_public: set[int] = attrs.field(factory=set)
    pass_name: str = ""
    offsets: tuple[int, ...] = ()
    received: dict[int, list[tuple[str, int]]] = attrs.field(factory=dict)
    #: hand number -> seat -> (card, giver) received in that hand's pass
    received_by_hand: dict[int, dict[int, list[tuple[str, int]]]] = attrs.field(factory=dict)
    leader: int | None = None
    trick: list[tuple[int, str]] = attrs.field(factory=list)
    tricks_done: int = 0
    jupiter_broken: bool = False
    taken: list[list[str]] = attrs.field(factory=list)
    totals: list[int] = attrs.field(factory=list)
    shooter: int | None = None
    over: bool = False
    winners: tuple[int, ...] = ()
    dealt: dict[int, list[set[str]]] = attrs.field(factory=dict)
    history: list[tuple[str, int, str]] = attrs.field(factory=list)  # (what, seat, word)
    #: The cards played so far in this hand, in order (public once played).
    played: list[str] = attrs.field(factory=list)
    hands_played: int = 0
    shoots: int = 0

    def __attrs_post_init__(self) -> None:
        self.totals = [0] * self.players

    # What the daemon must answer now.

    @property
    def in_pass(self) -> bool:
        """True while this hand's pass is not complete: until the public ``passed`` event of
        every seat has been seen (a test may make several passes before it reads them)."""
        return bool(self.offsets) and len(self.passed_public) < self.players

    def to_move(self) -> list[int]:
        """The seats that must move now, in seat order."""
        if self.over:
            return []
        if self.shooter is not None:
            return [self.shooter]
        if self.in_pass:
            return [seat for seat in range(self.players) if seat not in self.passed_public]
        assert self.leader is not None
        return [(self.leader + len(self.trick)) % self.players]

    def targets(self, seat: int) -> list[int]:
        """The seat each of ``seat``'s chosen pass cards goes to (P4, P15)."""
        return [(seat + offset) % self.players for offset in self.offsets]

    def legal_cards(self, seat: int) -> list[str]:
        """The cards ``seat`` may play now (P5, P6, P10, P11, P12), sorted."""
        hand = self.hands[seat]
        if not self.trick:
            if self.tricks_done == 0:
                return ["V1"]  # P5, P12: whoever holds it (the rules make it the leader)
            if not self.jupiter_broken:
                others = [card for card in hand if card[0] != "J"]
                if others:  # P6's exception: a hand of nothing but Jupiter may lead it
                    return sort_cards(others)
            return sort_cards(hand)
        led = self.trick[0][1][0]
        follow = [card for card in hand if card[0] == led]
        return sort_cards(follow or hand)

    def check_legal(self, seat: int, legal: Any) -> None:
        """Assert that ``legal`` (the client module's ``parse_legal`` result: a list of words or
        a ``Pick``) is what the rules allow ``seat`` now."""
        if seat not in self.to_move():
            assert not _offers(legal), ("a seat not to move was offered moves", seat, legal)
            return
        if self.shooter is not None:
            assert sorted(legal) == ["others", "self"], legal
        elif self.in_pass:
            assert not isinstance(legal, list), ("the pass is described as a pick", legal)
            assert legal.count == len(self.offsets), legal
            assert list(legal.items) == sort_cards(self.hands[seat]), legal
            assert legal.to is not None and list(legal.to) == self.targets(seat), legal
        else:
            assert legal == self.legal_cards(seat), (seat, legal, self.legal_cards(seat))

    # What the test saw.

    def deal(self, seat: int, data: dict[str, Any]) -> None:
        """``seat``'s ``hand`` event of the hand about to start (its own cards, P2)."""
        number = int(data["hand_number"])
        assert int(data["seat"]) == seat, data
        cards = as_list(data["hand"])
        assert cards == sort_cards(cards), ("a hand is shown sorted", cards)
        self.dealt.setdefault(number, [set() for _ in range(self.players)])[seat] = set(cards)

    def secret_pass(self, seat: int, word: str) -> None:
        """``seat`` passed the cards of ``word`` (the canonical answer to its ``play``)."""
        assert self.in_pass and seat not in self.passes and seat not in self.passed_public, (
            seat,
            word,
        )
        cards = word.split(",")
        assert len(cards) == len(set(cards)) == len(self.offsets), word
        assert set(cards) <= self.hands[seat], (seat, word)
        # The canonical word: each target's cards sorted, groups in target order.
        targets = self.targets(seat)
        groups: dict[int, list[str]] = {}
        for card, target in zip(cards, targets, strict=True):
            groups.setdefault(target, []).append(card)
        assert cards == [c for t in dict.fromkeys(targets) for c in sort_cards(groups[t])], word
        self.passes[seat] = cards
        self.history.append(("pass", seat, word))

    def check_received(self, seat: int, data: dict[str, Any]) -> None:
        """``seat``'s ``received`` event: the cards the others passed it, with their givers."""
        assert int(data["hand_number"]) == self.hand_number and int(data["seat"]) == seat, data
        cards, givers = as_list(data["cards"]), as_ints(data["from_seats"])
        assert len(cards) == len(givers), data
        assert sorted(zip(cards, givers, strict=True)) == sorted(self.received[seat]), (
            seat,
            data,
            self.received[seat],
        )

    def public(self, line: str) -> None:
        """One public event (as a spectator receives it), checked and applied."""
        _, kind, data = event_of(line)
        handler = getattr(self, "_on_" + kind.replace("-", "_"), None)
        if handler is not None:
            handler(data, line)

    def _on_hand_started(self, data: dict[str, Any], line: str) -> None:
        self.hand_number += 1
        assert int(data["hand_number"]) == self.hand_number, line
        dealer = int(data["dealer"])
        if self.dealer is not None:
            assert dealer == (self.dealer + 1) % self.players, ("the deal rotates left", line)
        self.dealer = dealer
        name, offsets = pass_of(self.players, self.hand_number)
        assert data["pass_name"] == name and int(data["pass_count"]) == len(offsets), line
        self.pass_name, self.offsets = name, offsets
        dealt = self.dealt.get(self.hand_number)
        assert dealt is not None and all(dealt), "every seat's hand event came first"
        size = len(deck(self.players, self.galaxies)) // self.players
        assert as_ints(data["hand_sizes"]) == [size] * self.players, line
        assert [len(hand) for hand in dealt] == [size] * self.players
        assert set().union(*dealt) == deck(self.players, self.galaxies), "P1, P2"
        self.hands = [set(hand) for hand in dealt]
        self.passes, self.passed_public, self.received = {}, set(), {}
        self.trick, self.tricks_done, self.jupiter_broken = [], 0, False
        self.played = []
        self.taken = [[] for _ in range(self.players)]
        self.shooter = None
        if not offsets:
            self._after_pass()

    def _on_passed(self, data: dict[str, Any], line: str) -> None:
        seat = int(data["seat"])
        assert set(data) == {"seat"}, ("a passed event carries the seat only", line)
        assert seat in self.passes and seat not in self.passed_public, line
        self.passed_public.add(seat)
        if len(self.passed_public) == self.players:
            self._after_pass()

    def _after_pass(self) -> None:
        """Move the passed cards (P4) and find the leader: whoever holds V1 (P5, P12)."""
        received: dict[int, list[tuple[str, int]]] = {s: [] for s in range(self.players)}
        for seat, cards in self.passes.items():
            for card, target in zip(cards, self.targets(seat), strict=True):
                received[target].append((card, seat))
                self.hands[seat].discard(card)
        for seat, got in received.items():
            self.hands[seat] |= {card for card, _ in got}
        self.received = received
        self.received_by_hand[self.hand_number] = received
        (self.leader,) = [seat for seat in range(self.players) if "V1" in self.hands[seat]]

    def _on_played(self, data: dict[str, Any], line: str) -> None:
        seat, card = int(data["seat"]), str(data["card"])
        assert [seat] == self.to_move() and not self.in_pass, ("out of turn", line)
        assert card in self.legal_cards(seat), ("an illegal card was accepted", line)
        assert int(data["trick_number"]) == self.tricks_done + 1, line
        self.hands[seat].remove(card)
        self.trick.append((seat, card))
        self.played.append(card)
        self.history.append(("play", seat, card))

    def _on_trick(self, data: dict[str, Any], line: str) -> None:
        assert len(self.trick) == self.players, ("a trick before every seat played", line)
        assert int(data["number"]) == self.tricks_done + 1, line
        assert int(data["leader"]) == self.leader, line
        assert as_list(data["cards"]) == [card for _, card in self.trick], line
        led = self.trick[0][1][0]
        winner = max(
            (entry for entry in self.trick if entry[1][0] == led),
            key=lambda entry: RANKS.index(entry[1][1]),
        )[0]
        assert int(data["winner"]) == winner, ("the highest of the led suit wins (P5)", line)
        assert int(data["points"]) == sum(points(card) for _, card in self.trick), line
        if any(card[0] == "J" for _, card in self.trick):
            self.jupiter_broken = True  # P11: from the next trick on
        assert _bool(data["jupiter_broken"]) == self.jupiter_broken, line
        self.taken[winner] += [card for _, card in self.trick]
        self.trick, self.leader = [], winner
        self.tricks_done += 1
        if not any(self.hands):
            shooters = [s for s in range(self.players) if set(self.taken[s]) >= POINT_CARDS]
            self.shooter = shooters[0] if shooters else None

    def _on_shoot_pending(self, data: dict[str, Any], line: str) -> None:
        assert self.shooter is not None and int(data["seat"]) == self.shooter, line

    def choose(self, seat: int, word: str) -> None:
        """The shooter's choice move (``self`` or ``others``), as the test made it."""
        assert seat == self.shooter and word in ("self", "others"), (seat, word)
        self.history.append(("choice", seat, word))

    def _on_hand_over(self, data: dict[str, Any], line: str) -> None:
        assert not any(self.hands) and not self.trick, ("the hand is not over", line)
        assert int(data["hand_number"]) == self.hand_number, line
        taken = [sum(points(card) for card in cards) for cards in self.taken]
        assert sum(taken) == HAND_POINTS, "P7"
        assert as_ints(data["points"]) == taken, line
        assert as_opt_int(data["shooter"]) == self.shooter, line
        choice = data["choice"]
        choice = None if choice in (None, "-") else str(choice)
        if self.shooter is None:
            assert choice is None, line
            added = taken
        else:
            self.shoots += 1
            chosen = [word for what, seat, word in self.history if what == "choice"]
            assert chosen and choice == chosen[-1], line
            if choice == "self":  # P13: the shooter's 23 are not added
                added = [-HAND_POINTS if s == self.shooter else 0 for s in range(self.players)]
            else:
                added = [0 if s == self.shooter else HAND_POINTS for s in range(self.players)]
        assert as_ints(data["added"]) == added, line
        totals = [total + add for total, add in zip(self.totals, added, strict=True)]
        if self.exact100:  # P14: the reset comes before the end test
            totals = [0 if total == 100 else total for total in totals]
        assert as_ints(data["totals"]) == totals, line
        self.totals = totals
        self.shooter = None
        self.hands_played += 1
        if max(totals) > 100:  # P9
            self.over = True
            low = min(totals)
            self.winners = tuple(s for s in range(self.players) if totals[s] == low)

    def _on_to_move(self, data: dict[str, Any], line: str) -> None:
        assert as_ints(data["seats"]) == self.to_move(), (line, self.to_move())

    def _on_game_over(self, data: dict[str, Any], line: str) -> None:
        assert self.over, ("game-over before a total exceeded 100 (P9)", line)
        assert tuple(as_ints(data["winners"])) == self.winners, line
        assert as_ints(data["scores"]) == self.totals, line
        assert as_opt_int(data["resigned"]) is None, line


def _bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    assert value in ("true", "false"), value
    return str(value) == "true"


def _offers(legal: Any) -> bool:
    if isinstance(legal, list):
        return bool(legal)
    count = int(legal.count)
    return count > 0 and len(legal.items) >= count
