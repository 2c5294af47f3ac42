"""Human output on stdout (a rich console and literal tables, the result tables of a run)
and the one JSON document of ``--json``. rich and pandas are imported only when used."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import typer

if TYPE_CHECKING:
    import pandas as pd
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text


def stdout_console() -> Console:
    """Console for human output: markup off, so text from results is printed literally; soft
    wrap, so long lines (paths) stay copy-pasteable; and when piped, wide enough that tables
    are not squeezed to rich's default of 80 columns."""
    from rich.console import Console

    console = Console(markup=False, soft_wrap=True)
    if not console.is_terminal:
        console.width = 200
    return console


def print_json(value: Any) -> None:
    from tcpsim.repro.framework import jsonable

    typer.echo(json.dumps(jsonable(value), allow_nan=False))


def rich_table(title: str | Text | None, columns: list[str], rows: Iterable[Iterable[Any]]) -> Table:
    """A rich table; cells are shown literally (a claim such as "[0,250] s" is not markup)."""
    from rich import box
    from rich.table import Table
    from rich.text import Text

    table = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD)
    for column in columns:
        table.add_column(column, justify="left" if column in _TEXT_COLUMNS else "right", overflow="fold")
    from tcpsim.terminal_text import visible

    for row in rows:
        table.add_row(*(cell if isinstance(cell, Text) else Text(visible(str(cell))) for cell in row))
    return table


_TEXT_COLUMNS = {
    "",
    "id",
    "name",
    "variant",
    "class",
    "path",
    "dir",
    "title",
    "paper",
    "kind",
    "item",
    "detail",
    "workload",
    "description",
    "flow",
}


def flows_table(flows: pd.DataFrame) -> Table:
    from tcpsim.result.tables import flows_view

    return rich_table(*flows_view(flows))


def web_table(web: pd.DataFrame) -> Table:
    from tcpsim.result.tables import web_view

    return rich_table(*web_view(web))


def links_table(links: pd.DataFrame) -> Table:
    from tcpsim.result.tables import links_view

    return rich_table(*links_view(links))


def classes_table(classes: pd.DataFrame) -> Table:
    from tcpsim.result.tables import classes_view

    return rich_table(*classes_view(classes))
