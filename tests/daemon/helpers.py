"""Shared helpers for the daemon tests: fixed deals and game set-up."""

from __future__ import annotations

from .client import Client

#: A first-round deal with distinctive hands: seat 0 alternates Sun and Moon then holds four
#: Earths; seat 1 holds runs. Face down: Moon, Earth. 10 cards of each suit in all.
HAND0 = "SMSMSMSMSMEEEE"
HAND1 = "EEESSSSMMMMEES"
FACE_DOWN = "ME"
DEAL = f"{HAND0}/{HAND1}/{FACE_DOWN}"


async def new_game(creator: Client, options: str = f"leader=0 deal={DEAL}") -> str:
    """Create a game and return its id."""
    reply = await creator.ok(f"new hipparchus {options}")
    return reply.fields()["game"]


async def seated_game(a: Client, b: Client, options: str = f"leader=0 deal={DEAL}") -> str:
    """Create a game, seat ``a`` (seat 0) and ``b`` (seat 1); return its id once started."""
    game = await new_game(a, options)
    await a.ok(f"join {game} 0 name=alice")
    await b.ok(f"join {game} 1 name=bob")
    return game
