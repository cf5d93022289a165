"""The lm-eval task class every dynbench YAML names with ``class:``.

It reads its settings from the task metadata (YAML defaults merged with ``--metadata``), loads the
raw benchmark, installs the preprocessing hook that mutates the documents, and takes the prompt and
scoring of its benchmark. Everything else is lm-eval's ``ConfigurableTask``.
"""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import replace
from typing import Any

import datasets
from lm_eval.api.task import ConfigurableTask

from dynbench_tasks.benchmarks import BENCHMARKS
from dynbench_tasks.benchmarks.execution import sanitized
from dynbench_tasks.judge.jdk import find_jdk
from dynbench_tasks.lmeval.answer_statuses import RECORD, UNREAD, UNREAD_METRIC, UnreadShare, breakdown_of_shares
from dynbench_tasks.lmeval.background_build import wait as wait_for_background_build
from dynbench_tasks.lmeval.documents import expect, prepare_documents
from dynbench_tasks.lmeval.environment import check_lm_eval_version
from dynbench_tasks.lmeval.settings import TaskSettings, settings_from_metadata
from dynbench_tasks.lmeval.sources import load_raw
from dynbench_tasks.scoring import process_results
from dynbench_tasks.settings import CHAT_PROMPT
from mutators import COUNTING_PYTHON, ENGINE_VERSION
from mutators.execution.isolation import isolation

logger = logging.getLogger("lm_eval.dynbench")
SAMPLING_KEYS = ("top_p", "top_k", "min_p", "typical_p")  # generation keys that only sampling reads
PREDICT_ONLY_METRIC = "bypass"  # what lm-eval's --predict_only puts in place of every metric
UNFILTERED = "none"  # lm-eval's name for answers kept as they came


