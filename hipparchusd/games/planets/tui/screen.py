"""The planets screen (docs/planets.md) over the terminal client's shared
:class:`~hipparchusd.play.game_screen.GameScreen`: what its kind's ``tui`` names."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ....client import Pick, can_move
from ....play.game_screen import GameScreen, seat_header
from ....play.phrases import plural
from ....play.table import Line, Panel, header_line
from ....play.widgets import ChoiceBar, ResultScreen
from .follow import PLANETS_SUITS, follow, hand_over_lines, sort_cards, trick_reason
from .look import PlanetsLook

#: A pass's name (protocol/games/planets.md) in words, after "pass 3 cards".
PASS_WORDS = {
    "left": "to the left",
    "right": "to the right",
    "across": "across",
    "split": "split between the others",
    "left2": "two seats left",
    "right2": "two seats right",
}


class PlanetsScreen(GameScreen):
    """Planets (docs/planets.md): the hand sorted, the pass (mark cards, then Enter), the
    legal cards, the shooting choice, points per seat, and why each trick went where it did."""

    PACED = frozenset({"played", "trick", "passed", "hand-over"})
    KEYS = (
        "Arrows choose, Enter plays, Space marks a card to pass (then Enter), or type the card "
        "(`V7`, `sm` for the Saturn Moon) or its number in the list; Ctrl+R resigns, Ctrl+Q "
        "leaves. A card is drawn as its suit's sign, or its capital with `--ascii`, then its "
        "rank, a face in small letters: ⊕ Earth (E), ♃ Jupiter (J), ♂ Mars (M), ♆ Neptune (N), "
        "♄ Saturn (S), ♀ Venus (V); m Moon, s Sun, g Galaxy (`♄m`, `Sm`: the Saturn Moon)."
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.deck = PlanetsLook(symbols=self.look.symbols)
        self.cards: list[str] = []  # legal cards during play
        self.pick: Pick | None = None
        self.choices: list[str] = []  # self / others
        self.marked: list[str] = []  # cards chosen to pass, in order
        self.cursor = 0

    def reduce(self, view: dict[str, Any] | None, kind: str, data: dict[str, Any]) -> Any:
        """:func:`.follow.follow`."""
        if view is None and kind == "hand-started":
            view = {"seat": self.seating.seat}
        return follow(view, kind, data)

    @property
    def players(self) -> int:
        """Seats at the table."""
        return len(self.seating.players)

    def to_move(self) -> list[int]:
        """The seats that must move (several during the pass)."""
        return [int(s) for s in (self.view or {}).get("to_move") or []]

    def explain(self, kind: str, data: dict[str, Any], before: dict[str, Any] | None) -> None:
        """Log planets's events: passes, plays, tricks with their reason, hands' ends."""
        seat = data.get("seat")  # may be absent: only some events have one
        if kind == "hand-started":
            self.note(Text(f"— Hand {data.get('hand_number')} —", "bold"))
            count = int(data.get("pass_count") or 0)
            passing = (
                f"pass {plural(count, 'card')} {data.get('pass_name')}" if count else "no pass"
            )
            self.note(f"{self.label(int(data['dealer']))} dealt; {passing}")
            self.notes = []
        elif kind == "hand" and seat == self.seating.seat:
            self.note(Text.assemble("Your hand: ", self.deck.card_list(data.get("hand") or [])))
        elif kind == "passed":
            if seat != self.seating.seat or not (self.view or {}).get("my_pass"):
                self.note(
                    f"{self.label(int(data['seat']))} passed"
                )  # ours is logged with its cards
        elif kind == "received" and seat == self.seating.seat:
            cards = [str(card) for card in data.get("cards") or []]
            froms = [int(s) for s in data.get("from_seats") or []]
            self.note(Text.assemble("You received ", self.cards_to(cards, froms, "from")))
        elif kind == "played" and seat != self.seating.seat:
            self.note(
                Text.assemble(
                    f"{self.label(int(data['seat']))} played ", self.deck.card(data["card"])
                )
            )
        elif kind == "trick":
            reason = trick_reason(data, self.players, self.label, self.deck.name)
            cards = [str(card) for card in data.get("cards") or []]
            self.notes = [
                Text.assemble(
                    (f"Trick {data.get('number')}: ", "bold"),
                    self.deck.card_list(cards),
                ),
                Text(self.sentence(reason), "italic"),
            ]
            self.note(Text(f"Trick {data.get('number')}: " + reason))
            if data.get("jupiter_broken") and not (before or {}).get("jupiter_broken"):
                self.note("Jupiter is broken: it may be led from now on (P11)")
        elif kind == "shoot-pending":
            self.note(f"{self.label(int(data['seat']))} took every point card and must choose (P8)")
        elif kind == "hand-over":
            self.hand_over(data)

    def hand_over(self, data: dict[str, Any]) -> None:
        """A hand's end: points taken, the shooting choice, the totals."""
        lines = hand_over_lines(data, self.label)
        for line in lines:
            self.note(line)
        table = Table(show_edge=False, box=None, padding=(0, 2))
        for column in ("seat", "took", "added", "total"):
            table.add_column(column, justify="left" if column == "seat" else "right")
        points = data.get("points") or []
        added = data.get("added") or []
        totals = data.get("totals") or []
        for seat in range(len(points)):
            table.add_row(
                self.label(seat), str(points[seat]), f"{added[seat]:+d}", str(totals[seat])
            )
        parts: list[RenderableType] = [table]
        if data.get("shooter") is not None:
            parts += [Text(""), Text(lines[-1])]
        parts.append(Text("Points are bad: after a total passes 100, the lowest wins (P9).", "dim"))
        title = f"Hand {data.get('hand_number')} over"
        self.show_result(ResultScreen(title, Group(*parts), self.auto_close))

    def legend(self) -> Text:
        """What the suit signs (or capitals) and rank letters mean."""
        return self.deck.legend()

    def score_explanation(self) -> str:
        """Planets scores are totals; the lowest wins."""
        return "Scores are the totals: the lowest wins, ties share (P9)."

    async def load_turn(self) -> None:
        """Our turn: the view, and the legal cards, the pass to choose or the shooting
        choice. A move of ours accepted meanwhile makes both out of date, and the ``to-move``
        it led to may already have been read (the last pass's: our lead): they are asked for
        again, as the game stands after it."""
        made = self.moves_made
        await self.refresh_view()
        legal = await self.connection.legal(self.seating.game)
        if self.moves_made != made:
            await self.load_turn()
            return
        if not can_move(legal):
            return
        self.pick = legal if isinstance(legal, Pick) else None
        words = [] if isinstance(legal, Pick) else list(legal)
        self.choices = [w for w in words if w in ("self", "others")]
        self.cards = [w for w in words if w not in ("self", "others")]
        if self.pick is None and not words:
            return
        if self.pick is not None:
            self.marked = [card for card in self.marked if card in self.pick.items]
            self.cursor = min(self.cursor, max(len(self.pick.items) - 1, 0))
        self.my_turn = True
        self.selected = min(self.selected, max(self.selectable() - 1, 0))

    def after_play(self, move: str) -> None:
        """A pass is kept as ours until every seat has passed (``received`` moves it)."""
        if self.pick is not None and self.view is not None:
            self.view["my_pass"] = move.split(",")
        self.pick = None
        self.marked = []
        self.cards = []
        self.choices = []

    def cards_to(self, cards: list[str], seats: list[int], word: str) -> Text:
        """Cards each with a seat (``to`` or ``from``), those of one seat together:
        ``E4 J1 from dave``, or ``E4 to bob, J1 to carol``."""
        groups: dict[int, list[str]] = {}
        for card, seat in zip(cards, seats, strict=False):
            groups.setdefault(seat, []).append(card)
        parts: list[Text | str] = []
        for seat, held in groups.items():
            if parts:
                parts.append(", ")
            parts += [self.deck.card_list(held), f" {word} {self.label(seat)}"]
        return Text.assemble(*parts) if parts else self.deck.card_list(cards)

    def played_text(self, move: str) -> Text:
        """Our pass, with where each card goes (``You passed E4 J1 to bob``); else a card or
        the shooting choice."""
        if self.pick is None:
            return super().played_text(move)
        cards = move.split(",")
        return Text.assemble(
            ("You passed ", "bold"), self.cards_to(cards, list(self.pick.to or []), "to")
        )

    def show_move(self, move: str) -> Text:
        """A card in its suit's colour; a pass's cards; a choice as it is."""
        if move in ("self", "others"):
            return Text(move, "bold")
        return self.deck.card_list(move.split(","))

    def title_text(self) -> Text:
        """Game, hand, pass, totals, fixed deal."""
        view = self.view or {}
        text = Text.assemble(("Planets", "bold"), f"  game {self.seating.game}")
        if view:
            text.append(f"  ·  hand {view.get('hand_number')}")
            count = int(view.get("pass_count") or 0)
            if count:
                where = PASS_WORDS.get(str(view.get("pass_name")), str(view.get("pass_name")))
                text.append(f"  ·  pass {plural(count, 'card')} {where}")
            else:
                text.append("  ·  no pass this hand")
            if view.get("jupiter_broken"):
                text.append("  ·  Jupiter broken", "bold")
            if view.get("fixed_deal"):
                text.append("  ·  fixed deal", "yellow")
        if self.seating.seat is None:
            text.append("  ·  watching", "italic")
        return text

    def seat_panel(self, seat: int) -> RenderableType:
        """Name, dealer, cards held, points this hand, the total, the card played (or the
        pass), each line shortened to fit the box (:class:`~hipparchusd.play.table.Panel`):
        ``total 26``, ``tot 26``, then ``26``. When the box has fewer rows than lines, the
        name is kept first, then the total (P9: the game's score), then the card played,
        then the cards held and points; a box of one row shows the name and the total."""
        view = self.view or {}
        dealer = Text(" dealer", "dim") if view and view.get("dealer") == seat else None
        name = self.label(seat)
        bare = seat_header(self, seat, numbered=False)
        lines = [header_line(seat_header(self, seat), bare, name, dealer)]
        single = None
        if view:
            sizes = view.get("hand_sizes") or []
            count = int(sizes[seat]) if seat < len(sizes) else 0
            taken = int((view.get("points_taken") or [0] * self.players)[seat])
            total = (view.get("totals") or [0] * self.players)[seat]
            held = [f"{plural(count, 'card')}, ", f"{count}c "] if seat < len(sizes) else [""]
            points = [f"{h}{plural(taken, 'pt')}" for h in held] + [plural(taken, "pt")]
            lines.append(Line(tuple(Text(p) for p in points), rank=3))
            totals = (f"total {total}", f"tot {total}", f"{total}")
            lines.append(Line(tuple(Text(t, "bold") for t in totals), rank=1))
            # A box of one row: the name (cut first) and the total, ``bob ◀ tot 26``.
            ones = [Text.assemble(bare, "  ", (t, "bold")) for t in totals[:2]]
            single = Line(tuple(ones), head=len(name))
            card = self.trick_card(seat)
            if view.get("phase") == "pass":
                passed = seat in (view.get("passed") or [])
                words = ("passed ✓", "passed") if passed else ("choosing...", "to pass", "…")
                lines.append(Line(tuple(Text(w, "italic") for w in words), rank=2))
            elif card:
                forms = (Text.assemble("plays ", self.deck.card(card)), self.deck.card(card))
                lines.append(Line(forms, rank=2))
        return Panel(lines, single)

    def trick_card(self, seat: int) -> str | None:
        """The card ``seat`` played to the trick in progress, if any."""
        trick = (self.view or {}).get("trick") or {}
        cards = trick.get("cards") or []
        if not cards:
            return None
        index = (seat - int(trick["leader"])) % self.players
        return str(cards[index]) if index < len(cards) else None

    def center(self) -> RenderableType:
        """The trick in progress (led suit, the cards played to it so far) and the last
        trick's reason."""
        view = self.view or {}
        if not view:
            return Text("")
        parts: list[RenderableType] = []
        trick = view.get("trick") or {}
        tricks = view.get("tricks") or []
        if view.get("phase") == "pass":
            parts.append(Text("Passing", "bold"))
            done = len(view.get("passed") or [])
            parts.append(Text(f"{done} of {self.players} have passed"))
            if view.get("my_pass"):
                parts.append(Text.assemble("you pass ", self.deck.card_list(list(view["my_pass"]))))
        elif trick.get("cards"):
            led = str(trick["cards"][0])
            parts.append(Text(f"Trick {len(tricks) + 1}", "bold"))
            parts.append(
                Text.assemble(
                    f"{self.label(int(trick['leader']))} led ",
                    self.deck.card(led),
                    f": follow {PLANETS_SUITS[led[0]]} if you can",
                )
            )
            if len(trick["cards"]) > 1:  # also in the seats' boxes, unless those are short
                played = [str(card) for card in trick["cards"]]
                parts.append(Text.assemble("so far ", self.deck.card_list(played)))
        elif view.get("phase") == "play":
            parts.append(Text(f"Trick {len(tricks) + 1}", "bold"))
            if not tricks:
                first = Text.assemble(self.deck.card("V1"), " leads the first trick (P5)")
                first.stylize("italic")
                parts.append(first)
        if view.get("received") and not tricks and view.get("phase") == "play":
            # What the pass brought stays in sight until the first trick is done.
            parts.append(Text.assemble("you received ", self.deck.card_list(view["received"])))
        if view.get("shoot_pending") is not None:
            parts.append(Text(f"{self.label(int(view['shoot_pending']))} shot the moon", "bold"))
        if self.notes:
            parts.append(Text(""))
            parts.extend(self.notes)
        return Group(*parts)

    def turn_prompt(self) -> Text:
        """What to do: pass, play or choose."""
        if self.pick is not None:
            count = self.pick.count
            targets = self.targets_text()
            text = Text(f"Pass {plural(count, 'card')} {targets}: ", "bold green")
            text.append(
                f"Space or click marks ({len(self.marked)} of {count}), Enter passes", "dim"
            )
            return text
        if self.choices:
            return Text.assemble(
                ("You took every point card! ", "bold green"),
                ("choose: self (23 off your total) or others (23 to each opponent)", "dim"),
            )
        text = Text("Your turn: play a card. ", "bold green")
        example = "V7" if self.deck.name("V7") == "V7" else f"{self.deck.name('V7')}: V7"
        text.append(f"←/→ choose, Enter plays; or type the card ({example}) or its number", "dim")
        return text

    def targets_text(self) -> str:
        """Where the pass goes: ``to bob`` or ``1st to bob, 2nd to carol, ...``."""
        if self.pick is None or self.pick.to is None:
            return ""
        targets = list(self.pick.to)
        if len(set(targets)) == 1:
            return f"to {self.label(targets[0])}"
        return "; ".join(
            f"{_ordinal(i + 1)} to {self.label(seat)}" for i, seat in enumerate(targets)
        )

    def hand_items(self) -> list[ChoiceBar.Item]:
        """The hand, sorted; legal cards bright, the others dim; marked cards underlined."""
        hand = sort_cards([str(card) for card in (self.view or {}).get("hand") or []])
        items = []
        for card in hand:
            label = self.deck.card(card)
            if card in self.marked:
                label = Text.assemble(("+", "bold green"), label)
                label.stylize("underline")
            style = ""
            if self.my_turn and self.pick is None and self.cards and card not in self.cards:
                style = "dim"
            items.append(ChoiceBar.Item(label, style))
        return items

    def hand_list(self) -> list[str]:
        """Our hand, sorted."""
        return sort_cards([str(card) for card in (self.view or {}).get("hand") or []])

    def hand_cursor(self) -> int | None:
        """The card under the cursor (the pass) or the selected legal card (the play)."""
        if not self.my_turn:
            return None
        hand = self.hand_list()
        if self.pick is not None:
            return self.cursor if hand else None
        if self.cards and self.selected < len(self.cards):
            card = self.cards[self.selected]
            return hand.index(card) if card in hand else None
        return None

    def move_cursor(self) -> int | None:
        """During the pass the arrows move over the hand, not this row: ``[ Pass ]`` is
        reversed once enough cards are marked (Enter passes them), nothing before."""
        if self.my_turn and self.pick is not None:
            return len(self.marked) if len(self.marked) == self.pick.count else None
        return super().move_cursor()

    def move_items(self) -> list[ChoiceBar.Item]:
        """The legal cards numbered, the pass as marked with its targets, or the choice."""
        if not self.my_turn:
            return []
        if self.pick is not None:
            items = []
            to = list(self.pick.to or [])
            for index, card in enumerate(self.marked):
                target = f" → {self.label(to[index])}" if index < len(to) else ""
                items.append(ChoiceBar.Item(Text.assemble(self.deck.card(card), target)))
            if len(self.marked) == self.pick.count:
                items.append(ChoiceBar.Item(Text("[ Pass ]", "bold green")))
            return items
        if self.choices:
            return [
                ChoiceBar.Item(Text(f"{n} {word}", "bold"))
                for n, word in enumerate(self.choices, start=1)
            ]
        return [
            ChoiceBar.Item(Text.assemble((f"{n} ", "dim"), self.deck.card(card)))
            for n, card in enumerate(self.cards, start=1)
        ]

    def selectable(self) -> int:
        """The arrows go through the hand (pass), the choice, or the legal cards."""
        if self.pick is not None:
            return len(self.pick.items)
        return len(self.choices) or len(self.cards)

    def action_move(self, step: int) -> None:
        """During the pass the cursor goes over the whole hand."""
        if self.my_turn and self.pick is not None and self.pick.items:
            self.cursor = (self.cursor + step) % len(self.hand_list() or [0])
            self.redraw()
            return
        super().action_move(step)

    def action_mark(self) -> None:
        """Mark (or unmark) the card under the cursor to pass."""
        if self.my_turn and self.pick is not None:
            hand = self.hand_list()
            if hand:
                self.mark(hand[self.cursor % len(hand)])
                self.redraw()

    def mark(self, card: str) -> None:
        """Mark or unmark ``card`` (never more than the pass's count)."""
        assert self.pick is not None
        if card in self.marked:
            self.marked.remove(card)
        elif len(self.marked) < self.pick.count:
            self.marked.append(card)
        else:
            self.refusal = f"already {plural(self.pick.count, 'card')} marked: unmark one first"

    def action_clear(self) -> None:
        """Forget the typed text and the marks."""
        self.marked = []
        super().action_clear()

    def selected_word(self) -> str:
        """The pass (once enough are marked), the choice, or the selected card."""
        if self.pick is not None:
            if len(self.marked) != self.pick.count:
                self.refusal = (
                    f"mark {plural(self.pick.count, 'card')} to pass "
                    f"({len(self.marked)} marked so far)"
                )
                return ""
            return ",".join(self.marked)
        if self.choices:
            return self.choices[self.selected % len(self.choices)]
        return self.cards[self.selected] if self.cards else ""

    def word_for(self, typed: str) -> str:
        """A number picks from the list; during the pass a card name marks it; anything else
        goes to the daemon as typed."""
        options = self.choices or self.cards
        if typed.isdigit() and self.pick is None:
            number = int(typed)
            if 1 <= number <= len(options):
                return options[number - 1]
            self.refusal = f"no number {number}: choose 1 to {len(options)}"
            return ""
        if self.pick is not None and "," not in typed and typed.upper() in self.hand_list():
            self.mark(typed.upper())
            return ""
        return typed

    def click_hand(self, index: int) -> None:
        """A click marks a card (the pass), or selects it, then plays it (the play). A card
        that is not legal is sent anyway, so that the daemon says why."""
        hand = self.hand_list()
        if index >= len(hand):
            return
        card = hand[index]
        if self.pick is not None:
            self.cursor = index
            self.mark(card)
        elif card in self.cards:
            if self.cards.index(card) == self.selected:
                self.action_submit()
            else:
                self.selected = self.cards.index(card)
        elif not self.choices:
            self.run_worker(self.play(card), group="moves")

    def click_move(self, index: int) -> None:
        """The pass's ``[ Pass ]`` item passes; a marked card unmarks."""
        if self.pick is not None:
            if index < len(self.marked):
                self.marked.pop(index)
            else:
                self.action_submit()
            return
        super().click_move(index)


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")
