"""dynbench's scorers as Hugging Face ``evaluate`` metrics, for generations scored outside lm-eval:

    import evaluate
    from dynbench_tasks.metrics import metric_path

    cruxeval = evaluate.load(metric_path("cruxeval_execution"))
    cruxeval.compute(predictions=[["[1, 2]", "assert f([2, 1]) == [1, 2]"]], references=["[1, 2]"],
                     inputs=["[2, 1]"])  # the shown input: an asserted answer must call f on it
    translation = evaluate.load(metric_path("java_translation"))
    translation.compute(predictions=[["static int addOne(int x) { return x + 1; }"]],
                        references=["ADD_1_TO_A_GIVEN_NUMBER"], benchmark="transcoder")

Each loads from the installed package (no network) and scores with the same sandbox and judge, and
the same code, as the tasks: the same answers get the same statuses.
"""

from pathlib import Path

METRICS = ("cruxeval_execution", "java_translation")


def metric_path(name: str) -> str:
    """The file ``evaluate.load`` takes for dynbench's metric ``name``."""
    if name not in METRICS:
        from dynbench_tasks.errors import UsageError

        raise UsageError(f"unknown dynbench metric {name!r}; there are {', '.join(METRICS)}")
    return str(Path(__file__).resolve().parent / name / f"{name}.py")
