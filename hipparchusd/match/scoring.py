"""A match's figures from its games' results: the first player's wins, losses and draws per game
and per pair of a deal's rotations, the Elo estimate and the SPRT (:mod:`.stats`), each player's
win rate and points; as the results file holds them, the progress bar shows them and the closing
report prints them."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from .config import GameResult, Player
from .stats import Estimate, Pentanomial, Sprt, Trinomial


def counts(results: Sequence[GameResult]) -> tuple[Trinomial, Pentanomial]:
    """The first player's games against the second, per game and per complete pair of a
    deal's two rotations."""
    wins = losses = draws = 0
    by_deal: dict[int, dict[int, float]] = {}
    for result in results:
        score = result.first_score()
        wins += score == 1.0
        losses += score == 0.0
        draws += score == 0.5
        by_deal.setdefault(result.deal, {})[result.rotation] = score
    penta = [0] * 5  # ll, ld, wl+dd split below, wd, ww
    wl = dd = 0
    for rotations in by_deal.values():
        if len(rotations) != 2:
            continue
        a, b = rotations.values()
        total = a + b
        if total == 1.0:
            if a == 0.5:
                dd += 1
            else:
                wl += 1
        else:
            penta[int(total * 2)] += 1
    return Trinomial(wins, losses, draws), Pentanomial(
        penta[0], penta[1], wl, dd, penta[3], penta[4]
    )


def estimate(results: Sequence[GameResult]) -> tuple[Estimate | None, Trinomial, Pentanomial]:
    """The Elo estimate (from pairs when there are any, else per game; ``None`` with no
    games) and the counts."""
    tri, penta = counts(results)
    if penta.pairs >= 2:
        return penta.estimate(), tri, penta
    if tri.games:
        return tri.estimate(), tri, penta
    return None, tri, penta


def per_player(results: Sequence[GameResult], players: int) -> list[dict[str, float | None]]:
    """Each player's win rate (a shared win counts as a share), points per game (the mean
    score of its seats), points per hand (``None`` without hands), and in a timed match its
    time losses (games it lost because its time ran out) and timeouts (decisions the server
    made for it, out of time, in games that went on)."""
    table: list[dict[str, float | None]] = []
    for player in range(players):
        won = points = hands = 0.0
        games = time_losses = timeouts = 0
        for result in results:
            seats = [s for s, p in enumerate(result.players) if p == player]
            if not seats:
                continue
            games += 1
            holders = {result.players[w] for w in result.winners}
            if player in holders:
                won += 1 / len(holders)
            mine = sum(result.scores[s] for s in seats) / len(seats)
            points += mine
            if result.hands:
                hands += result.hands
            time_losses += result.flagged in seats
            timeouts += sum(result.timeouts[s] for s in seats if s < len(result.timeouts))
        table.append(
            {
                "games": games,
                "win_rate": won / games if games else None,
                "points_per_game": points / games if games else None,
                "points_per_hand": (points / hands) if hands else None,
                "time_losses": time_losses,
                "timeouts": timeouts - time_losses,
            }
        )
    return table


def summary(results: Sequence[GameResult], players: int, sprt: Sprt | None) -> dict[str, Any]:
    """The match's figures, as the results file and the closing report give them."""
    out: dict[str, Any] = {"games": len(results), "players": per_player(results, players)}
    if players == 2:
        found, tri, penta = estimate(results)
        out["first"] = {"wins": tri.wins, "losses": tri.losses, "draws": tri.draws}
        out["pentanomial"] = [penta.ll, penta.ld, penta.wl, penta.dd, penta.wd, penta.ww]
        if found is not None:
            out["score"] = found.score
            out["elo"] = found.elo  # finite: the posterior mean is strictly between 0 and 1
            out["elo_95"] = [_finite(found.elo_low), _finite(found.elo_high)]
            out["los"] = found.los
        if sprt is not None:
            llr = sprt.llr(penta if penta.pairs >= 2 else tri)
            out["sprt"] = {
                "elo0": sprt.elo0,
                "elo1": sprt.elo1,
                "alpha": sprt.alpha,
                "beta": sprt.beta,
                "llr": llr,
                "lower": sprt.lower,
                "upper": sprt.upper,
                "decision": sprt.decision(llr),
            }
    return out


