"""Replay every protocol/conformance/*.tst transcript against a fresh live daemon."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conformance import Close, Expect, Mismatch, Send, parse, replay, transcripts
from .conftest import StartServer

DIRECTORY = Path(__file__).resolve().parents[2] / "protocol" / "conformance"
FILES = list(transcripts(DIRECTORY))


def test_there_are_transcripts_for_every_command() -> None:
    from hipparchusd.lobby import COMMANDS

    sent: set[str] = set()
    json_sent: set[str] = set()
    for path in FILES:
        json_conns: set[str] = set()
        for step in parse(path.read_text()):
            if isinstance(step, Send) and step.request.split():
                words = step.request.split()
                if words[0].isdigit():
                    words = words[1:] or ["?"]
                command = words[0]
                sent.add(command)
                if step.conn in json_conns:
                    json_sent.add(command)
                if command == "format" and len(words) == 2:
                    (json_conns.add if words[-1] == "json" else json_conns.discard)(step.conn)
    assert set(COMMANDS) <= sent
    assert set(COMMANDS) <= json_sent


#: The commands that search.
SEARCHING = {"bot", "genmove", "analyze"}


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
async def test_transcript(path: Path, start_server: StartServer) -> None:
    steps = parse(path.read_text())
    searches = any(
        isinstance(step, Send) and step.request.split()[:1] and step.request.split()[0] in SEARCHING
        for step in steps
    )
    # A transcript that searches runs on a daemon whose workers start with it, as a user's do
    # by default: its 5 s wait for each line then never has to cover a worker's start.
    server = await start_server(**({"engine_start": "with-daemon"} if searches else {}))
    await replay(server.ports[0], steps)


async def test_a_wrong_expectation_is_caught(start_server: StartServer) -> None:
    server = await start_server()
    steps = parse("a> name\n= hipparchus\n")
    with pytest.raises(Mismatch):
        await replay(server.ports[0], steps)
    unexpected = parse("a> new hipparchus\n= game={g}\na> join {g}\n= seat=0 token={t}\n")
    with pytest.raises(Mismatch, match="does not expect"):
        await replay(server.ports[0], unexpected)


def test_the_format() -> None:
    steps = parse("# c\na> 1 join g1\n= seat=0 token={t}\nb< * g1 1 joined seat=0 name=x\na!\n")
    assert steps[0] == "# c"
    assert steps[1] == Send("a", "1 join g1", ["= seat=0 token={t}"], 2)
    assert steps[2] == Expect("b", "* g1 1 joined seat=0 name=x", 4)
    assert steps[3] == Close("a", 5)
    with pytest.raises(ValueError, match="line 1"):
        parse("= stray\n")
