"""Only what setup.cfg cannot say: install the start-up hook file at the top of site-packages,
where Python's site module reads .pth files (see dynbench_tasks/lmeval/discovery.py)."""

import os

from setuptools import setup
from setuptools.command.build_py import build_py

HOOK = "dynbench-lm-eval-tasks.pth"


class BuildPyWithStartupHook(build_py):
    def run(self):
        super().run()
        # An editable wheel is assembled from the install folder, not from build_lib.
        target = self.get_finalized_command("install").install_lib if self.editable_mode else self.build_lib
        self.copy_file(HOOK, os.path.join(target, HOOK), preserve_mode=False)

    def get_outputs(self, include_bytecode=True):
        return [*super().get_outputs(include_bytecode), os.path.join(self.build_lib, HOOK)]


setup(cmdclass={"build_py": BuildPyWithStartupHook})
