"""The engine's version: part of every mutation record and of every cache fingerprint; and the
CPython whose line events the step budgets count (:mod:`mutators.execution.worker`), which another
minor version may count otherwise, so it joins the fingerprint and a run's provenance too."""

import sys

ENGINE_VERSION = "0.10.0"
COUNTING_PYTHON = "{}.{}".format(*sys.version_info[:2])
