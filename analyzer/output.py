"""Output files that never lose a user's work: checked before the work, written whole or not at all.

Every command that writes a file goes through here:

* ``check_output(path, option)`` before any work: the folder must exist and be writable, the path must
  not be a folder (nor empty), so that a long run does not fail at its very end;
* ``atomic_output(path)`` / ``write_text(path, text)`` / ``atomic_path(path)`` write to a temporary file
  in the destination's folder, flush it to disk (fsync) and rename it onto the destination
  (``os.replace``, atomic on POSIX): an interrupted or failed write leaves the destination as it was (an
  existing file is kept whole), and removes the temporary file.

A destination that exists and is not a regular file (``/dev/stdout``, a named pipe, ``/dev/full``) cannot
be replaced: it is written in place.  Every failure is an ``OutputError`` whose one-line message names
the path and the reason.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path
from typing import IO, Iterator

from analyzer.errors import TarotError


class OutputError(TarotError):
    """An output file that cannot be written (missing folder, no permission, disk full …)."""


def _why(exc: OSError) -> str:
    return exc.strerror or exc.__class__.__name__


def _target(path: str | os.PathLike, option: str) -> Path:
    text = os.fspath(path)
    if not str(text).strip():
        raise OutputError(f"{option} '': an empty path (give a file name)")
    target = Path(text)
    if target.is_symlink():                      # write through a link to the file it names
        target = Path(os.path.realpath(target))
    return target


def _special(target: Path) -> bool:
    """Whether ``target`` exists and is not a regular file (a device, a pipe): written in place."""
    try:
        mode = target.stat().st_mode
    except OSError:
        return False
    return not stat.S_ISREG(mode) and not stat.S_ISDIR(mode)


def check_output(path: str | os.PathLike, option: str = "--out") -> Path:
    """The path ``path`` names, checked writable before any work (``OutputError`` naming it otherwise)."""
    target = _target(path, option)
    if target.is_dir():
        raise OutputError(f"{option} {os.fspath(path)}: is a folder, not a file")
    if _special(target):
        if not os.access(target, os.W_OK):
            raise OutputError(f"{option} {os.fspath(path)}: cannot write to it (permission denied)")
        return target
    folder = target.parent
    if not folder.is_dir():
        raise OutputError(f"{option} {os.fspath(path)}: no such folder {str(folder)!r}")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OutputError(f"{option} {os.fspath(path)}: cannot write in the folder {str(folder)!r} "
                          "(permission denied)")
    return target


def _mode_for(target: Path) -> int:
    """The permissions the written file gets: the replaced file's, else the usual ones (0666 less the umask)."""
    try:
        return stat.S_IMODE(target.stat().st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike, option: str = "--out") -> Iterator[Path]:
    """A temporary path next to ``path`` for a writer that wants a path (pandas, pyarrow); once the block
    ends without error the file is flushed to disk and renamed onto ``path``.  On any error (or an
    interruption) the temporary file is removed and ``path`` is left as it was; an ``OSError`` becomes
    an ``OutputError`` naming ``path``."""
    target = check_output(path, option)
    if _special(target):
        yield target
        return
    try:
        fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as exc:
        raise OutputError(f"{option} {os.fspath(path)}: cannot write it ({_why(exc)})") from None
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        yield tmp
        with open(tmp, "rb+") as handle:
            os.fsync(handle.fileno())
        os.chmod(tmp, _mode_for(target))
        os.replace(tmp, target)
    except OSError as exc:
        _remove(tmp)
        raise OutputError(f"{option} {os.fspath(path)}: cannot write it ({_why(exc)})") from None
    except BaseException:
        _remove(tmp)
        raise
    _fsync_folder(target.parent)


@contextlib.contextmanager
def atomic_output(path: str | os.PathLike, option: str = "--out", mode: str = "w", encoding: str | None = "utf-8",
                  newline: str | None = None) -> Iterator[IO]:
    """An open file to write ``path`` through (see ``atomic_path``): complete once the block ends, or absent."""
    binary = "b" in mode
    try:
        with atomic_path(path, option) as tmp:
            with open(tmp, "wb" if binary else "w", encoding=None if binary else encoding,
                      newline=None if binary else newline) as handle:
                yield handle
                handle.flush()
    except OSError as exc:                    # writing in place to a device (``/dev/full``)
        raise OutputError(f"{option} {os.fspath(path)}: cannot write it ({_why(exc)})") from None


def write_text(path: str | os.PathLike, text: str, option: str = "--out") -> None:
    """``text`` written to ``path`` in UTF-8, whole or not at all."""
    with atomic_output(path, option) as handle:
        handle.write(text)


def _remove(path: Path) -> None:
    with contextlib.suppress(OSError):
        path.unlink()


def _fsync_folder(folder: Path) -> None:
    """Make the rename itself durable (where the system allows opening a folder)."""
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
