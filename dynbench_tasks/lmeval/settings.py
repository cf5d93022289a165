"""What a dynamic task reads from its metadata: YAML defaults merged with ``--metadata``.

Every key is checked. A key that is neither a setting, nor one the task's YAML or lm-eval puts there,
nor a model argument (lm-eval merges ``--model_args`` into the metadata) is an error when it is a
near miss of a setting (``seeed``, ``datadir``), so a misspelt seed never runs seed 0 in silence; any
other key is a warning that names it, since ``--metadata`` goes to every task of a run and other
tasks read keys of their own (``max_seq_lengths``). Importing this module is
cheap (the mutation engine loads when a chain is parsed), so a command line can check settings
before lm-eval and the model load."""

from __future__ import annotations

import logging
import math
import os
from collections.abc import Mapping
from typing import Any

from dynbench_tasks.benchmarks import BENCHMARKS
from dynbench_tasks.errors import SettingsError
from dynbench_tasks.lmeval.environment import model_argument_names
from dynbench_tasks.settings import (
    DATA_SOURCES,
    DEFAULT_SEED,
    FRESH,
    HUB,
    LOCAL,
    MAX_TIMEOUT,
    SCOPES,
    SETTINGS,
    TaskSettings,
)
from dynbench_tasks.variants import CUSTOM, VARIANTS

_fresh: list[int] = []
logger = logging.getLogger("lm_eval.dynbench")
# What else a task's metadata holds: its YAML's keys, and the file lm-eval read it from.
TASK_KEYS = ("version", "benchmark", "variant", "config_source")
NEAR_MISS = 0.75  # difflib's likeness from which an unknown key is taken for a misspelt setting
_warned_keys: set = set()


def check_keys(metadata: Mapping[str, Any], model_arguments: frozenset[str] = frozenset()) -> None:
    """A key of ``metadata`` that is not a setting, a key of the task itself or a model argument is
    an error if it is a near miss of a setting, else a warning (once a process) that names it."""
    for key in metadata:
        if key not in SETTINGS and key not in TASK_KEYS and key not in model_arguments:
            nearest = nearest_setting(str(key))
            if nearest:
                raise SettingsError(f"unknown setting {key!r} in --metadata: did you mean {nearest!r}? "
                                    f"dynbench tasks take {', '.join(SETTINGS)}")
            if key not in _warned_keys:
                _warned_keys.add(key)
                logger.warning("--metadata %r is not a dynbench setting: dynbench tasks ignore it (they take %s)",
                               key, ", ".join(SETTINGS))


def nearest_setting(key: str) -> str | None:
    """The setting ``key`` is a near miss of (a misspelling), if any."""
    import difflib

    close = difflib.get_close_matches(key, SETTINGS, n=1, cutoff=NEAR_MISS)
    return close[0] if close else None


def fresh_seed() -> int:
    """A seed drawn from the OS once per process, so every task of a run shares it; logged once."""
    if not _fresh:
        processes = os.environ.get("WORLD_SIZE", "1")
        if processes.isdigit() and int(processes) > 1:
            # Each process would draw its own seed, and the processes would score different benchmarks.
            raise SettingsError(
                f'seed "fresh" cannot be shared by the {processes} processes of a distributed run; draw one '
                "seed and give it to all of them: --metadata \"{\\\"seed\\\": $(python -c 'import secrets; "
                "print(secrets.randbits(31))')}\"")
        import secrets

        _fresh.append(secrets.randbits(31))
        logger.warning("seed 'fresh': this run's benchmark instance is seed %d (recorded in every task's results)",
                       _fresh[0])
    return _fresh[0]


def check_ids(benchmark: str, ids: tuple[str, ...], known: list) -> None:
    """Every id asked for must be one of the benchmark's own."""
    unknown = sorted(set(ids) - {str(i) for i in known})
    if unknown:
        shown = ", ".join(unknown[:5]) + (f" and {len(unknown) - 5} more" if len(unknown) > 5 else "")
        raise SettingsError(f"ids not in {benchmark}: {shown}")


