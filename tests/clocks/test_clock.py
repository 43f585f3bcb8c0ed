"""The clock arithmetic on exact numbers (RULINGS T1-T5): the bank and the Fischer increment,
the cap per decision, correspondence days, the lag allowance (T3), simultaneous decisions,
the first-move limit (T5), the absence grace (T4), what is stored (T6), and an engine's budget."""

from __future__ import annotations

import pytest

from hipparchusd.clocks import (
    LAG_MS,
    LAG_REFILL_MS,
    Charge,
    Clocks,
    SeatClock,
    TimeControl,
    absence_at,
    absent,
    decision_budget,
    elapsed_ms,
    first_move_at,
)


def clocks(control: str, seats: int = 2) -> Clocks:
    return Clocks.start(TimeControl.parse(control), seats)


def test_elapsed_time_is_rounded_to_the_millisecond_and_never_negative() -> None:
    assert elapsed_ms(10.0, 12.5) == 2500
    assert elapsed_ms(10.0, 10.0004) == 0
    assert elapsed_ms(10.0, 10.0006) == 1
    assert elapsed_ms(10.0, 9.0) == 0


def test_fischer_a_decision_costs_its_length_and_earns_the_increment() -> None:
    c = clocks("5m+3s").run({0}, 100.0)
    assert c.running() == (0,)
    assert c.left_at(0, 112.5) == 287_500
    assert c.left_at(1, 112.5) == 300_000  # not running: what it has for its next decision
    c, charge = c.decide(0, 112.5)
    assert charge == Charge(0, 12_500, 0)
    assert c.seats[0] == SeatClock(300_000 - 12_500 + 3000, LAG_MS, True, None)
    assert c.running() == ()


def test_a_bank_without_increment() -> None:
    c, charge = clocks("1m").run({1}, 0.0).decide(1, 20.0)
    assert c.seats[1].left == 40_000
    assert charge.spent == 20_000


def test_the_flag_falls_after_the_bank_and_the_lag_allowance() -> None:
    c = clocks("10s+0.1s").run({0}, 50.0)
    assert c.flag_at(0) == 50.0 + 10.0 + LAG_MS / 1000
    assert c.flag_at(1) is None
    assert not c.out_of_time(0, 61.0)  # exactly the bank and the whole allowance: in time
    assert c.out_of_time(0, 61.002)


def test_a_late_packet_is_covered_by_the_lag_allowance() -> None:
    """T3: 10.4 s on a 10 s bank does not flag; 0.4 s of the allowance is used, and shown."""
    c = clocks("10s+0.1s").run({0}, 0.0)
    c, charge = c.decide(0, 10.4)
    assert charge == Charge(0, 10_400, 400)
    assert c.seats[0].left == 0 + 100  # emptied, then the increment
    assert c.seats[0].lag == LAG_MS - 400
    # The next decision in time gives some allowance back, up to the most it holds.
    c, charge = c.run({0}, 20.0).decide(0, 20.05)
    assert charge.lag_used == 0
    assert c.seats[0].lag == LAG_MS - 400 + LAG_REFILL_MS
    assert c.seats[0].left == 100 - 50 + 100


def test_the_lag_allowance_never_grows_past_its_start() -> None:
    c, _ = clocks("1m").run({0}, 0.0).decide(0, 1.0)
    assert c.seats[0].lag == LAG_MS


def test_a_decision_out_of_time_is_refused_and_a_time_out_charges_everything() -> None:
    c = clocks("10s+2s").run({0}, 0.0)
    with pytest.raises(ValueError, match="out of time"):
        c.decide(0, 11.5)
    c, charge = c.time_out(0)
    assert charge == Charge(0, 10_000 + LAG_MS, LAG_MS, timeout=True)
    # T2 (planets): from then on only the increment for each decision.
    assert c.seats[0] == SeatClock(2000, 0, True, None)
    c = c.run({0}, 30.0)
    assert c.allowed(0) == 2000
    assert c.flag_at(0) == 32.0


def test_a_cap_per_decision_alone() -> None:
    c = clocks("30s/move").run({0, 1}, 0.0)
    assert c.seats[0].left is None
    assert c.allowed(0) == 30_000
    c, charge = c.decide(1, 29.0)
    assert charge.spent == 29_000
    # Every decision has the whole cap again.
    assert c.allowed(1) == 30_000
    assert c.flag_at(0) == 31.0


def test_a_cap_with_a_bank_takes_the_lesser_of_the_two() -> None:
    c = clocks("1m+1s,20s/move").run({0}, 0.0)
    assert c.allowed(0) == 20_000
    c, _ = c.decide(0, 15.0)
    assert c.seats[0].left == 60_000 - 15_000 + 1000
    c = c.run({0}, 100.0)
    assert c.flag_at(0) == 100.0 + 21.0
    c, charge = c.decide(0, 120.5)  # past the cap by 0.5 s: taken from the lag allowance
    assert charge == Charge(0, 20_500, 500)
    assert c.seats[0].left == 46_000 - 20_500 + 1000
    # A bank below the cap is what the seat has.
    low = Clocks(c.control, (SeatClock(5000), SeatClock(60_000))).run({0}, 0.0)
    assert low.allowed(0) == 5000


