"""The rules summaries that ``?`` shows, one per game kind (Markdown; the full rules are
docs/rules.md and docs/planets.md)."""

from __future__ import annotations

HIPPARCHUS = """\
# Hipparchus in short

Two players, 30 cards: 10 **Suns** (S), 10 **Moons** (M), 10 **Earths** (E). Each round
deals 14 cards to each player; 2 lie face down, unseen.

* **Your hand keeps the order dealt** (H1). A run of cards of one suit is a **clump** (H2).
  A play takes 1, 2 or 3 cards from one clump; **a clump of 1, 2 or 3 cards is played
  whole**, a bigger clump gives 1, 2 or 3. When a clump leaves, its neighbours close up and
  may merge (H3).
* **Lead** any play (H4). **Follow** with the lead's suit **at another count** if you can;
  only if you cannot, play any other suit, any count (H5). No legal follow at all: the led
  cards are set aside and the round ends (H6).
* **Who takes the trick** (H7): same suit, **more cards win**. Different suits: each player
  counts the cards *of the suit they just played* among the cards they had won before this
  trick; **the lower count wins**, equal counts go to the follower. The number played does
  not matter. The winner keeps the cards face up (H8) and leads next.
* The round ends after the trick in which someone plays their last card (H9).
* **Scoring** (H10): per suit, whoever won *more* of it scores the number of that suit the
  *opponent* won. Higher total wins the round; equal totals go to the follower of the last
  full trick (H11). **Two round wins take the match** (H12).

Notation: `2E@5` = two Earths from the clump holding your 5th card.

Keys: your clumps are lettered a, b, c... from the left, and each legal play is labelled by
its clump and count (`b2` = two cards of clump b). Arrows choose, Enter plays; or type a
label or the notation. Ctrl+R resigns, Ctrl+Q leaves. Full rules: docs/rules.md.
"""

PLANETS = """\
# Planets in short

3 to 6 players, six suits: **E**arth, **J**upiter, **M**ars, **N**eptune, **S**aturn,
**V**enus, ranks 1-7, **M**oon, **S**un (and **G**alaxy above the Sun in some games). A card is
`V1`, `JS`, `M7`.

* **Pass** (P4): before each hand everyone passes cards at the same time: left, right,
  across, or split, by a cycle of the hand number. Nothing moves until all have passed.
* **Play** (P5): whoever holds **V1** leads it. **Follow the led suit** if you can; else play
  anything. **The highest card of the led suit takes the trick** (another suit never wins).
* **Jupiter** (P6, P11) may not be led until a Jupiter has been played to a trick, unless you
  hold only Jupiter.
* **Points** (P7): each Jupiter 1-Sun is 1 point, **M7** and **N7** are 7 each: 23 a hand.
  Points are bad.
* **Shooting** (P8, P13): take all 23 and choose `self` (23 off your total) or `others` (23
  onto every opponent).
* **The end** (P9): after a hand where someone passes 100, the **lowest total wins** (ties
  share).

Keys: arrows choose, Enter plays, Space marks a card to pass (then Enter), or type the card;
Ctrl+R resigns, Ctrl+Q leaves. Full rules: docs/planets.md.
"""

SUMMARIES = {"hipparchus": HIPPARCHUS, "planets": PLANETS}