def settings_from_metadata(metadata: Mapping[str, Any]) -> TaskSettings:
    """The settings ``metadata`` asks for, every key and value checked (:class:`SettingsError` names the
    first that is wrong)."""
    from mutators import ChainError, parse_chain

    check_keys(metadata, model_argument_names())
    benchmark, variant = metadata.get("benchmark"), metadata.get("variant")
    if benchmark not in BENCHMARKS:
        raise SettingsError(f"unknown benchmark {benchmark!r}; use one of {', '.join(BENCHMARKS)}")
    spec = BENCHMARKS[benchmark]
    if variant not in VARIANTS:
        raise SettingsError(f"unknown variant {variant!r}; use one of {', '.join(VARIANTS)}")
    chain_text = VARIANTS[variant] if variant != CUSTOM else metadata.get("chain")
    if variant == CUSTOM and not chain_text:
        raise SettingsError(
            f"{benchmark}_custom needs a chain: --metadata '{{\"chain\": \"A+F+V1\", \"seed\": 7}}'"
        )
    options = metadata.get("options") or {}
    if not isinstance(options, Mapping):
        raise SettingsError("metadata 'options' must map operator.key to a value, e.g. {\"varnorm2.length\": 5}")
    if variant not in spec.variants:
        raise SettingsError(f"{benchmark} has no variant {variant!r}; it has {', '.join(spec.variants)}")
    try:
        chain = parse_chain(chain_text, options) if chain_text else None
    except ChainError as error:
        raise SettingsError(str(error)) from None
    if chain is not None and not spec.takes_new_inputs and any(op.name == "newinput" for op in chain.operators):
        raise SettingsError(f"operator newinput (I) gives a problem a new input, but {benchmark} problems "
                            "show no call to give one to")
    scope = metadata.get("scope", "mutated")
    if scope not in SCOPES:
        raise SettingsError(f"scope must be one of {', '.join(SCOPES)}, got {scope!r}")
    prompt = metadata.get("prompt", spec.prompts[0])
    if prompt not in spec.prompts:
        owners = [other.name for other in BENCHMARKS.values() if prompt in other.prompts]
        if owners:
            raise SettingsError(f"{benchmark} tasks have the {' or '.join(spec.prompts)} prompt only; "
                                f"{prompt!r} is for {', '.join(owners)}")
        raise SettingsError(f"prompt must be one of {', '.join(spec.prompts)}, got {prompt!r}")
    seed = fresh_seed() if metadata.get("seed") == FRESH else _number(metadata, "seed", DEFAULT_SEED, int,
                                                                     'an integer or "fresh"')
    timeout = _number(metadata, "timeout", spec.default_timeout, float, "a number of seconds")
    if not (math.isfinite(timeout) and 0 < timeout <= MAX_TIMEOUT):
        raise SettingsError(f"metadata timeout must be a number of seconds above 0 and at most {MAX_TIMEOUT:g} "
                            f"(the default is {spec.default_timeout:g}), got {timeout!r}")
    repeats = _number(metadata, "repeats", None, int, "a whole number") if "repeats" in metadata else None
    if repeats is not None and repeats < 1:
        raise SettingsError(f"metadata repeats must be at least 1, got {repeats}")
    temperature = _number(metadata, "temperature", None, float, "a number") if "temperature" in metadata else None
    if temperature is not None and not (math.isfinite(temperature) and temperature >= 0):
        raise SettingsError(f"metadata temperature must be a finite number, 0 or more, got {temperature}")
    data_source = metadata.get("data_source", LOCAL)
    if data_source not in DATA_SOURCES:
        raise SettingsError(f"data_source must be one of {', '.join(DATA_SOURCES)}, got {data_source!r}")
    if data_source == HUB and spec.hub is None:
        raise SettingsError(f"{benchmark} has no Hugging Face Hub copy that carries its tests; "
                            f"use data_source {LOCAL!r} (the bundled copy or a data folder)")
    return TaskSettings(
        benchmark=benchmark,
        variant=variant,
        chain=chain.spec if chain else None,
        seed=seed,
        scope=scope,
        prompt=prompt,
        data_dir=metadata.get("data_dir") or None,
        options=chain.options if chain else (),
        verify=_flag(metadata.get("verify", True)),
        timeout=timeout,
        ids=_ids(metadata.get("ids")),
        repeats=repeats,
        temperature=temperature,
        data_source=data_source,
    )


def _number(metadata: Mapping[str, Any], key: str, default, kind: type, described: str):
    value = metadata.get(key, default)
    try:
        return kind(value)
    except (TypeError, ValueError):
        raise SettingsError(f"metadata {key} must be {described}, got {value!r}") from None


def _ids(value: Any) -> tuple[str, ...]:
    if not value:
        return ()
    if isinstance(value, str):
        value = value.split(",")
    if not isinstance(value, (list, tuple)):
        raise SettingsError("metadata 'ids' must be a list of problem ids or a comma-separated string")
    return tuple(str(item).strip() for item in value)


def _flag(value: Any) -> bool:
    if isinstance(value, str):
        return value.strip().lower() not in ("0", "false", "no", "off")
    return bool(value)
