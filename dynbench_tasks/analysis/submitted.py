"""Reading files a submitter wrote (lm-eval results and logged samples): JSON parsed with bounded
size and nesting, so that no file can exhaust memory or the interpreter's stack in any reader
(verify, leaderboard, report, view). A file outside the bounds is a ``DataError`` of one line.

The bounds sit far above what real runs write: lm-eval's results files nest about 6 levels and its
samples about 8, a results file is well under 1 MiB and one logged sample a few KiB (a 5-repeat
translation sample with long Java answers stays under 100 KiB).
"""

from __future__ import annotations

import errno
import json
import os
import stat
from pathlib import Path
from typing import BinaryIO

from dynbench_tasks.errors import DataError

MAX_DEPTH = 64  # levels of arrays and objects in one JSON value
MAX_RESULTS_BYTES = 64 * 1024 * 1024  # one results_*.json
MAX_SAMPLE_BYTES = 16 * 1024 * 1024  # one line of a samples_*.jsonl
MAX_SAMPLES_BYTES = 2 * 1024 * 1024 * 1024  # one samples_*.jsonl


class TooDeep(ValueError):
    """A JSON value nests deeper than ``MAX_DEPTH``."""


def _depth_within(value: object, limit: int) -> bool:
    """Whether ``value``'s arrays and objects nest at most ``limit`` deep (walked without recursion)."""
    pending = [(value, 1)]
    while pending:
        item, depth = pending.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else ()
        for child in children:
            if isinstance(child, (dict, list)):
                if depth + 1 > limit:
                    return False
                pending.append((child, depth + 1))
    return True


def parse_json(text: str) -> object:
    """``text`` parsed as JSON; ``TooDeep`` past ``MAX_DEPTH`` levels (the C parser stops far deeper
    ones at the interpreter's recursion limit), ``ValueError`` if it is not JSON."""
    try:
        value = json.loads(text)
    except RecursionError:
        raise TooDeep(f"nested deeper than {MAX_DEPTH} levels") from None
    if not _depth_within(value, MAX_DEPTH):
        raise TooDeep(f"nested deeper than {MAX_DEPTH} levels")
    return value


def open_regular_file(path: Path, within: str | Path | None = None) -> BinaryIO:
    """``path`` opened for reading if it is a regular file; ``OSError`` otherwise. A FIFO would block a
    reader for ever and a link to a device (``/dev/zero``) never ends, whatever size ``stat`` reports, so
    the type is checked on the open file itself (opened without blocking), not on the name. A symbolic
    link is never followed (a submitted link could name any file the maintainer can read, and a message
    naming a line of it would show that file), nor is a file that has another name (a hard link), nor one
    whose folder resolves outside ``within``, the submission folder it was found in."""
    if within is not None and not _inside(Path(path).parent, Path(within)):
        raise OSError(errno.EXDEV, "outside the submission folder, never read")
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0))
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise OSError(errno.ELOOP, "a symbolic link, not a regular file: never followed") from None
        raise
    try:
        status = os.fstat(descriptor)
        if not stat.S_ISREG(status.st_mode):
            raise OSError(errno.EINVAL, "not a regular file")
        if status.st_nlink > 1:  # a hard link can be any file of the maintainer's that shares the file system
            raise OSError(errno.EMLINK, "a file with another name too (a hard link): never read")
        return os.fdopen(descriptor, "rb")
    except BaseException:
        os.close(descriptor)
        raise


def _inside(folder: Path, root: Path) -> bool:
    """Whether ``folder``, every link resolved, is ``root`` (resolved) or inside it."""
    resolved, top = os.path.realpath(folder), os.path.realpath(root)
    return resolved == top or resolved.startswith(top.rstrip(os.sep) + os.sep)


def read_json_file(path: Path, what: str, max_bytes: int = MAX_RESULTS_BYTES, within: str | Path | None = None
                   ) -> object:
    """The JSON value in ``path`` (a regular file in ``within``, as :func:`open_regular_file` opens it), or a
    one-line ``DataError`` naming ``what`` the file should be; the message never shows the file's content."""
    try:
        with open_regular_file(path, within) as handle:
            data = handle.read(max_bytes + 1)
        if len(data) > max_bytes:
            raise DataError(f"{path}: larger than {max_bytes // (1024 * 1024)} MiB, not {what}")
        return parse_json(data.decode("utf-8"))
    except TooDeep as error:
        raise DataError(f"{path}: not {what} ({error})") from None
    except OSError as error:
        raise DataError(f"{path}: not {what} ({error.strerror or type(error).__name__})") from None
    except (UnicodeDecodeError, ValueError) as error:
        raise DataError(f"{path}: not {what} ({type(error).__name__})") from None
