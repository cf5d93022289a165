"""lm-eval's own checks of a task (``BaseTasks`` of its ``tests/test_tasks.py`` at 0.4.13, the version
dynbench supports; lm-eval's package ships no tests), run over every dynbench task. The assertions
are lm-eval's, unchanged; what differs is how the tasks are made: all of them through one
``TaskManager`` on the first problems of each benchmark (every problem scored, mutated or not), so
that documents build in one go, and each ``<benchmark>_custom`` with a chain of its own."""

import json
from itertools import islice
from pathlib import Path

import pytest

from dynbench_tasks.benchmarks import BENCHMARKS
from dynbench_tasks.benchmarks.records import read_data_file
from dynbench_tasks.errors import SettingsError
from dynbench_tasks.lmeval import task_manager
from dynbench_tasks.lmeval.task_names import dynbench_entries
from dynbench_tasks.variants import CUSTOM

pytestmark = pytest.mark.slow

JUDGEABLE = 12  # problems of each benchmark: more than lm-eval's limit of 10
CUSTOM_CHAIN = "A+V2"
TASKS = sorted(name for name, entry in dynbench_entries().items() if not entry.members)
assert len(TASKS) == sum(len(b.variants) for b in BENCHMARKS.values())


@pytest.fixture(scope="module")
def first_problems(tmp_path_factory) -> str:
    """The first problems of each data file, up to ``JUDGEABLE`` that every benchmark on it can judge."""
    folder = tmp_path_factory.mktemp("first-problems")
    for filename in {benchmark.filename for benchmark in BENCHMARKS.values()}:
        readers = [benchmark for benchmark in BENCHMARKS.values() if benchmark.filename == filename]
        kept, judgeable = [], 0
        for line in read_data_file(filename, None).text.splitlines():
            kept.append(line)
            judgeable += all(benchmark.judgeable(json.loads(line)) for benchmark in readers)
            if judgeable == JUDGEABLE:
                break
        (folder / filename).write_text("\n".join(kept) + "\n", encoding="utf-8")
    return str(folder)


@pytest.fixture(scope="module")
def loaded(first_problems) -> dict:
    settings = {"data_dir": first_problems, "scope": "all"}
    named = [name for name in TASKS if not name.endswith(f"_{CUSTOM}")]
    tasks = task_manager(settings).load(named)["tasks"]
    custom = [name for name in TASKS if name.endswith(f"_{CUSTOM}")]
    tasks.update(task_manager({**settings, "chain": CUSTOM_CHAIN}).load(custom)["tasks"])
    return tasks


@pytest.fixture(params=TASKS)
def task_class(request, loaded):
    return loaded[request.param]


@pytest.fixture()
def limit() -> int:
    return 10


class BaseTasks:
    """lm-eval's ``tests/test_tasks.py::BaseTasks``, assertion for assertion."""

    def test_download(self, task_class):
        task_class.download(task_class.config.dataset_kwargs)
        assert task_class.dataset is not None

    def test_has_training_docs(self, task_class):
        assert task_class.has_training_docs() in [True, False]

    def test_check_training_docs(self, task_class):
        if task_class.has_training_docs():
            assert task_class._config["training_split"] is not None

    def test_has_validation_docs(self, task_class):
        assert task_class.has_validation_docs() in [True, False]

    def test_check_validation_docs(self, task_class):
        if task_class.has_validation_docs():
            assert task_class._config["validation_split"] is not None

    def test_has_test_docs(self, task_class):
        assert task_class.has_test_docs() in [True, False]

    def test_check_test_docs(self, task_class):
        task = task_class
        if task.has_test_docs():
            assert task._config["test_split"] is not None

    def test_should_decontaminate(self, task_class):
        task = task_class
        assert task.should_decontaminate() in [True, False]
        if task.should_decontaminate():
            assert task._config["doc_to_decontamination_query"] is not None

    def test_doc_to_text(self, task_class, limit):
        task = task_class
        arr = (list(islice(task.test_docs(), limit)) if task.has_test_docs()
               else list(islice(task.validation_docs(), limit)))
        _array = [task.doc_to_text(doc) for doc in arr]
        target_delimiter: str = task.config.target_delimiter
        if not task.multiple_input:
            for x in _array:
                assert isinstance(x, str)
                assert (x[-1].isspace() is False if len(x) > 0 else True) if target_delimiter.isspace() else True, (
                    "doc_to_text ends in a whitespace and target delimiter also a whitespace")

    def test_create_choices(self, task_class, limit):
        task = task_class
        arr = (list(islice(task.test_docs(), limit)) if task.has_test_docs()
               else list(islice(task.validation_docs(), limit)))
        if "multiple_choice" in task._config.output_type:
            _array = [task.doc_to_choice(doc) for doc in arr]
            assert all(isinstance(x, list) for x in _array)
            assert all(isinstance(x[0], str) for x in _array)

    def test_doc_to_target(self, task_class, limit):
        task = task_class
        arr = (list(islice(task.test_docs(), limit)) if task.has_test_docs()
               else list(islice(task.validation_docs(), limit)))
        _array_target = [task.doc_to_target(doc) for doc in arr]
        if task._config.output_type == "multiple_choice":
            for label in _array_target:
                if isinstance(label, list):
                    assert all(isinstance(x, int) for x in label)
                else:
                    assert isinstance(label, (int, str))

    def test_build_all_requests(self, task_class, limit):
        task_class.build_all_requests(rank=1, limit=limit, world_size=1)
        assert task_class.instances is not None

    def test_construct_requests(self, task_class, limit):
        task = task_class
        arr = (list(islice(task.test_docs(), limit)) if task.has_test_docs()
               else list(islice(task.validation_docs(), limit)))
        requests = [task.construct_requests(doc=doc, ctx="" if task.multiple_input else task.doc_to_text(doc))
                    for doc in arr]
        assert len(requests) == limit if limit else True


class TestEveryDynbenchTask(BaseTasks):
    """Every dynbench task (count: ``TASKS``), under lm-eval's checks."""


@pytest.mark.parametrize("benchmark", list(BENCHMARKS))
def test_a_custom_task_without_a_chain_says_so_in_one_line(benchmark, first_problems):
    with pytest.raises(SettingsError) as raised:
        task_manager({"data_dir": first_problems}).load([f"{benchmark}_{CUSTOM}"])
    message = str(raised.value)
    assert "\n" not in message and f"{benchmark}_{CUSTOM} needs a chain" in message


def test_every_task_is_checked():
    found = {path.stem for path in Path(__file__).resolve().parent.parent.joinpath("task_configs").rglob("*.yaml")
             if "task:" in path.read_text() and "group:" not in path.read_text()}
    assert set(TASKS) == found, json.dumps(sorted(found ^ set(TASKS)))
