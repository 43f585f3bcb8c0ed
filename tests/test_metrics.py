"""The metrics' own arithmetic (hipparchusd.metrics): bucket counts as Prometheus reads them,
how a game ended, and labels only from fixed sets."""

from __future__ import annotations

import re

from prometheus_client import generate_latest

from hipparchusd.games.base import Outcome
from hipparchusd.metrics import OTHER_COMMAND, Histogram, Levels, Metrics, ending
from hipparchusd.records import AddMove, EndGame, Finish, Snapshot

LEVELS = Levels(
    connections={"tcp": 2},
    games={("hipparchus", "playing"): 1},
    searches_running=1,
    searches_queued=3,
    worker_restarts=0,
    writer_restarts=1,
    maintenance=False,
    draining=False,
)


def test_a_value_counts_in_the_first_bucket_whose_bound_it_does_not_exceed() -> None:
    histogram = Histogram((0.1, 1.0))
    for value in (0.05, 0.1, 0.5, 1.0, 7.0):
        histogram.observe(value)
    # Prometheus's buckets are cumulative and "le": a value equal to a bound is in it.
    assert histogram.buckets() == [("0.1", 2), ("1", 4), ("+Inf", 5)]
    assert histogram.total == 0.05 + 0.1 + 0.5 + 1.0 + 7.0


def test_how_a_game_ended() -> None:
    assert ending(Outcome((0,), (3, 1))) == "played"
    assert ending(Outcome((1,), (0, 0), resigned=0)) == "resigned"
    assert ending(Outcome.abandonment()) == "abandoned"
    assert ending(Outcome.operator_end()) == "operator"
    # The clocks' endings (issue 27): a flag and a claim resign a seat, yet say how.
    assert ending(Outcome((1,), (0, 0), resigned=0, timeout=0)) == "timeout"
    assert ending(Outcome((0,), (0, 0), resigned=1, claimed=True)) == "claim"
    assert ending(Outcome.abortion()) == "abort"


def test_the_exposition_has_every_family_and_only_fixed_label_values() -> None:
    metrics = Metrics(["play", "legal"], lambda: LEVELS)
    metrics.answered("play", 0.002, None, None)
    metrics.answered("g1-alice-secret", 0.001, "unknown-command", None)
    metrics.answered("new", 0.0001, "limit", "max-games")
    metrics.stored("add_move", 0.004)
    metrics.committed(3)
    outcomes = {"g1": ("hipparchus", Outcome((0,), (2, 1))), "g2": ("planets", None)}
    metrics.carried_out(
        [AddMove("g1", 0, "1S@1"), Snapshot("g1", None), Finish("g1", None)], outcomes.get
    )
    metrics.carried_out([EndGame("g2", None, "why")], lambda _: ("planets", Outcome.operator_end()))
    text = generate_latest(metrics.registry).decode()
    assert 'hipparchusd_request_duration_seconds_count{command="play"} 1.0' in text
    assert f'hipparchusd_request_duration_seconds_count{{command="{OTHER_COMMAND}"}} 2.0' in text
    assert "g1-alice-secret" not in text and "why" not in text
    assert 'hipparchusd_error_answers_total{code="limit"} 1.0' in text
    assert 'hipparchusd_refusals_total{limit="max-games"} 1.0' in text
    assert "hipparchusd_moves_total 1.0" in text
    assert 'hipparchusd_server_moves_total{by="timeout"} 0.0' in text
    assert 'hipparchusd_games_ended_total{how="played",kind="hipparchus"} 1.0' in text
    assert 'hipparchusd_games_ended_total{how="operator",kind="planets"} 1.0' in text
    assert 'hipparchusd_store_commit_duration_seconds_count{call="add_move"} 1.0' in text
    assert "hipparchusd_store_commit_batch_size_sum 3.0" in text
    assert 'hipparchusd_engine_searches{state="queued"} 3.0' in text
    assert "hipparchusd_store_writer_restarts_total 1.0" in text
    assert 'hipparchusd_connections{transport="websocket"} 0.0' in text
    assert 'hipparchusd_games{kind="hipparchus",status="playing"} 1.0' in text


def test_every_metric_the_operators_guide_names_is_exported() -> None:
    # systemd/README.md's table and alert rules name metrics; each must be one the daemon has.
    from pathlib import Path

    guide = (Path(__file__).resolve().parents[1] / "systemd" / "README.md").read_text()
    named = set(re.findall(r"\bhipparchusd_[a-z_]+", guide))
    metrics = Metrics(["play"], lambda: LEVELS)
    metrics.refused("max-games")
    metrics.opened("tcp")
    exported = {
        sample.name for family in metrics.registry.collect() for sample in family.samples
    } | {family.name for family in metrics.registry.collect()}
    exported |= {f"{name}_total" for name in exported}
    for name in named:
        base = re.sub(r"_(bucket|count|sum)$", "", name)
        assert name in exported or base in exported, name
    assert len(named) >= 15


def test_moves_the_server_made_for_a_seat_count_by_reason() -> None:
    # The timing the lobby stores with a move it made for a seat out of time or absent
    # (issue 27): its "by" says why; a player's own timed move says "player", not counted.
    metrics = Metrics(["play"], lambda: LEVELS)
    moves = [
        AddMove("g1", 0, "1S@1", timing={"ply": 1, "seat": 0, "spent_ms": 900, "by": "player"}),
        AddMove("g1", 1, "2S@4", timing={"ply": 2, "seat": 1, "by": "timeout"}),
        AddMove("g1", 2, "3S@2", timing={"ply": 3, "seat": 2, "by": "absent"}),
        AddMove("g1", 0, "4S@1", timing={"ply": 4, "seat": 0, "by": "timeout"}),
    ]
    metrics.carried_out(moves, lambda _: None)
    text = generate_latest(metrics.registry).decode()
    assert "hipparchusd_moves_total 4.0" in text
    assert 'hipparchusd_server_moves_total{by="timeout"} 2.0' in text
    assert 'hipparchusd_server_moves_total{by="absent"} 1.0' in text
