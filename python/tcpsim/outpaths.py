"""Checks on where a command will write, made before any simulation starts, so a bad `--out`
or `--plot` costs nothing: an empty path, a file where a directory is needed (or the reverse),
a path below a file, an unwritable place, an unknown file extension.

Policy for an existing output directory: it is reused; tcpsim replaces the files it writes
itself (``RunResult.save`` removes a previous save's tables and traces first; a reproduction
rewrites its experiments' figures and reports) and never touches other files. Each file is
written whole or not at all (:func:`replacing`): a full disk or a Ctrl-C mid-write leaves the
previous file, never half of a new one.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path


class OutputPathError(ValueError):
    """A path a command cannot write to; the message starts with the option's name."""


@contextmanager
def replacing(path: str | os.PathLike[str]) -> Iterator[Path]:
    """Write ``path`` whole or not at all: yields a temporary name in the same directory (same
    suffix, so writers that go by the extension still do); once the block succeeds it replaces
    ``path`` in one rename, and on any error, or an interrupt, it is removed and ``path`` is as
    it was."""
    target = Path(path)
    temporary = target.with_name(f".tmp-{secrets.token_hex(4)}-{target.name}")
    try:
        yield temporary
        os.replace(temporary, target)
    except OSError as error:
        # Writers that fail mid-file (pandas, pyarrow on a full disk) often name no file, or the
        # temporary one: name the file the user asked for, so the error line says which.
        if error.filename is None or str(error.filename) == str(temporary):
            error.filename = str(target)
        raise
    finally:
        temporary.unlink(missing_ok=True)


def write_text(path: str | os.PathLike[str], text: str) -> None:
    """``path`` holds ``text`` (UTF-8), written whole or not at all (:func:`replacing`)."""
    with replacing(path) as temporary:
        temporary.write_text(text, encoding="utf-8")


def output_dir(text: str, option: str) -> Path:
    """A directory that exists or can be created, and can be written: created now and probed
    with a file, so what only the file system knows (/proc, a dangling symlink, a loop, a
    name over 255 bytes, a read-only mount) is refused before anything runs."""
    path = _non_empty(text, option, "a directory, e.g. results")
    try:
        if path.is_symlink() and not path.exists():
            raise OutputPathError(f"{option} {text}: is a symbolic link to nothing (dangling, or a loop)")
        if path.exists() and not path.is_dir():
            raise OutputPathError(f"{option} {text}: is an existing file, not a directory; give a directory")
        _writable_place(path, text, option)
        path.mkdir(parents=True, exist_ok=True)
        import tempfile  # here: every run loads this module (its results' `save`), few write a directory

        with tempfile.NamedTemporaryFile(dir=path, prefix=".tcpsim-probe-"):
            pass
    except (OSError, RuntimeError) as error:  # RuntimeError: pathlib's symlink loop
        reason = getattr(error, "strerror", None) or str(error)
        raise OutputPathError(f"{option} {text}: cannot write there ({reason})") from None
    return path


def not_replacing_inputs(
    directory: Path, written: Iterable[str], inputs: Iterable[str | Path | None], option: str
) -> None:
    """Refuse ``directory`` when a file or folder the command writes there (``written``, names
    relative to it) is, or holds, one of the command's ``inputs``: `tcpsim run DIR/scenario.toml
    --out DIR` would otherwise replace the user's scenario with the resolved one."""
    targets = [(name, (directory / name).resolve()) for name in written]
    for given in inputs:
        if given is None or not Path(given).exists():
            continue
        source = Path(given).resolve()
        for name, target in targets:
            if source == target or source.is_relative_to(target):
                raise OutputPathError(
                    f"{option} {directory}: the command writes {name} there, which would replace its input "
                    f"{given}; give another directory"
                )


def output_file(text: str, option: str, suffixes: Sequence[str]) -> Path:
    """A file with one of ``suffixes`` whose directory exists or can be created, and can be written."""
    allowed = ", ".join(suffixes)
    path = _non_empty(text, option, f"a file name ending in {allowed}")
    if path.suffix.lower() not in suffixes:
        shown = f"extension {path.suffix!r}" if path.suffix else "no extension"
        raise OutputPathError(f"{option} {text}: {shown} is not supported; use a file name ending in {allowed}")
    if path.is_dir():
        raise OutputPathError(
            f"{option} {text}: is an existing directory; give a file name, e.g. {path / ('out' + suffixes[0])}"
        )
    _writable_place(path.parent, text, option)
    if path.exists() and not os.access(path, os.W_OK):
        raise OutputPathError(f"{option} {text}: the file exists and is not writable")
    return path


def _non_empty(text: str, option: str, wanted: str) -> Path:
    if not text.strip():
        raise OutputPathError(f"{option}: the path is empty; give {wanted}")
    return Path(text)


def _writable_place(directory: Path, text: str, option: str) -> None:
    """``directory`` is, or can be created as, a writable directory: its nearest existing
    ancestor is a directory we may write in."""
    existing = directory
    while not existing.exists():
        if existing.parent == existing:
            break
        existing = existing.parent
    if not existing.is_dir():
        raise OutputPathError(f"{option} {text}: {existing} is a file, so no directory can be made below it")
    if not os.access(existing, os.W_OK | os.X_OK):
        where = "the directory" if existing == directory else f"{existing}, where it would be created,"
        raise OutputPathError(f"{option} {text}: {where} is not writable")
