"""What the judge writes to its JVMs (``java/dynbench/Wire.java`` reads it): big-endian lengths and bytes."""

from __future__ import annotations

import io
import struct


def pack(data: bytes) -> bytes:
    return struct.pack(">i", len(data)) + data


def pack_string(text: str) -> bytes:
    return pack(text.encode("utf-8"))


def runner_request(recorder: str, main_class: str, classes: dict[str, bytes], runs_shutdown_hooks: bool,
                   time_limit_ms: int, output_cap: int, tests: list[bytes]) -> bytes:
    """A ``dynbench.Runner`` request: run ``main_class`` (from ``classes``) on each test's stdin."""
    request = io.BytesIO()
    request.write(pack_string(recorder) + pack_string(main_class) + struct.pack(">i", len(classes)))
    for name, data in classes.items():
        request.write(pack_string(name) + pack(data))
    request.write(struct.pack(">?iii", runs_shutdown_hooks, time_limit_ms, output_cap, len(tests)))
    for data in tests:
        request.write(pack(data))
    return request.getvalue()
