"""Errors that are the user's to fix: reported as one line, exit status 2, no traceback."""

from dynbench_tasks.benchmarks import DataError
from mutators import ChainError

UserError = (ChainError, DataError)