def test_correspondence_counts_in_days() -> None:
    c = clocks("3d/move").run({0}, 1000.0)
    assert c.flag_at(0) == 1000.0 + 3 * 86_400 + 1.0
    c, charge = c.decide(0, 1000.0 + 2 * 86_400)
    assert charge.spent == 2 * 86_400_000


def test_simultaneous_decisions_stop_each_clock_as_its_seat_decides() -> None:
    """T1: in the planets pass every clock runs at once, and stops for each seat as it passes."""
    c = clocks("2m+1s", seats=4).run({0, 1, 2, 3}, 10.0)
    c, charge = c.decide(2, 15.0)
    assert charge.spent == 5000
    c = c.run({0, 1, 3}, 15.0)  # the others go on, from where they were
    assert c.left_at(0, 18.0) == 112_000
    assert c.seats[0].since == 10.0
    c, charge = c.decide(0, 18.0)
    assert charge.spent == 8000
    assert [seat.left for seat in c.seats] == [113_000, 120_000, 116_000, 120_000]
    assert c.running() == (1, 3)


def test_run_stops_the_seats_that_need_not_decide_charging_nothing() -> None:
    c = clocks("1m").run({0, 1}, 0.0).run({1}, 30.0)
    assert c.seats[0] == SeatClock(60_000)
    assert c.stop().running() == ()


def test_what_is_stored_brings_the_clocks_back_without_their_start() -> None:
    """T6: no clock runs in what is stored: the time a game is not loaded is charged to nobody."""
    c, _ = clocks("5m+3s").run({0}, 0.0).decide(0, 12.0)
    c = c.run({1}, 12.0)
    stored = c.stored()
    assert stored == {"left": [291_000, 300_000], "lag": [LAG_MS, LAG_MS], "decided": [True, False]}
    back = Clocks.from_stored(c.control, 2, stored)
    assert back.running() == ()
    assert back.seats == tuple(attrs_evolve_since(seat) for seat in c.seats)
    assert back.run({1}, 500.0).left_at(1, 501.0) == 299_000


def attrs_evolve_since(seat: SeatClock) -> SeatClock:
    return SeatClock(seat.left, seat.lag, seat.decided, None)


@pytest.mark.parametrize(
    "data",
    [
        None,
        {"left": [1], "lag": [1], "decided": [True]},
        {"left": [1, 2], "lag": [1, -1], "decided": [True, False]},
        {"left": [None, 2], "lag": [1, 1], "decided": [True, False]},
        {"left": [1, 2], "lag": [1, 1], "decided": [1, 0]},
        {"left": [1.5, 2], "lag": [1, 1], "decided": [True, False]},
    ],
)
def test_stored_clocks_that_do_not_fit_are_refused(data: object) -> None:
    with pytest.raises(ValueError):
        Clocks.from_stored(TimeControl.parse("1m"), 2, data)  # type: ignore[arg-type]


def test_the_view_at_a_moment() -> None:
    c = clocks("1m+1s,20s/move").run({1}, 0.0)
    assert c.view(7.25) == {
        "control": "1m+1s,20s/move",
        "running": [1],
        "left_ms": [20_000, 12_750],
        "bank_ms": [60_000, 60_000],
        "lag_ms": [LAG_MS, LAG_MS],
    }


def test_the_first_move_limit() -> None:
    """T5: counted from when the seat's first decision became due; gone once it decided."""
    assert first_move_at(SeatClock(60_000, since=5.0), 30_000) == 35.0
    assert first_move_at(SeatClock(60_000, decided=True, since=5.0), 30_000) is None
    assert first_move_at(SeatClock(60_000), 30_000) is None
    assert first_move_at(SeatClock(60_000, since=5.0), None) is None


def test_the_absence_grace() -> None:
    """T4: counted from the drop; nothing happens before the seat must decide."""
    assert absence_at(away_since=100.0, grace_ms=60_000, deciding_since=120.0) == 160.0
    assert absence_at(away_since=100.0, grace_ms=60_000, deciding_since=200.0) == 200.0
    assert absent(100.0, 60_000, 160.0)
    assert not absent(100.0, 60_000, 159.999)
    assert not absent(None, 60_000, 1e9)
    assert not absent(100.0, None, 1e9)


def test_an_engines_budget_shares_the_bank_over_the_decisions_left() -> None:
    # 10 s, 14 decisions left, 0.1 s increment: (10000 - 50) // 14 + 75.
    assert decision_budget(10_000, None, 100, 14) == 710 + 75
    # Unknown decisions left: 30.
    assert decision_budget(10_000, None, 0, None) == 9950 // 30
    # The last decision may use all but the reserve.
    assert decision_budget(1000, None, 0, 1) == 950
    # A cap bounds it; a cap alone is the whole cap less the reserve.
    assert decision_budget(60_000, 500, 1000, 2) == 450
    assert decision_budget(None, 30_000, 0, 5) == 29_950
    # With almost nothing left, 1 ms: the caller plays a cheap move.
    assert decision_budget(30, None, 0, 3) == 1
    # The increment never lets it spend more than the bank holds.
    assert decision_budget(200, None, 10_000, 1) == 150
