"""Errors that are the user's to fix: reported as one line, exit status 2, no traceback."""

from dynbench_tasks.benchmarks import DataError
from dynbench_tasks.java_judge import JdkMissing
from dynbench_tasks.settings import SettingsError
from dynbench_tasks.sources import DataUnavailable
from mutators import ChainError

UserError = (ChainError, DataError, DataUnavailable, SettingsError, JdkMissing)
