"""The one base class of every error that is the user's to fix.

It lives here, at the bottom of the house, because ``mutators`` may not import ``dynbench_tasks``
while both raise such errors. Command lines and lm-eval's task selection report a ``DynbenchError``
as one line (its message says what to do); anything else is a bug and keeps its traceback.
"""


class DynbenchError(Exception):
    """A problem the user can fix: bad settings, missing data or tools, an unusable sandbox."""
