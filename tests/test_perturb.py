import random

from mutators.perturb import parse_arguments, perturbed_inputs, render_arguments, to_source


def test_parse_and_render_round_trip():
    args, kwargs = parse_arguments("[1, 2], 'x', key={'a': (1,)}")
    assert args == [[1, 2], "x"] and kwargs == {"key": {"a": (1,)}}
    assert parse_arguments(render_arguments(args, kwargs)) == (args, kwargs)
    assert parse_arguments("lambda x: x") is None and parse_arguments("*xs") is None


def test_sets_render_deterministically():
    assert to_source({"b", "a", "c"}) == "{'a', 'b', 'c'}" and to_source(set()) == "set()"


def test_perturbations_keep_types_and_differ_from_the_original():
    inputs = ["[3, 1, 2], 'abc', 5, {'k': 1.5}, True"]
    made = perturbed_inputs(inputs, random.Random(0), 12)
    assert len(made) == 12
    for args, _ in made:
        assert [type(a) for a in args] == [list, str, int, dict, bool]
        assert render_arguments(args, {}) != inputs[0]
    assert perturbed_inputs(inputs, random.Random(0), 12) == made


def test_no_literal_input_means_no_extras():
    assert perturbed_inputs(["lambda: 1"], random.Random(0), 5) == []
