"""The Hipparchus screen (docs/rules.md) over the terminal client's shared
:class:`~hipparchusd.play.game_screen.GameScreen`: what its kind's ``tui`` names."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ....play.game_screen import GameScreen, seat_header
from ....play.phrases import plural, verb_s
from ....play.table import Line, Panel, header_line
from ....play.widgets import ChoiceBar, ResultScreen
from ..core import ROUNDS_TO_WIN
from .follow import HIPPARCHUS_SUITS, SUIT_LETTERS, follow, round_lines, trick_reason, without_play
from .look import HipparchusLook, clump_letter, clumps, hand_text, play_labels


class HipparchusScreen(GameScreen):
    """Hipparchus (docs/rules.md): the hand in its real order with clumps grouped, the legal
    plays, both won piles by suit, and why each trick went where it did."""

    PACED = frozenset({"played", "trick", "no-follow", "round-over"})
    KEYS = (
        "Your clumps are lettered a, b, c... from the left, and each legal play is labelled by "
        "its clump and count (`b2` = two cards of clump b). Arrows choose (Up and Down: more or "
        "fewer cards from the clump), Enter plays; or type a label or the notation (`2E@5`: "
        "two Earths from the clump holding your 5th card). Ctrl+R resigns, Ctrl+K claims the game "
        "over an opponent the server says is absent, Ctrl+Q leaves."
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.deck = HipparchusLook(symbols=self.look.symbols)
        self.moves: list[dict[str, Any]] = []
        self.past_rounds: list[dict[str, Any]] = []

    def reduce(self, view: dict[str, Any] | None, kind: str, data: dict[str, Any]) -> Any:
        """:func:`.follow.follow`."""
        if view is None and kind == "round-started":
            view = {"seat": self.seating.seat}
        return follow(view, kind, data)

    def to_move(self) -> list[int]:
        """The one seat to play, if any."""
        seat = (self.view or {}).get("to_move")
        return [] if seat is None else [int(seat)]

    def explain(self, kind: str, data: dict[str, Any], before: dict[str, Any] | None) -> None:
        """Log Hipparchus's events: plays, tricks with their reason (H7), rounds (H10, H11)."""
        if kind == "round-started":
            leader = int(data["leader"])
            self.note(Text(f"— Round {data.get('round_number')} —", "bold"))
            self.note(f"{self.label(leader)} lead{'s' if leader != self.seating.seat else ''}")
            self.notes = []
        elif kind == "hand" and data.get("seat") == self.seating.seat:
            self.note(Text.assemble("Your hand: ", hand_text(str(data.get("hand")), self.deck)))
        elif kind == "played" and data.get("seat") != self.seating.seat:
            self.note(
                Text.assemble(
                    f"{self.label(int(data['seat']))} played ",
                    self.deck.played(str(data.get("play"))),
                    f" ({plural(int(data.get('hand_size') or 0), 'card')} left)",
                )
            )
        elif kind in ("trick", "no-follow"):
            trick = data.get("trick") or {}
            reason = trick_reason(trick, data.get("won") or [], self.label)
            head = f"Trick {data.get('number')}: "
            if trick.get("winner") is not None:
                head += f"{self.label(int(trick['winner']))} won it. "
            self.notes = [
                Text.assemble(
                    (f"Trick {data.get('number')}: ", "bold"),
                    self.label(int(trick["leader"])),
                    " led ",
                    self.deck.played(str(trick.get("lead"))),
                    *(
                        (", followed by ", self.deck.played(str(trick.get("follow"))))
                        if trick.get("follow")
                        else ()
                    ),
                ),
                Text(self.sentence(reason), "italic"),
            ]
            self.note(Text(head + self.sentence(reason)))
        elif kind == "round-over":
            self.round_over(data)
        elif kind == "match-over" and data.get("resigned") is not None:
            self.note(f"{self.label(int(data['resigned']))} resigned")

    def round_over(self, data: dict[str, Any]) -> None:
        """A round's end: both hands, the face-down cards, the scoring per suit (H10)."""
        self.past_rounds.append(data)
        lines = round_lines(data, self.label)
        for line in lines:
            self.note(line)
        table = Table(show_edge=False, box=None, padding=(0, 2))
        table.add_column("suit")
        for seat in (0, 1):
            table.add_column(f"{self.label(seat)} won", justify="right")
        for seat in (0, 1):
            name = self.label(seat)
            table.add_column(f"{name} score{verb_s(name)}", justify="right")
        won = data.get("won") or [[0, 0, 0], [0, 0, 0]]
        scores = (data.get("result") or {}).get("scores") or [[0, 0, 0], [0, 0, 0]]
        for index, letter in enumerate(SUIT_LETTERS):
            table.add_row(
                Text.assemble(self.deck.cards(letter), f" {HIPPARCHUS_SUITS[letter]}"),
                str(won[0][index]),
                str(won[1][index]),
                str(scores[0][index]),
                str(scores[1][index]),
            )
        revealed = data.get("revealed") or {}
        hands = revealed.get("hands") or ["-", "-"]
        parts: list[RenderableType] = [table, Text("")]
        parts += [Text(line) for line in lines]
        parts.append(Text(""))
        for seat in (0, 1):
            parts.append(
                Text.assemble(
                    f"{self.label(seat)} still held: ", hand_text(str(hands[seat]), self.deck)
                )
            )
        face_down = "".join(str(card) for card in revealed.get("face_down") or [])
        parts.append(Text.assemble("Face down: ", self.deck.cards(face_down)))
        wins = data.get("round_wins") or [0, 0]
        parts.append(Text(f"Round wins: {self.label(0)} {wins[0]}, {self.label(1)} {wins[1]}"))
        title = f"Round {data.get('round_number')} over"
        self.show_result(ResultScreen(title, Group(*parts), self.auto_close))

    def legend(self) -> Text:
        """The suits' signs, with the letter the notation gives each (with symbols only:
        with ``--ascii`` the letters are the cards)."""
        if not self.deck.symbols:
            return Text("")
        text = Text()
        for letter in SUIT_LETTERS:
            text.append_text(self.deck.cards(letter))
            text.append(f" {HIPPARCHUS_SUITS[letter]} ({letter})  ")
        return text

    def score_explanation(self) -> str:
        """Hipparchus scores are round wins (two win the match, H12)."""
        return "Scores are round wins: the first to win two rounds wins the match (H12)."

    async def load_turn(self) -> None:
        """Our turn: the view from ``state`` and the plays from ``legal`` (with clumps)."""
        await self.refresh_view()
        self.moves = await self.connection.legal_described(self.seating.game)
        if not self.moves:
            return
        self.my_turn = True
        self.selected = min(self.selected, len(self.moves) - 1)

    def after_play(self, move: str) -> None:
        """Our hand loses the cards played (the position is in the answer only, H13)."""
        if self.view is not None and self.view.get("hand"):
            self.view["hand"] = without_play(str(self.view["hand"]), move)
        self.moves = []

    def show_move(self, move: str) -> Text:
        """``2E@5 ⊕⊕``."""
        return self.deck.played(move)

    def title_text(self) -> Text:
        """Game, round, round wins, and whether the deal was fixed."""
        view = self.view or {}
        text = Text.assemble(("Hipparchus", "bold"), f"  game {self.seating.game}")
        if view:
            wins = view.get("round_wins") or [0, 0]
            text.append(f"  ·  round {view.get('round_number')}")
            # Short enough for 80 columns with the usual names ("round wins: ... (two win the
            # match)" was cut there, losing the very words that say what the numbers are).
            text.append(
                f"  ·  {self.label(0)} {wins[0]} - {wins[1]} {self.label(1)},"
                f" first to {ROUNDS_TO_WIN} rounds"
            )
            if view.get("fixed_deal"):
                text.append("  ·  fixed deal", "yellow")
        if self.seating.seat is None:
            text.append("  ·  watching", "italic")
        return text

    def seat_panel(self, seat: int) -> RenderableType:
        """Name, cards held, won cards by suit (public, H8), each line shortened to fit the
        box (:class:`~hipparchusd.play.table.Panel`); when the box has fewer rows than lines,
        the name is kept first, then the won cards (what wins the round, H10); a box of one
        row shows the name and the won cards."""
        view = self.view or {}
        name = self.label(seat)
        bare = seat_header(self, seat, numbered=False)
        lines = [header_line(seat_header(self, seat), bare, name)]
        single = None
        if view:
            sizes = view.get("hand_sizes") or [0, 0]
            count = int(sizes[seat])
            held = (f"{plural(count, 'card')} in hand", plural(count, "card"), f"{count}c")
            lines.append(Line(tuple(Text(words) for words in held), rank=2))
            won = (view.get("won") or [[0, 0, 0], [0, 0, 0]])[seat]
            counts = Text()
            for index, letter in enumerate(SUIT_LETTERS):
                counts.append_text(self.deck.cards(letter))
                counts.append(f"{won[index]} ")
            counts.rstrip()
            lines.append(Line((Text.assemble("won ", counts), counts), rank=1))
            single = Line(
                (Text.assemble(bare, "  won ", counts), Text.assemble(bare, "  ", counts)),
                head=len(name),
            )
        return Panel(lines, single)

    def center(self) -> RenderableType:
        """The trick in progress, or the last trick and why it was won."""
        view = self.view or {}
        if not view:
            return Text("")
        parts: list[RenderableType] = []
        lead = view.get("lead")
        tricks = view.get("tricks") or []
        if lead:
            parts.append(Text(f"Trick {len(tricks) + 1}", "bold"))
            parts.append(
                Text.assemble(self.label(int(view["leader"])), " led ", self.deck.played(lead))
            )
            follower = 1 - int(view["leader"])
            parts.append(Text(f"{self.label(follower)} to follow", "italic"))
        elif view.get("result") is None:
            parts.append(Text(f"Trick {len(tricks) + 1}", "bold"))
            parts.append(Text(f"{self.label(int(view.get('leader') or 0))} to lead", "italic"))
        if self.notes:
            parts.append(Text(""))
            parts.extend(self.notes)
        return Group(*parts)

    def turn_prompt(self) -> Text:
        """What to do, with the lead to answer."""
        lead = (self.view or {}).get("lead")
        text = Text("Your turn: ", "bold green")
        if lead:
            text.append_text(Text.assemble("answer ", self.deck.played(str(lead)), ". "))
        else:
            text.append("lead. ")
        text.append(
            "←/→ choose, ↑/↓ more or fewer, Enter plays; or type a play's label (b2: "
            "2 cards of clump b) or its notation (2E@5)",
            "dim",
        )
        return text

    def hand_items(self) -> list[ChoiceBar.Item]:
        """Each clump after its letter (``a`` for the leftmost, :func:`.look.clump_letter`:
        the legal plays' labels name it); the selected play's cards reversed, clumps with no
        legal play dimmed."""
        view = self.view or {}
        hand = str(view.get("hand") or "-")
        legal_starts = {int(move["position"]) for move in self.moves}
        chosen = self.moves[self.selected] if self.my_turn and self.moves else None
        items = []
        for index, (position, run) in enumerate(clumps(hand)):
            label = Text(f"{clump_letter(index)} ", "bold")
            cards = self.deck.cards(run)
            if chosen is not None and int(chosen["position"]) == position:
                cards.stylize("reverse", 0, int(chosen["count"]))
            label.append_text(cards)
            style = "" if not self.my_turn or position in legal_starts else "dim"
            items.append(ChoiceBar.Item(label, style))
        return items

    def play_labels(self) -> list[str]:
        """Each legal play's label: its clump's letter in the hand shown, then its count
        (:func:`.look.play_labels`), e.g. ``c2``."""
        hand = str((self.view or {}).get("hand") or "-")
        plays = [(int(move["position"]), int(move["count"])) for move in self.moves]
        return play_labels(hand, plays)

    def move_items(self) -> list[ChoiceBar.Item]:
        """The legal plays, each labelled by the clump it takes from and its count."""
        if not self.my_turn:
            return []
        return [
            ChoiceBar.Item(
                Text.assemble((f"{label} ", "bold"), self.deck.played(str(move["move"])))
            )
            for label, move in zip(self.play_labels(), self.moves, strict=True)
        ]

    def selectable(self) -> int:
        """The arrows go through the legal plays."""
        return len(self.moves)

    def selected_word(self) -> str:
        """The selected play."""
        return str(self.moves[self.selected]["move"]) if self.moves else ""

    def action_count(self, step: int) -> None:
        """Another count from the same clump (↑ more cards, ↓ fewer)."""
        if not self.my_turn or not self.moves:
            return
        current = self.moves[self.selected]
        same = [i for i, move in enumerate(self.moves) if move["position"] == current["position"]]
        at = same.index(self.selected)
        self.selected = same[(at + step) % len(same)]
        self.redraw()

    def click_hand(self, index: int) -> None:
        """A click on a clump selects its first legal play, then its next count."""
        groups = clumps(str((self.view or {}).get("hand") or "-"))
        if index >= len(groups):
            return
        position = groups[index][0]
        in_clump = [i for i, move in enumerate(self.moves) if int(move["position"]) == position]
        if not in_clump:
            count = len(groups[index][1])
            # Not legal: try it, so that the daemon says why (e.g. H5's follow rule).
            self.run_worker(self.play(f"{min(count, 3)}{groups[index][1][0]}@{position}"))
            return
        if self.selected in in_clump:
            self.selected = in_clump[(in_clump.index(self.selected) + 1) % len(in_clump)]
        else:
            self.selected = in_clump[0]

    def word_for(self, typed: str) -> str:
        """A play's label (``b2``) makes that play; a clump's letter alone makes its one
        legal play (or asks for the count); notation (``2E@5``, always starting with a digit)
        is sent as typed, so that the daemon says why if it is not legal."""
        if not typed[:1].isalpha():
            return typed
        label = typed.lower()
        labels = self.play_labels()
        if label in labels:
            return str(self.moves[labels.index(label)]["move"])
        hand = str((self.view or {}).get("hand") or "-")
        letters = [clump_letter(index) for index in range(len(clumps(hand)))]
        counts = [x for x in labels if x[0] == label[0]]
        if label[0] not in letters:
            named = f"{letters[0]} to {letters[-1]}" if letters else "none"
            self.refusal = f"no clump {label[0]}: your clumps are {named}"
        elif not counts:
            self.refusal = f"no legal play from clump {label[0]} now"
        elif len(label) == 1 and len(counts) == 1:
            return str(self.moves[labels.index(counts[0])]["move"])
        else:
            self.refusal = f"{label} is not a legal play: choose {' or '.join(counts)}"
        return ""
