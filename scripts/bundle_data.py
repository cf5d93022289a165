"""Pack a benchmark data folder into the package: ``dynbench_tasks/data/<file>.gz`` plus ``MANIFEST.json``
(sha256, size and record count of every uncompressed file) and a copy of its ``PROVENANCE.json``.

    python scripts/bundle_data.py ../shared/data

The archives are reproducible (no name or time stamp in the gzip header), so bundling the same folder
twice gives byte-identical files. Loading checks each file against the manifest's sha256.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import shutil
from pathlib import Path

from dynbench_tasks.benchmarks import BENCHMARKS, WITH_OWN_PROGRAMS
from dynbench_tasks.benchmarks.records import BUNDLED, MANIFEST


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="a data folder in the layout of the shared data folder")
    args = parser.parse_args()
    manifest = {}
    for benchmark in (BENCHMARKS[name] for name in WITH_OWN_PROGRAMS):
        data = (args.folder / benchmark.filename).read_bytes()
        with (BUNDLED / f"{benchmark.filename}.gz").open("wb") as raw, gzip.GzipFile(
                filename="", mode="wb", compresslevel=9, fileobj=raw, mtime=0) as packed:
            packed.write(data)
        manifest[benchmark.filename] = {
            "sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data),
            "records": sum(1 for line in data.decode("utf-8").splitlines() if line.strip()),
        }
    (BUNDLED / MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n")
    shutil.copyfile(args.folder / "PROVENANCE.json", BUNDLED / "PROVENANCE.json")
    print(json.dumps(manifest, indent=1))


if __name__ == "__main__":
    main()
