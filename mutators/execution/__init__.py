"""Running untrusted code: the process sandbox (a pool of fork servers) and the worker pool that the
Python sandbox and the Java judge share. Nothing here imports libcst or anything outside the
standard library."""

from mutators.execution.limits import CLEAN_ENVIRONMENT, DEFAULT_LIMITS, UNPRIVILEGED_ID
from mutators.execution.pool import WorkerPool
from mutators.execution.sandbox import Sandbox, SandboxUnavailable

__all__ = ["CLEAN_ENVIRONMENT", "DEFAULT_LIMITS", "UNPRIVILEGED_ID", "Sandbox", "SandboxUnavailable", "WorkerPool"]
