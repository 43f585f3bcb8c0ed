"""Hipparchus in words on the page (hipparchusd/games/hipparchus/page/words.js), run in a real
browser (headless Chromium, tests/web/browser.py) on tricks and rounds that the rules played:
random matches through the game's own rules (hipparchusd/games/hipparchus/). Each trick's
reason is the terminal client's sentence for it, word for word, and what the sentence claims is
what the rules did: the counts it names are the won counts the rules held before the trick
(RULINGS H7, H8), the seat it says takes the trick is the rules' winner, and a trick without a
winner is the follower's missing answer (H6). A round's scoring lines name the seat that won
more of each suit and score what H10 gives. The log's account rebuilt from a view after a
reload says of each trick what the live events said."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from web.browser import (
    SEAT_LABELS_JS,
    Page,
    daemon_fixture,
    module_page_fixture,
    needs_browser,
    seat_labels,
)

from hipparchusd.games.hipparchus.kind import HIPPARCHUS
from hipparchusd.games.hipparchus.tui.follow import round_lines as hipparchus_round_lines
from hipparchusd.games.hipparchus.tui.follow import trick_reason as hipparchus_trick_reason

pytestmark = needs_browser

daemon = daemon_fixture()
page = module_page_fixture()

WORDS = f"games/{HIPPARCHUS.name}/words.js"
NAMES = ("alice", "bot-random")
SUIT_OF = {"Sun": "S", "Moon": "M", "Earth": "E"}
SUITS = "SME"
#: Random matches enough for every kind of trick: 60 give some 800 of one suit, 400 of two
#: and a dozen without a legal follow (H6).
MATCHES = 60


def played_matches() -> Iterator[dict[str, Any]]:
    """Every trick (``trick`` or ``no-follow`` event's data, with the won counts the rules held
    just before the trick's last play) and every round's end of :data:`MATCHES` random
    matches, and for each round a moment in it: seat 0's view then and the events seat 0 was
    sent in the round up to then."""
    for seed in range(MATCHES):
        game = HIPPARCHUS.create({"seed": str(seed)})
        rng = random.Random(seed)
        round_events: list[tuple[str, dict[str, Any]]] = []
        stop_after = rng.randrange(2, 24)
        start = game.start()
        pending = [(event, None) for event in start]
        while True:
            for event, won_before in pending:
                if event.audience not in (None, 0):
                    continue
                kind, data = event.payload.kind, game.event_data(event.payload)
                if kind == "round-started":
                    round_events = []
                    stop_after = rng.randrange(2, 24)
                round_events.append((kind, data))
                if kind in ("trick", "no-follow"):
                    yield {"what": "trick", "data": data, "won_before": won_before}
                elif kind == "round-over":
                    yield {"what": "round", "data": data}
            if game.outcome is not None:
                break
            if len(round_events) == stop_after:
                yield {"what": "moment", "view": game.view_data(0), "events": list(round_events)}
            seat = min(game.seats_to_move())
            won_before = game.view_data(None)["won"]  # type: ignore[index]
            _, events = game.play_word(seat, rng.choice(game.legal(seat).moves))
            pending = [(event, won_before) for event in events]


@pytest.fixture(scope="module")
def played() -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {"trick": [], "round": [], "moment": []}
    for item in played_matches():
        out[item["what"]].append(item)
    return out


def test_each_trick_is_explained_as_the_terminal_client_does_and_as_the_rules_decided(
    page: Page, played: dict[str, list[dict[str, Any]]]
) -> None:
    tricks = played["trick"]
    cases = [(item, mine) for item in tricks for mine in (0, 1, None)]
    reasons = page.module(
        WORDS,
        SEAT_LABELS_JS + "return data.cases.map(([d, mine]) => "
        "m.trickReason(d.trick, d.won || data.none, label(mine))); }",
        {"names": NAMES, "none": [[0, 0, 0], [0, 0, 0]],
         "cases": [[item["data"], mine] for item, mine in cases]},
    )  # fmt: skip
    kinds = {"same": 0, "different": 0, "no follow": 0}
    for (item, mine), reason in zip(cases, reasons, strict=True):
        data, label = item["data"], seat_labels(NAMES, mine)
        trick = data["trick"]
        # The terminal client's sentence (a no-follow event has set_aside, not won).
        assert reason == hipparchus_trick_reason(trick, data.get("won") or [[0] * 3] * 2, label)
        leader, follower, winner = trick["leader"], 1 - trick["leader"], trick["winner"]
        before = item["won_before"]
        if winner is None:
            kinds["no follow"] += 1
            said = re.fullmatch(r"(\S+) had no legal answer to (\d+) (\w+?)s?: .*H6\)", reason)
            assert said, reason
            assert said[1] == label(follower) and f"{said[2]}{SUIT_OF[said[3]]}" == trick["lead"]
            continue
        taker = f"{label(winner)} take{'' if label(winner) == 'you' else 's'} it"
        assert reason.endswith(taker), (reason, winner)
        if trick["lead"][-1] == trick["follow"][-1]:
            kinds["same"] += 1
            said = re.fullmatch(
                r"same suit: (\d+) \w+ beat (\d+) \w+ \(more cards win\): .*", reason
            )
            assert said, reason
            # More cards win (H7): the larger count named is the winner's play.
            plays = {leader: trick["lead"], follower: trick["follow"]}
            more, fewer = int(plays[winner][:-1]), int(plays[1 - winner][:-1])
            assert (int(said[1]), int(said[2])) == (more, fewer) and more > fewer
            continue
        kinds["different"] += 1
        said = re.fullmatch(
            r"different suits: (\S+) had won (\d+) (\w+?)s?, (\S+) (\d+) (\w+?)s? before this "
            r"trick; (the lower count wins|equal counts go to the follower), so .*",
            reason,
        )
        assert said, reason
        lead_suit, follow_suit = trick["lead"][-1], trick["follow"][-1]
        assert (said[1], SUIT_OF[said[3]], said[4], SUIT_OF[said[6]]) == (
            label(leader), lead_suit, label(follower), follow_suit,
        )  # fmt: skip
        # The counts named are the rules' own before the trick (H8), not the sentence's sums.
        lead_had, follow_had = int(said[2]), int(said[5])
        assert lead_had == before[leader][SUITS.index(lead_suit)]
        assert follow_had == before[follower][SUITS.index(follow_suit)]
        # H7 on those counts gives the rules' winner, by the rule the sentence names.
        if lead_had == follow_had:
            assert said[7] == "equal counts go to the follower" and winner == follower
        else:
            assert said[7] == "the lower count wins"
            assert winner == (leader if lead_had < follow_had else follower)
    assert all(kinds.values()), kinds  # every kind of trick was met


def test_each_rounds_scoring_is_explained_as_the_terminal_client_does(
    page: Page, played: dict[str, list[dict[str, Any]]]
) -> None:
    rounds = played["round"]
    cases = [(item["data"], mine) for item in rounds for mine in (0, None)]
    lines = page.module(
        WORDS,
        SEAT_LABELS_JS + "return data.cases.map(([d, mine]) => m.roundLines(d, label(mine))); }",
        {"names": NAMES, "cases": cases},
    )
    for (data, mine), said in zip(cases, lines, strict=True):
        label = seat_labels(NAMES, mine)
        assert said == hipparchus_round_lines(data, label)
        for index in range(len(SUITS)):
            won = [data["won"][0][index], data["won"][1][index]]
            if won[0] == won[1]:
                assert said[index].endswith("equal: nobody scores")
                continue
            # H10: who won strictly more scores the opponent's count of that suit.
            more = 0 if won[0] > won[1] else 1
            assert f"{label(more)} won more and score" in said[index]
            assert data["result"]["scores"][more][index] == won[1 - more]
            assert f" {won[1 - more]} (" in said[index]


def test_the_account_rebuilt_from_a_view_says_what_the_events_said(
    page: Page, played: dict[str, list[dict[str, Any]]]
) -> None:
    moments = played["moment"]
    assert len(moments) > MATCHES  # a moment in (nearly) every round
    accounts = page.module(
        WORDS,
        SEAT_LABELS_JS + "const you = label(0); return data.moments.map((x) => ({"
        "replayed: m.replayLines(x.view, you),"
        "live: x.events.flatMap(([kind, d]) => m.eventLines(kind, d, you, 0) || [])})); }",
        {"names": NAMES, "moments": moments},
    )
    for moment, account in zip(moments, accounts, strict=True):
        replayed, live = account["replayed"], account["live"]
        # The round and its first leader, then every trick in the same words.
        assert replayed[:2] == live[:2]
        tricks = [line for line in live if line.startswith("Trick ")]
        assert [line for line in replayed if line.startswith("Trick ")] == tricks
        assert len(tricks) == len(moment["view"]["tricks"])
        if moment["view"]["lead"] and moment["view"]["result"] is None:
            # The lead in progress is the last play the events told.
            played_lines = [line for line in live if " played " in line]
            assert replayed[-1] == played_lines[-1]
