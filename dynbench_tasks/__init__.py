"""dynbench's lm-eval plugin and tools, one room per concern:

* ``benchmarks/`` — one module per benchmark (data, programs, prompt, scoring) and the registry;
* ``lmeval/`` — the lm-eval glue: task class, settings, documents, discovery, preflight;
* ``judge/`` — the Java judge: warm JVMs, Java source handling, the judge's own Java;
* ``analysis/`` — runs, comparisons, reports, the paper's tables, the sample viewer;
* ``contamination/`` — fine-tuning on the benchmark (RQ3) and the memorisation probe;
* ``cli/`` — the ``dynbench`` command line, one module per command;
* below the benchmarks: ``settings`` (a task's settings as a plain record), ``runtime`` (the shared
  sandbox and Java judge of a process), ``locations`` (where benchmark data lies), ``scoring``,
  ``variants`` and ``errors``.

Imports run one way, from the command line down to the engine (``tests/test_import_layers.py`` holds
the layers and fails when an import goes back up).

The mutation engine itself is the ``mutators`` package, which knows nothing of lm-eval.
"""
