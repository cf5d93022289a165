"""Progress bars only to a terminal. Where stderr is a file or a pipe, every tqdm bar in the process
(lm-eval's, datasets', transformers', dynbench's own) is off, and lm-eval's answer generation reports
its progress as a line now and then instead (:func:`dynbench_tasks.lmeval.cost.progress_as_lines`)."""

from __future__ import annotations

import functools
import sys

# tqdm(iterable, desc, total, leave, file, ncols, mininterval, maxinterval, miniters, ascii, disable, ...)
_DISABLE_POSITION = 10


def progress_bars_only_to_a_terminal() -> None:
    if sys.stderr.isatty():
        return
    from tqdm import std

    from dynbench_tasks.lmeval.cost import progress_as_lines

    original = std.tqdm.__init__
    if getattr(original, "_dynbench_quiet", False):
        return

    @functools.wraps(original)
    def __init__(self, *args, **kwargs):
        if len(args) <= _DISABLE_POSITION:  # lm-eval passes disable= itself, so tqdm's TQDM_DISABLE cannot do this
            kwargs["disable"] = True
        original(self, *args, **kwargs)

    __init__._dynbench_quiet = True
    std.tqdm.__init__ = __init__
    progress_as_lines()
