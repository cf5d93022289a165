"""``dynbench --help`` describes everything (issue 31): every command and every argument of every
command has a description, and every flag is spelled one way, with dashes (``--require-complete``)."""

import argparse
import json
import subprocess
import sys

import pytest

from dynbench_tasks.cli import build_parser

# Calls dynbench's entry point with --help for the program and each command, in one process.
HELP_PAGES = """
import contextlib, io, json, sys
from dynbench_tasks.cli import build_parser, main
commands = [[]] + [[name] for name in build_parser()._subparsers._group_actions[0].choices]
pages = {}
for command in commands:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            main([*command, "--help"])
        except SystemExit as done:
            status = done.code
    pages[" ".join(command)] = {"status": status, "text": out.getvalue()}
print(json.dumps(pages))
"""


def _commands() -> dict[str, argparse.ArgumentParser]:
    commands = next(action for action in build_parser()._actions if isinstance(action, argparse._SubParsersAction))
    return dict(commands.choices)


COMMANDS = _commands()


def _arguments(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    return [action for action in parser._actions if not isinstance(action, argparse._HelpAction)]


def test_every_command_has_a_description():
    commands = next(action for action in build_parser()._actions if isinstance(action, argparse._SubParsersAction))
    described = {choice.dest: choice.help for choice in commands._choices_actions}
    assert sorted(described) == sorted(COMMANDS)
    assert not [name for name, text in described.items() if not text or not text.strip()]


@pytest.mark.parametrize("command", COMMANDS)
def test_every_argument_has_a_description(command):
    undescribed = [action.option_strings[0] if action.option_strings else action.metavar or action.dest
                   for action in _arguments(COMMANDS[command])
                   if not action.help or action.help == argparse.SUPPRESS or not action.help.strip()]
    assert not undescribed, f"dynbench {command}: no description for {', '.join(undescribed)}"


@pytest.mark.parametrize("command", COMMANDS)
def test_every_flag_is_spelled_with_dashes(command):
    underscored = [flag for action in _arguments(COMMANDS[command]) for flag in action.option_strings if "_" in flag]
    assert not underscored, f"dynbench {command}: {', '.join(underscored)} (spell flags with dashes)"


def test_help_pages_through_the_entry_point_list_every_flag():
    done = subprocess.run([sys.executable, "-c", HELP_PAGES], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    pages = json.loads(done.stdout)
    assert sorted(pages) == sorted(["", *COMMANDS])
    assert all(page["status"] == 0 for page in pages.values())
    assert all(f"    {name}" in pages[""]["text"] for name in COMMANDS)
    missing = [f"{command} {flag}" for command, parser in COMMANDS.items() for action in _arguments(parser)
               for flag in action.option_strings if flag not in pages[command]["text"]]
    assert not missing
