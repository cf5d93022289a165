import pytest

from mutators import ChainError, parse_chain


@pytest.mark.parametrize(
    "text, names",
    [
        ("F+U+V2", ["for2while", "constunfold", "varnorm2"]),
        ("for2while,constunfold,varnorm2", ["for2while", "constunfold", "varnorm2"]),
        ("FUV", ["for2while", "constunfold", "varnorm2"]),
        ("auv", ["condaug", "constunfold", "varnorm1"]),
        ("AFU", ["condaug", "for2while", "constunfold"]),
        ("VarNormII + While2For", ["varnorm2", "while2for"]),
        ("A+F+V1", ["condaug", "for2while", "varnorm1"]),
    ],
)
def test_spellings(text, names):
    assert parse_chain(text).names == names


def test_canonical_spec_is_letters():
    assert parse_chain("for2while,constunfold,varnorm2").spec == "F+U+V2"


@pytest.mark.parametrize("text, fragment", [("F+X", "'X'"), ("V", "ambiguous"), ("", "empty"), ("fuvx", "'fuvx'")])
def test_unknown_names_are_errors_that_say_what_is_valid(text, fragment):
    with pytest.raises(ChainError) as error:
        parse_chain(text)
    assert fragment in str(error.value) and "presets FUV, AUV, AFU" in str(error.value)


def test_options_are_checked_and_typed():
    chain = parse_chain("V2", {"varnorm2.length": "5"})
    assert chain.options_for(chain.operators[0]) == {"length": 5}
    with pytest.raises(ChainError, match=r"unknown mutation option 'varnorm2\.size'"):
        parse_chain("V2", {"varnorm2.size": 5})
    with pytest.raises(ChainError, match="needs a int"):
        parse_chain("U", {"constunfold.max_offset": "many"})


@pytest.mark.parametrize(("key", "value", "fragment"), [
    ("constunfold.max_offset", 0, "'constunfold.max_offset' must be at least 1, got 0"),
    ("varnorm2.length", -1, "'varnorm2.length' must be at least 1, got -1"),
    ("varnorm1.prefix", "1x", "'varnorm1.prefix' must be the start of a Python identifier"),
    ("varnorm1.prefix", "", "'varnorm1.prefix' must be the start of a Python identifier"),
])
def test_option_values_out_of_range_are_errors(key, value, fragment):
    with pytest.raises(ChainError) as error:
        parse_chain("V1+V2+U", {key: value})
    assert fragment in str(error.value)
