"""How a game's kind names its engine adapter (hipparchusd.engine.position.AdapterRef): it loads
for every built-in kind that has one, and a name that leads to no adapter fails clearly."""

from __future__ import annotations

import nim
import pytest
from tinygame.kind import HIGHCARD

from hipparchusd.engine.position import Adapter, AdapterRef
from hipparchusd.games.base import GameKind
from hipparchusd.games.registry import BUILT_IN


@pytest.mark.parametrize("kind", BUILT_IN, ids=lambda kind: kind.name)
def test_every_built_in_kind_names_an_adapter_that_loads(kind: GameKind) -> None:
    assert isinstance(kind.engine, AdapterRef)
    assert isinstance(kind.engine.load(), Adapter)


def test_a_module_that_defines_an_adapter_loads() -> None:
    assert AdapterRef("nim").load() is nim.ADAPTER


def test_a_kind_may_have_no_engine() -> None:
    assert HIGHCARD.engine is None


def test_what_is_not_an_adapter_is_refused() -> None:
    with pytest.raises(ValueError, match="no engine module 'no_such_engine'"):
        AdapterRef("no_such_engine").load()
    with pytest.raises(ValueError, match=r"json\.ADAPTER is not an engine adapter"):
        AdapterRef("json").load()
