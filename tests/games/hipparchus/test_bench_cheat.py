"""The omniscient player of issue 29's ceiling (bench/cheat.py, bench/bench_ceiling.py): its
every world is the true deal, its tree tells the opponent's plays apart as the true hands
do, a late position's root solve plays a move that wins against every defence (RULINGS
H2-H11, by plain minimax), and no module of the daemon can reach it."""

from __future__ import annotations

import ast
import random
import sys
from pathlib import Path

import hipparchusd
from hipparchusd.games.hipparchus import core
from hipparchusd.games.hipparchus.engine_solver import Solver

BENCH = Path(__file__).resolve().parents[3] / "bench"
sys.path.insert(0, str(BENCH))

from cheat import Cheater, TrueInformation, root_solve  # noqa: E402
from test_engine_solver import _late, exhaustive_winner  # noqa: E402


def test_every_world_is_the_true_round() -> None:
    """Whatever the random numbers, the cheater's determinization is the round it was told,
    the opponent's hand included."""
    for number in range(20):
        round_ = _late(80_000 + number, 20)
        if not round_[6]:
            continue
        information = TrueInformation(core.to_move(round_), round_, Solver())
        for seed in range(10):
            assert information.determinize(random.Random(seed)).round == round_


def test_the_opponents_plays_of_one_public_form_are_apart() -> None:
    """In the true deal the opponent's plays are keyed by the core's move, so two plays of
    one count and suit from different clumps (which leave different hands, H2) are two
    moves, not one public form (H13) as an honest seat's tree keys them."""
    found = 0
    for number in range(200):
        round_ = _late(81_000 + number, 24)
        if not round_[6]:
            continue
        mover = core.to_move(round_)
        state = TrueInformation(1 - mover, round_, Solver()).determinize(random.Random(0))
        keys = state.keys()
        assert keys == list(round_[6])
        if len({move & 15 for move in keys}) < len(keys):
            found += 1
    assert found > 10


def test_the_root_solve_plays_a_proved_win() -> None:
    """On late positions (10 cards or fewer) that plain minimax says the seat to move wins,
    the root's solve and the cheater's move win against every defence; where it says the
    seat loses, the root's solve finds no winning move."""
    won = lost = 0
    for number in range(200):
        round_ = _late(82_000 + number, 10)
        if not round_[6]:
            continue
        mover = core.to_move(round_)
        found, _ = root_solve(round_, mover, Solver(cards=28), float("inf"))
        if exhaustive_winner(round_) == mover:
            assert found is not None, number
            assert exhaustive_winner(core.play(round_, found)) == mover, number
            move = Cheater(10_000).move(round_, mover, seed=number)
            assert exhaustive_winner(core.play(round_, move)) == mover, number
            won += 1
        else:
            assert found is None, number
            lost += 1
    assert won > 50 and lost > 20


def test_the_daemon_cannot_reach_the_cheater() -> None:
    """No module of hipparchusd imports bench/ or the cheater: it reads hidden cards."""
    package = Path(hipparchusd.__file__).parent
    for path in package.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                assert name.split(".")[0] not in ("cheat", "bench", "bench_ceiling"), path
