"""The report's charts and rankings as a newcomer reads them: every title and legend entry drawn whole
inside its figure, a chart of zeros on the 0-100 scale of pass@1 (not 0-0.05), and models with the same
score sharing their place in a ranking."""

import subprocess
import sys

import matplotlib
import pytest
from test_report import write_run

from dynbench_tasks.analysis.report import Report, write_report
from dynbench_tasks.analysis.runs import load_runs

matplotlib.use("Agg")
import matplotlib.pyplot as plt

LONG_NAME = "an-organisation-with-a-long-name/" + "a-model-name-that-goes-on-" * 4 + "instruct"


@pytest.fixture
def charts(monkeypatch):
    """The figures ``write_report`` draws, kept open (it closes each after saving it)."""
    close, kept = plt.close, []
    monkeypatch.setattr(plt, "close", kept.append)
    yield kept
    for figure in kept:
        close(figure)


def _texts_outside(figure) -> list[str]:
    """The visible texts (title, legend, labels, ticks) that are not drawn whole inside the figure."""
    figure.canvas.draw()
    renderer, box = figure.canvas.get_renderer(), figure.bbox
    outside = []
    for text in figure.findobj(matplotlib.text.Text):
        if not text.get_visible() or not text.get_text().strip():
            continue
        extent = text.get_window_extent(renderer)
        if extent.x0 < box.x0 - 1 or extent.x1 > box.x1 + 1 or extent.y0 < box.y0 - 1 or extent.y1 > box.y1 + 1:
            outside.append(text.get_text())
    return outside


def test_one_model_with_a_long_name_gets_its_whole_title(tmp_path, charts):
    write_run(tmp_path / "a", LONG_NAME, {"cruxeval_orig": [1, 0, 1], "cruxeval_fuv": [0, 0, 1]})
    write_report(Report(load_runs([str(tmp_path / "a")])), tmp_path / "out")
    (figure,) = charts
    assert _texts_outside(figure) == []
    assert LONG_NAME in figure.axes[0].get_title().replace("\n", "")  # broken into lines, all of it there


def test_many_models_get_whole_titles_and_legends(tmp_path, charts):
    folders = []
    for position in range(5):
        write_run(tmp_path / str(position), f"{LONG_NAME}-{position}",
                  {"cruxeval_orig": [1, 0, position % 2], "cruxeval_fuv": [0, 1, 0], "cruxeval_newoutput": [0, 0, 1]})
        folders.append(str(tmp_path / str(position)))
    write_report(Report(load_runs(folders)), tmp_path / "out")
    (figure,) = charts
    assert _texts_outside(figure) == []
    assert len(figure.axes[0].get_legend().get_texts()) == 5


def test_a_chart_of_zeros_is_drawn_on_the_whole_scale(tmp_path, charts):
    write_run(tmp_path / "z", "zero", {"cruxeval_orig": [0, 0, 0], "cruxeval_fuv": [0, 0, 0]})
    write_report(Report(load_runs([str(tmp_path / "z")])), tmp_path / "out")
    (figure,) = charts
    axes = figure.axes[0]
    low, high = axes.get_ylim()
    assert low == 0 and high >= 100
    assert [tick.get_text() for tick in axes.get_yticklabels()][-1] == "100"


def test_models_with_the_same_score_share_their_place(tmp_path):
    # model-a and model-b both pass 3 of 5 on orig (60 points, reached by different sums); model-c 1.
    write_run(tmp_path / "a", "model-a", {"cruxeval_orig": [1, 1, 1, 0, 0], "cruxeval_fuv": [1, 0, 0, 0, 0]})
    write_run(tmp_path / "b", "model-b", {"cruxeval_orig": [1, 0, 0.6, 1, 0.4], "cruxeval_fuv": [1, 0, 0, 0, 0]})
    write_run(tmp_path / "c", "model-c", {"cruxeval_orig": [1, 0, 0, 0, 0], "cruxeval_fuv": [1, 1, 0, 0, 0]})
    done = subprocess.run([sys.executable, "-m", "dynbench_tasks.cli", "report", *(str(tmp_path / d) for d in "abc"),
                           "--out", str(tmp_path / "out")], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    ranking = (tmp_path / "out" / "report.md").read_text().split("### Ranking of models")[1]
    assert "| orig | model-a = model-b &gt; model-c | — |" in ranking
    assert "| fuv | model-c &gt; model-a = model-b |" in ranking