def provenance(settings: TaskSettings, repeats, temperature) -> dict[str, Any]:
    """What a task's results were built from, recorded in ``metadata.dynbench`` (``dynbench verify``
    rebuilds the documents from it); the data digest, the counts and the documents' digest join it
    as the task builds."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        installed = version("dynbench")
    except PackageNotFoundError:
        installed = "unknown"
    return {"dynbench_version": installed, "engine_version": ENGINE_VERSION, "python": COUNTING_PYTHON,
            "benchmark": settings.benchmark,
            "variant": settings.variant, "chain": settings.chain, "seed": settings.seed,
            "options": dict(settings.options), "scope": settings.scope, "prompt": settings.prompt,
            "repeats": repeats, "temperature": temperature, "timeout": settings.timeout, "ids": list(settings.ids),
            "verify": settings.verify, "data_source": settings.data_source, "isolation": isolation().describe(),
            "judging_rules": settings.judging_rules}


def settled_sampling(generation: dict[str, Any]) -> dict[str, Any]:
    """``generation`` as it decodes: at temperature 0 greedily (``do_sample`` off: transformers refuses
    to sample at temperature 0), and when greedy without the sampling keys (``top_p``, …), which
    transformers warns about on every batch."""
    settled = dict(generation)
    if str(settled.get("temperature")) in ("0", "0.0"):
        settled["do_sample"] = False
    if settled.get("do_sample") is False:
        settled = {key: value for key, value in settled.items() if key not in SAMPLING_KEYS}
    return settled


class DynamicTask(ConfigurableTask):
    def __init__(self, config: dict[str, Any]) -> None:
        check_lm_eval_version()
        config = {key: value for key, value in config.items() if key != "class"}
        metadata = dict(config.get("metadata") or {})
        self.settings = settings_from_metadata(metadata)
        benchmark = BENCHMARKS[self.settings.benchmark]
        if benchmark.needs_jdk:
            find_jdk()  # fail now, with the package to install, rather than at scoring time
        prompt = benchmark.task_config(self.settings)
        generation = dict(config.get("generation_kwargs") or {})
        generation["until"] = prompt.pop("stop")
        if "max_gen_toks" in prompt:  # a prompt that invites sentences or thinking around the answer
            generation["max_gen_toks"] = prompt.pop("max_gen_toks")
        if self.settings.temperature is not None:  # e.g. greedy decoding for a quick run: temperature 0
            generation["temperature"] = self.settings.temperature
            generation["do_sample"] = self.settings.temperature > 0
        if self.settings.repeats is not None:
            config["repeats"] = self.settings.repeats
        # The YAML's few-shot delimiters hold for a prompt that brings its own few-shot settings too.
        fewshot = {**(config.get("fewshot_config") or {}), **(prompt.pop("fewshot_config", None) or {})}
        config.update(prompt, fewshot_config=fewshot, generation_kwargs=settled_sampling(generation),
                      process_results=process_results)
        metrics = list(config.get("metric_list") or [])
        if not any(metric.get("metric") == UNREAD for metric in metrics):
            metrics.append(dict(UNREAD_METRIC))
        config["metric_list"] = metrics
        config["process_docs"] = self._prepare
        metadata["dynbench"] = provenance(self.settings, config.get("repeats"), generation.get("temperature"))
        config["metadata"] = metadata
        self._digested = None
        self._prompt_chosen = "prompt" in metadata
        self._generation_overrides: dict[str, Any] = {}  # --gen_kwargs, kept over a prompt's own settings
        self._replies: dict[str, list] = {}  # each document's replies as the model gave them, by document id
        super().__init__(config=config)

    def download(self, dataset_kwargs: dict[str, Any] | None = None, **kwargs) -> None:
        self.raw = load_raw(self.settings.benchmark, self.settings.data_dir, self.settings.data_source)
        self.dataset = datasets.DatasetDict({"test": self.raw.dataset})
        self.config.metadata["dynbench"]["data"] = {"origin": self.raw.origin, "sha256": self.raw.sha256}
        expect(self.settings, self.raw.sha256)

    def _prepare(self, dataset: datasets.Dataset) -> datasets.Dataset:
        wait_for_background_build()
        documents, counts = prepare_documents(dataset, self.settings, self.config.task, self.raw.sha256)
        # lm-eval asks for the documents often, also from copies of this task: key on their fingerprint.
        if self._digested is None or self._digested[0] != documents._fingerprint:
            self.features = list(documents.features)  # lm-eval sets it only after this hook; doc_to_text needs it
            digest = self.documents_digest(documents)
            self._digested = (documents._fingerprint, digest)
            self.config.metadata["dynbench"].update(counts=counts, documents_sha256=digest)
            logger.info("%s: documents sha256 %s", self.config.task, digest)  # every process of a run logs the same
        return documents

    def documents_digest(self, documents) -> str:
        """sha256 of the scored documents in order: each one's id, prompt and what it is scored against."""
        spec = BENCHMARKS[self.settings.benchmark]
        digest = hashlib.sha256()
        for doc in documents:
            entry = [str(doc["id"]), self.doc_to_text(doc), spec.scored_against(doc)]
            digest.update(json.dumps(entry, sort_keys=True, ensure_ascii=False).encode("utf-8") + b"\n")
        return digest.hexdigest()

    def set_config(self, key: str, value: Any, update: bool = False) -> None:
        super().set_config(key, value, update)
        if key == "generation_kwargs":  # --gen_kwargs temperature=0 arrives here, after the task is made
            self._generation_overrides.update(value if update and isinstance(value, dict) else {})
            self.config.generation_kwargs = settled_sampling(self.config.generation_kwargs)

    def apply_filters(self):
        # A reply with a lone surrogate would stop lm-eval from writing its logs: replace it first.
        for instance in self._instances:
            instance.resps = [sanitized(r) if isinstance(r, str) else r for r in instance.resps]
        if PREDICT_ONLY_METRIC in self._metric_fn_list:
            # --predict_only: the answers are only recorded; scoring would run every one of them.
            for instance in self._instances:
                instance.filtered_resps = {UNFILTERED: list(instance.resps)}
            return self._instances
        # lm-eval hands process_results the scored replies only; the unread ones are summed up by their form.
        self._replies = {str(instance.doc["id"]): instance.resps for instance in self._instances}
        return super().apply_filters()

    def process_results(self, doc: dict, results: list[list[str]]) -> dict[str, float]:
        metrics = super().process_results(doc, results)
        if PREDICT_ONLY_METRIC in self._metric_fn_list:
            return metrics
        statuses = [json.loads(sample)["status"] for sample in results[0]]
        unread = BENCHMARKS[self.settings.benchmark].unread_statuses
        return {**metrics, UNREAD: UnreadShare(statuses, self._replies.get(str(doc["id"]), []), unread)}

    def note_answer_statuses(self, metrics: dict[tuple[str, str], list]) -> None:
        """Once per run, with every document's metrics: the breakdown of the samples by status into
        ``metadata.dynbench.answers``, and a warning when many replies gave no answer to read."""
        shares = [value for (metric, _), values in metrics.items() if metric == UNREAD for value in values]
        breakdown = breakdown_of_shares(self.settings.benchmark, shares)
        if breakdown is None:
            return
        self.config.metadata["dynbench"][RECORD] = breakdown.record()
        warning = breakdown.warning(self.config.task)
        if warning:
            logger.warning("%s", warning)

    def build_all_requests(self, *, cache_requests: bool = False, rewrite_requests_cache: bool = False, **kwargs):
        if cache_requests or rewrite_requests_cache:
            # lm-eval keys its request cache on the task name alone, so it would serve one seed's
            # prompts to a run with another seed or chain.
            logger.warning(
                "%s: --cache_requests ignores --metadata (seed, chain), so it is disabled for this task",
                self.config.task,
            )
        if kwargs.get("apply_chat_template"):
            self._prompt_for_chat()
        return super().build_all_requests(cache_requests=False, rewrite_requests_cache=False, **kwargs)

    def _prompt_for_chat(self) -> None:
        """Under a chat template, the benchmark's chat prompt unless --metadata named a prompt: the
        default prompt's last line (``assert f(x) ==``) is a half line no chat model completes. The
        run records the prompt it used and the documents' digest under it, as a run that named it would."""
        benchmark = BENCHMARKS[self.settings.benchmark]
        if self._prompt_chosen or CHAT_PROMPT not in benchmark.prompts or self.settings.prompt == CHAT_PROMPT:
            return
        self.settings = replace(self.settings, prompt=CHAT_PROMPT)
        prompt = benchmark.task_config(self.settings)
        for key in ("description", "doc_to_text", "doc_to_target", "num_fewshot"):
            setattr(self.config, key, prompt[key])
        generation = {**self.config.generation_kwargs, "until": prompt["stop"], "max_gen_toks": prompt["max_gen_toks"]}
        self.config.generation_kwargs = settled_sampling({**generation, **self._generation_overrides})
        self.config.metadata["dynbench"]["prompt"] = CHAT_PROMPT
        self._digested = None  # the documents' digest covers their prompts: taken again as they are next read
        logger.info("%s: a chat template is applied, so the prompt is %r (docs/chat.md)", self.config.task,
                    CHAT_PROMPT)
