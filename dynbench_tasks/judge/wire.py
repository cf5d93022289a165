"""What the judge writes to its JVMs (``java/dynbench/Wire.java`` reads it): big-endian lengths and bytes;
and how it checks what a runner replies (``java/dynbench/Replies.java`` writes it)."""

from __future__ import annotations

import hashlib
import hmac
import io
import struct

SECRET_BYTES = 32
TAG_BYTES = 32
# The runner's first frame (number 0): it holds its reply pipe and flight recorder, and no program code has run.
READY = b""
# Where the compiler (``java/dynbench/CompileServer.java``) replies a job's id, it may first say, as often as it
# turns to another job's source, this number (never a length) and that job's id.
COMPILER_WORKING_ON = -1


def pack(data: bytes) -> bytes:
    return struct.pack(">i", len(data)) + data


def pack_string(text: str) -> bytes:
    return pack(text.encode("utf-8"))


def runner_greeting(secret: bytes, replies: str, recorder: str, descriptor_pipe: str) -> bytes:
    """The first part of a ``dynbench.Runner`` request: the ``secret`` that keys its reply frames, the file
    ``replies`` it replies on ("" for standard output), its flight recorder ``recorder`` and the pipe a program
    reaches as ``FileDescriptor.out``, ``descriptor_pipe`` ("" for none of either). The runner opens them and
    sends its first frame (:data:`READY`) before it reads the rest."""
    return pack(secret) + pack_string(replies) + pack_string(recorder) + pack_string(descriptor_pipe)


def runner_job(main_class: str, classes: dict[str, bytes], runs_shutdown_hooks: bool, time_limit_ms: int,
               output_cap: int, tests: list[bytes]) -> bytes:
    """The rest of a ``dynbench.Runner`` request, sent once it is :data:`READY`: run ``main_class`` (from
    ``classes``) on each test's stdin."""
    request = io.BytesIO()
    request.write(pack_string(main_class) + struct.pack(">i", len(classes)))
    for name, data in classes.items():
        request.write(pack_string(name) + pack(data))
    request.write(struct.pack(">?iii", runs_shutdown_hooks, time_limit_ms, output_cap, len(tests)))
    for data in tests:
        request.write(pack(data))
    return request.getvalue()


def runner_request(secret: bytes, replies: str, recorder: str, descriptor_pipe: str, main_class: str,
                   classes: dict[str, bytes], runs_shutdown_hooks: bool, time_limit_ms: int, output_cap: int,
                   tests: list[bytes]) -> bytes:
    """A whole ``dynbench.Runner`` request at once, for a runner that replies on its standard output."""
    return (runner_greeting(secret, replies, recorder, descriptor_pipe)
            + runner_job(main_class, classes, runs_shutdown_hooks, time_limit_ms, output_cap, tests))


def reply_tag(secret: bytes, number: int, frame: bytes) -> bytes:
    """What authenticates a runner's ``number``-th reply frame (from 0): HMAC-SHA256 keyed by the JVM's secret."""
    return hmac.new(secret, struct.pack(">i", number) + frame, hashlib.sha256).digest()
