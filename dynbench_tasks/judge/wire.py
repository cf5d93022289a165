"""What the judge writes to its JVMs (``java/dynbench/Wire.java`` reads it): big-endian lengths and bytes;
and how it checks what a runner replies (``java/dynbench/Replies.java`` writes it)."""

from __future__ import annotations

import hashlib
import hmac
import io
import struct

SECRET_BYTES = 32
TAG_BYTES = 32


def pack(data: bytes) -> bytes:
    return struct.pack(">i", len(data)) + data


def pack_string(text: str) -> bytes:
    return pack(text.encode("utf-8"))


def runner_request(secret: bytes, replies: str, recorder: str, main_class: str, classes: dict[str, bytes],
                   runs_shutdown_hooks: bool, time_limit_ms: int, output_cap: int, tests: list[bytes]) -> bytes:
    """A ``dynbench.Runner`` request: run ``main_class`` (from ``classes``) on each test's stdin, and reply
    on the file ``replies`` ("" for standard output) in frames keyed by ``secret``."""
    request = io.BytesIO()
    request.write(pack(secret) + pack_string(replies) + pack_string(recorder) + pack_string(main_class)
                  + struct.pack(">i", len(classes)))
    for name, data in classes.items():
        request.write(pack_string(name) + pack(data))
    request.write(struct.pack(">?iii", runs_shutdown_hooks, time_limit_ms, output_cap, len(tests)))
    for data in tests:
        request.write(pack(data))
    return request.getvalue()


def reply_tag(secret: bytes, number: int, frame: bytes) -> bytes:
    """What authenticates a runner's ``number``-th reply frame (from 0): HMAC-SHA256 keyed by the JVM's secret."""
    return hmac.new(secret, struct.pack(">i", number) + frame, hashlib.sha256).digest()
