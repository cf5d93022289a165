"""Errors that are the user's to fix, all :class:`DynbenchError`: the command line reports them as
one line with exit status 2, and lm-eval's task selection stops on them before a model loads. This
module imports nothing heavy."""

from mutators.errors import DynbenchError


class DataError(DynbenchError):
    """Benchmark data missing or malformed; the message says which file and what to do."""


class SettingsError(DynbenchError, ValueError):
    """A task's metadata asks for something dynbench cannot do."""


class JdkMissing(DynbenchError):
    """No usable JDK: the message names the package to install."""


class UsageError(DynbenchError):
    """A command was asked for something it cannot do (a missing demo model, a bad option)."""


__all__ = ["DataError", "DynbenchError", "JdkMissing", "SettingsError", "UsageError"]
