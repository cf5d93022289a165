import sys

from dynbench_tasks.cli import main

sys.exit(main())
