"""What the site serves of each game kind's own page (hipparchusd/web/site.py, sans I/O): the
files of its page folder under ``games/<kind>/``, and ``pages.json``, which tells the page the
table module and styles of each kind that has them; a kind without them is left out (the page
plays it on the generic table). Every kind is taken from the registry, none by its name."""

from __future__ import annotations

import importlib.resources
import json

import attrs
import pytest
from tinygame.kind import HIGHCARD

from hipparchusd.games.base import GameKind, PageParts
from hipparchusd.games.registry import KINDS
from hipparchusd.web.site import CONTENT_TYPES, PAGES_INDEX, StaticSite, pages_index


def with_page(kinds: list[GameKind]) -> list[GameKind]:
    return [kind for kind in kinds if kind.page is not None]


def test_each_kind_with_a_page_is_served_from_its_own_folder() -> None:
    kinds = with_page(list(KINDS.values()))
    assert kinds, "the built-in kinds have page parts of their own"
    site = StaticSite.from_package()
    for kind in kinds:
        assert kind.page is not None
        folder = importlib.resources.files(kind.page.package).joinpath(kind.page.folder)
        expected = {
            f"games/{kind.name}/{entry.name}": entry.read_bytes()
            for entry in folder.iterdir()
            if entry.is_file() and entry.name[entry.name.rfind(".") :] in CONTENT_TYPES
        }
        served = {
            name: found.body
            for name, found in site.files.items()
            if name.startswith(f"games/{kind.name}/")
        }
        assert served == expected
        assert f"games/{kind.name}/{kind.page.module}" in served
        module = site.files[f"games/{kind.name}/{kind.page.module}"]
        assert module.content_type == "text/javascript; charset=utf-8"
        assert b"export default class" in module.body
    # The shared page names no kind's module: it learns them from pages.json.
    index = json.loads(site.files[PAGES_INDEX].body)
    assert index == {
        "pages": {
            kind.name: {
                "module": f"games/{kind.name}/{kind.page.module}",
                "styles": [f"games/{kind.name}/{style}" for style in kind.page.styles],
            }
            for kind in kinds
            if kind.page is not None
        }
    }
    assert site.files[PAGES_INDEX].content_type == "application/json"
    # (The project's own name holds a kind's, so look for the kind as a quoted word.)
    for name in ("app.js", "table.js", "generic.js", "words.js"):
        body = site.files[name].body.decode()
        for kind in kinds:
            assert not {f'"{kind.name}"', f"'{kind.name}'", f"{kind.name}:"} & set(
                body.replace("{", " ").replace(",", " ").split()
            ), (name, kind.name)


def test_a_kind_without_a_page_is_left_to_the_generic_table() -> None:
    assert HIGHCARD.page is None
    assert pages_index([HIGHCARD]) == {"pages": {}}
    site = StaticSite.from_package([HIGHCARD])
    assert not [name for name in site.files if name.startswith("games/")]
    assert "generic.js" in site.files


def test_a_page_folder_without_its_module_is_refused_at_start_up() -> None:
    # tests/tinygame as a page folder: it has no table.js (nor style.css).
    broken = attrs.evolve(HIGHCARD, page=PageParts("tinygame", folder="."))
    with pytest.raises(ValueError, match=r"the page of highcard has no table\.js"):
        StaticSite.from_package([broken])
    broken = attrs.evolve(HIGHCARD, page=PageParts("tinygame", folder=".", module="game.py"))
    with pytest.raises(ValueError, match=r"has no game\.py"):  # not a type the site serves
        StaticSite.from_package([broken])


def test_only_plain_names_in_a_kinds_folder_are_served() -> None:
    page = StaticSite({"index.html": b"", "games/a-kind/table.js": b""})
    assert "games/a-kind/table.js" in page.files
    for name in ("games/table.js", "games/A/table.js", "games/a/b/table.js", "games/../x.js"):
        with pytest.raises(ValueError, match="plain file"):
            StaticSite({"index.html": b"", name: b""})