def _finite(value: float) -> float | None:
    return value if math.isfinite(value) else None


def describe(results: Sequence[GameResult], players: int, sprt: Sprt | None) -> str:
    """A one-line state of the match, for the progress bar."""
    if players != 2:
        rates = per_player(results, players)
        return " ".join(
            f"p{i} {r['win_rate']:.0%}" if r["win_rate"] is not None else f"p{i} -"
            for i, r in enumerate(rates)
        )
    found, tri, penta = estimate(results)
    text = f"+{tri.wins} -{tri.losses} ={tri.draws}"
    if found is not None:
        text += f" score {found.score:.3f} Elo {found.elo + 0.0:+.0f}"
        if math.isfinite(found.error):
            text += f" ±{found.error:.0f}"
        elif math.isfinite(found.elo_low):
            text += f" ≥{found.elo_low + 0.0:+.0f}"
        elif math.isfinite(found.elo_high):
            text += f" ≤{found.elo_high + 0.0:+.0f}"
    if sprt is not None:
        text += f" LLR {sprt.llr(penta if penta.pairs >= 2 else tri):+.2f}"
    return text


def _signed(elo: float) -> str:
    return f"{elo + 0.0:+.1f}"  # + 0.0: no "-0.0"


def _elo_text(elo: float, low: float | None, high: float | None) -> str:
    """An Elo difference and its 95% interval as the report words them, from the summary's
    figures (``None``: that end unbounded, the interval reaching a score of 0 or 1):
    ``Elo +12.5 [-40.1, +66.0] (95%)``, or a one-sided bound (``Elo +353.8, at least +176.2
    (95%)``), or ``too few games`` for a 95% interval when neither end is bounded."""
    text = f"Elo {_signed(elo)}"
    if low is not None and high is not None:
        return f"{text} [{_signed(low)}, {_signed(high)}] (95%)"
    if low is not None:
        return f"{text}, at least {_signed(low)} (95%)"
    if high is not None:
        return f"{text}, at most {_signed(high)} (95%)"
    return f"{text}, too few games for a 95% interval"


def report(
    results: Sequence[GameResult],
    players: Sequence[Player],
    sprt: Sprt | None,
    tc: str = "",
) -> str:
    """The closing report, a few lines; with a time control ``tc``, each player's time
    losses and timeouts."""
    figures = summary(results, len(players), sprt)
    lines = [f"{figures['games']} games" + (f" at clock={tc}" if tc else "")]
    for index, (player, row) in enumerate(zip(players, figures["players"], strict=True)):
        rate = row["win_rate"]
        text = f"p{index} {player.spec}: win rate {rate:.1%}" if rate is not None else ""
        if row["points_per_hand"] is not None:
            text += f", {row['points_per_hand']:.2f} points per hand"
        elif row["points_per_game"] is not None:
            text += f", {row['points_per_game']:.2f} points per game"
        if tc:
            losses, timeouts = int(row["time_losses"] or 0), int(row["timeouts"] or 0)
            text += f", {losses} lost on time, {timeouts} other timeouts"
        lines.append(text)
    if "elo" in figures:
        low, high = figures["elo_95"]
        lines.append(
            f"p0 vs p1: score {figures['score']:.3f}, {_elo_text(figures['elo'], low, high)}, "
            f"LOS {figures['los']:.1%}"
        )
    if "sprt" in figures:
        s = figures["sprt"]
        lines.append(
            f"SPRT elo0={s['elo0']:g} elo1={s['elo1']:g}: LLR {s['llr']:.2f} "
            f"[{s['lower']:.2f}, {s['upper']:.2f}] {s['decision'] or 'undecided'}"
        )
    return "\n".join(lines)
