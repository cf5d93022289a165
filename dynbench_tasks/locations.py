"""Where benchmark data lies on this machine: the copy bundled in the package, the folder
``$DYNBENCH_DATA_DIR`` names, and the Hugging Face caches. The sandboxes are told these folders so
that no scored program can read a reference answer from disk."""

from __future__ import annotations

import os
from pathlib import Path

DATA_DIR_VARIABLE = "DYNBENCH_DATA_DIR"
BUNDLED = Path(__file__).resolve().parent / "data"


def cache_folder() -> Path:
    """dynbench's own cache: values trusted runs computed from benchmark code (:mod:`judge.stored_values`)."""
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache").expanduser() / "dynbench"


def data_locations() -> list[str]:
    """Folders that hold benchmark data or caches of it: no sandboxed process may see them."""
    home = Path(os.environ.get("HF_HOME", Path.home() / ".cache" / "huggingface"))
    candidates = [BUNDLED, os.environ.get(DATA_DIR_VARIABLE), home, os.environ.get("HF_DATASETS_CACHE"),
                  cache_folder()]
    return [str(Path(c).expanduser()) for c in candidates if c]
