"""The `benchmark` run kind: each (item, template) of a project's gold slice asked of every endpoint,
each reply stored raw with the answer extracted from it.

parameters (clean_parameters fills the defaults):
    gold_key      one of the task type's gold keys (default: its first)
    templates     names of built-in templates, or of the project's own (PromptTemplate named
                  "benchmark:<name>"); default: every built-in multiple-choice/label one (or, with
                  open_ended, every built-in open-ended one). Their texts are copied into the run
                  (`template_texts`) so a later edit does not change what a finished run asked.
    categories, sources, statuses, split, items    the slice (default: every gold item)
    language      the prompt language (one of the project's languages), kept for the report
    mode          "chat" (the prompt is one user message; default), "completion" (the prompt as a plain
                  completion, for base models without a chat template) or "likelihood" (choice task types:
                  each option scored as the continuation of the prompt, the most likely picked;
                  evaluation/benchmarks/likelihood_runs.py)
    open_ended    true: the questions are asked without options (the task type's open-ended templates,
                  Putri et al.'s Section 7.1 check); replies are stored unjudged (rule "awaiting_judgment") for
                  reviewers to judge (evaluation/benchmarks/judging.py). Chat mode, choice task types.
    system, temperature (0), max_tokens (32)    chat only
    normalisation "tokens" (default), "bytes" or "none" (likelihood only; evaluation/benchmarks/likelihood.py)
    prompt_prefix text put before every likelihood context, e.g. the model's BOS token "<|im_start|>":
                  llama-cpp-python's echoed log-probabilities are misaligned for a model without a BOS
                  token unless the prompt starts with it. Before a likelihood run is created every
                  endpoint is probed with it (`preflight`) and the run is refused when one fails.

Planning (units) freezes one BenchmarkCase per item; on_result extracts the answer and writes one
Prediction, in the transaction that records the call, so each reply is scored exactly once. A call
that failed for good is a prediction too (unparsed, rule "call_failed"; left out of accuracy, counted apart).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from annotation.errors import InvalidInput
from annotation.models import Project
from annotation.task_types import get_task_type
from annotation.task_types.base import BenchmarkSpec
from evaluation.benchmarks import likelihood_runs
from evaluation.benchmarks.dataset import SOURCES, STATUSES, slice_items, slice_queryset
from evaluation.benchmarks.likelihood import NORMALISATIONS
from evaluation.benchmarks.reference_scorers import scorer_for
from evaluation.benchmarks.scoring import Score, score_reply
from evaluation.bulk_insert import insert_rows
from evaluation.kinds import RunKind, Unit, register
from evaluation.models import BenchmarkCase, Prediction, PromptTemplate
from evaluation.services.benchmark_templates import CUSTOM_PREFIX
from evaluation.templating import render, validate_template

MODES = ("chat", "completion", "likelihood")
DEFAULT_MAX_TOKENS = 32
AWAITING_JUDGMENT = "awaiting_judgment"  # the rule of an open-ended reply no reviewer has judged yet


# Every column but the id and the creation time (insert_rows stamps it): the object's field defaults
# were applied when it was built.
_PREDICTION_COLUMNS = [
    f.attname for f in Prediction._meta.concrete_fields if not f.primary_key and not getattr(f, "auto_now_add", False)
]


def _row(prediction: Prediction) -> dict[str, Any]:
    """A prediction as insert_rows takes it."""
    return {name: getattr(prediction, name) for name in _PREDICTION_COLUMNS}


def unit_key(item_id: int) -> str:
    return f"item{item_id}"


def _item_id(key: str) -> int:
    return int(key.removeprefix("item").split(":", 1)[0])  # "item12", or "item12:C" (likelihood_runs)


def _spec(project: Project | None) -> BenchmarkSpec:
    if project is None:
        raise InvalidInput("A benchmark runs on a project.", field_errors={"project": ["Required."]})
    spec = get_task_type(project.task_type).benchmark()
    if spec is None:
        raise InvalidInput("This project's task type has no benchmark.", field_errors={"project": ["No benchmark."]})
    return spec


def _names(parameters: dict[str, Any], key: str) -> list[str]:
    value = parameters.get(key) or []
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str | int) for v in value):
        raise InvalidInput(f"{key} must be a list.", field_errors={key: ["Give a list."]})
    return [str(v) for v in value]


def _fits(template: Any, mode: str) -> bool:
    return not template.modes or mode in template.modes


def _template_texts(
    spec: BenchmarkSpec, project: Project, names: list[str], *, open_ended: bool = False, mode: str = "chat"
) -> dict[str, str]:
    builtin = {t.name: t.text for t in spec.templates}
    if not names:
        texts = {t.name: t.text for t in spec.templates if t.open_ended == open_ended and _fits(t, mode)}
        if not texts:
            offered = "; ".join(
                f"{t.name}: {'open-ended' if t.open_ended else ' or '.join(t.modes) or 'any mode'}"
                for t in spec.templates
            )
            raise InvalidInput(
                f"None of this task type's templates is meant for a {'open-ended ' if open_ended else ''}{mode} "
                f"run (its templates: {offered}).",
                field_errors={"templates": ["None for this mode."]},
            )
        return texts
    # A built-in template written for other modes (a chat format written out, for likelihood) is
    # meaningless here: refused with its reason rather than run.
    misfits = [t for t in spec.templates if t.name in names and not _fits(t, mode)]
    if misfits:
        t = misfits[0]
        raise InvalidInput(
            f"Template {t.name} is meant for {' or '.join(t.modes)} mode only, not {mode}"
            f"{f': {t.modes_note}' if t.modes_note else ''}. Start a {t.modes[0]} run for it, or choose "
            "another template.",
            field_errors={"templates": [f"{' or '.join(t.modes).capitalize()} mode only."]},
        )
    asked_open = sorted(name for name in names if name in builtin and _is_open(spec, name))
    if asked_open and not open_ended:
        raise InvalidInput(
            f"Template {', '.join(asked_open)} asks without options: start an open-ended run for it.",
            field_errors={"templates": ["Open-ended template."]},
        )
    custom = {
        t.name.removeprefix(CUSTOM_PREFIX): t.text
        for t in PromptTemplate.objects.filter(project=project, name__startswith=CUSTOM_PREFIX)
    }
    texts, unknown = {}, []
    for name in names:
        text = builtin.get(name, custom.get(name))
        if text is None:
            unknown.append(name)
            continue
        validate_template(text, allowed=spec.fields)
        texts[name] = text
    if unknown:
        known = ", ".join(sorted({*builtin, *custom}))
        raise InvalidInput(
            f"Unknown template {', '.join(unknown)}; known: {known}.", field_errors={"templates": ["Unknown."]}
        )
    return texts


def _number(parameters: dict[str, Any], name: str, cast: type, default: Any, low: float, high: float) -> Any:
    value = parameters.get(name)
    if value in (None, ""):
        return default
    try:
        value = cast(value)
    except (TypeError, ValueError):
        raise InvalidInput(f"{name} must be a number.", field_errors={name: ["Not a number."]}) from None
    if not low <= value <= high:
        raise InvalidInput(f"{name} must be from {low} to {high}.", field_errors={name: ["Out of range."]})
    return value


def _is_open(spec: BenchmarkSpec, name: str) -> bool:
    return any(t.name == name and t.open_ended for t in spec.templates)


def _open_ended(parameters: dict[str, Any], spec: BenchmarkSpec, mode: str) -> bool:
    value = parameters.get("open_ended")
    if value in (None, "", False, "false", "0", 0):
        return False
    if not any(t.open_ended for t in spec.templates):
        raise InvalidInput(
            _("This task type has no open-ended template."), field_errors={"open_ended": [_("Not offered.")]}
        )
    if mode != "chat":
        raise InvalidInput(
            _("An open-ended run asks for free replies: use chat mode."), field_errors={"open_ended": [_("Chat only.")]}
        )
    return True


class Benchmark(RunKind):
    name = "benchmark"
    label = "Benchmark on the gold data"
    title = gettext_lazy("Benchmark")

    def clean_parameters(self, parameters: dict[str, Any], *, project: Any) -> dict[str, Any]:
        spec = _spec(project)
        gold_key = parameters.get("gold_key") or spec.gold_keys[0]
        if gold_key not in spec.gold_keys:
            raise InvalidInput(
                f"Unknown gold key “{gold_key}”; this task type offers {', '.join(spec.gold_keys)}.",
                field_errors={"gold_key": ["Unknown."]},
            )
        mode = parameters.get("mode") or "chat"
        if mode not in MODES:
            raise InvalidInput(
                f"Mode “{mode}” is not offered; use {', '.join(MODES)}.", field_errors={"mode": ["Unknown."]}
            )
        open_ended = _open_ended(parameters, spec, mode)
        cleaned: dict[str, Any] = {
            "gold_key": gold_key,
            "template_texts": _template_texts(
                spec, project, _names(parameters, "templates"), open_ended=open_ended, mode=mode
            ),
            "open_ended": open_ended,
            "categories": sorted(set(_names(parameters, "categories"))),
            "sources": sorted(set(_names(parameters, "sources"))),
            "statuses": sorted(set(_names(parameters, "statuses"))),  # none: the gold set (dataset.py)
            "split": str(parameters.get("split") or ""),
            "items": sorted({int(i) for i in _names(parameters, "items")}),
            "language": str(parameters.get("language") or ""),
            "mode": mode,
            "system": str(parameters.get("system") or ""),
            "temperature": _number(parameters, "temperature", float, 0.0, 0.0, 2.0),
            "max_tokens": _number(parameters, "max_tokens", int, DEFAULT_MAX_TOKENS, 1, 32_000),
        }
        if mode == "completion" and parameters.get("system"):
            raise InvalidInput(
                _("A system prompt is for chat mode; a plain completion sends only the prompt."),
                field_errors={"system": [_("Chat mode only.")]},
            )
        if mode == "likelihood":
            cleaned.update(self._likelihood_parameters(parameters, spec))
        for key, allowed in (("sources", SOURCES), ("statuses", STATUSES)):
            wrong = sorted(set(cleaned[key]) - set(allowed))
            if wrong:
                raise InvalidInput(
                    f"Unknown {key}: {', '.join(wrong)}; use {', '.join(allowed)}.", field_errors={key: ["Unknown."]}
                )
        missing = sorted(set(cleaned["categories"]) - set(project.categories.values_list("name", flat=True)))
        if missing:
            raise InvalidInput(
                _("The project has no category %(names)s.") % {"names": ", ".join(missing)},
                field_errors={"categories": [_("Unknown.")]},
            )
        languages = set(project.languages.values_list("code", flat=True))
        if cleaned["language"] and cleaned["language"] not in languages:
            raise InvalidInput(
                _("The project has no language “%(code)s”.") % {"code": cleaned["language"]},
                field_errors={"language": [_("Unknown.")]},
            )
        if not slice_queryset(project=project, parameters=cleaned).exists():
            raise InvalidInput(
                _("No item of the project is in this slice."), field_errors={"items": [_("None selected.")]}
            )
        # The split and the gold key are read per item (the export's split, the task type's gold answer),
        # not by the query: walk the slice until its first item, so an empty one is refused before a run.
        if (cleaned["split"] or gold_key != spec.gold_keys[0]) and next(
            slice_items(project=project, parameters=cleaned), None
        ) is None:
            if cleaned["split"]:
                refusal = _("No item of this slice has split “%(split)s”.") % {"split": cleaned["split"]}
            else:
                refusal = _("No item of this slice has an answer under gold key “%(key)s”.") % {"key": gold_key}
            raise InvalidInput(
                refusal,
                field_errors={"split" if cleaned["split"] else "gold_key": [_("No item.")]},
            )
        return cleaned

    def _likelihood_parameters(self, parameters: dict[str, Any], spec: BenchmarkSpec) -> dict[str, Any]:
        if spec.kind != "choice":
            raise InvalidInput(
                _("Likelihood scoring needs options to score; this task type answers with labels."),
                field_errors={"mode": [_("Choice task types only.")]},
            )
        if parameters.get("system"):
            raise InvalidInput(
                "A system prompt is for chat mode; likelihood scoring sends the prompt as plain text "
                "(use prompt_prefix).",
                field_errors={"system": ["Chat mode only."]},
            )
        normalisation = parameters.get("normalisation") or "tokens"
        if normalisation not in NORMALISATIONS:
            raise InvalidInput(
                f"Unknown normalisation “{normalisation}”; use {', '.join(NORMALISATIONS)}.",
                field_errors={"normalisation": ["Unknown."]},
            )
        return {"normalisation": normalisation, "prompt_prefix": str(parameters.get("prompt_prefix") or "")}

    def preflight(self, parameters: dict[str, Any], *, endpoints: Any) -> None:
        if parameters["mode"] == "likelihood":
            likelihood_runs.preflight(parameters, endpoints)

    def units(self, run: Any) -> Iterable[Unit]:
        parameters = run.parameters
        items = list(slice_items(project=run.project, parameters=parameters))
        spec = _spec(run.project)
        answers = list(spec.answers)
        insert_rows(
            BenchmarkCase,
            [
                {
                    "run_id": run.pk,
                    "item_id": item.item_id,
                    "gold": item.task.gold,
                    "answers": answers,
                    "options": list(item.task.options),
                    "human_answers": list(item.task.human_answers),
                    "category": item.category,
                    "source": item.source,
                    "split": item.split,
                }
                for item in items
            ],
            ignore_conflicts=True,
        )
        params = {"temperature": parameters["temperature"], "max_tokens": parameters["max_tokens"]}
        system = [{"role": "system", "content": parameters["system"]}] if parameters.get("system") else []
        likelihood = parameters["mode"] == "likelihood"
        scorer = scorer_for(run.project.task_type)
        prefix = scorer.continuation_prefix if scorer is not None else " "
        for item in items:
            for name, text in parameters["template_texts"].items():
                prompt = render(text, item.task.fields)
                if likelihood:
                    yield from likelihood_runs.score_units(
                        item_id=item.item_id,
                        template=name,
                        context=parameters["prompt_prefix"] + prompt,
                        answers=spec.answers,
                        options=item.task.options,
                        continuation_prefix=prefix,
                    )
                    continue
                if parameters["mode"] == "completion":
                    yield Unit(key=unit_key(item.item_id), template=name, prompt=prompt, params=params)
                    continue
                yield Unit(
                    key=unit_key(item.item_id),
                    template=name,
                    messages=[*system, {"role": "user", "content": prompt}],
                    params=params,
                )

    # A batch of replies (results_write: lock, on_result/on_failed per call, batch_end, one transaction)
    # reads its cases in one query and writes its predictions in one INSERT: row-per-call reads and
    # writes held the drainer's recording thread to ~450 predictions/s (bench/benchmark_runs.py).
    # Per thread: each drainer records its batches in its own thread.
    _batch = threading.local()

    def _case(self, run: Any, call: Any) -> BenchmarkCase:
        cases = getattr(self._batch, "cases", None)
        item_id = _item_id(call.unit_key)
        if cases is not None and getattr(self._batch, "run_id", None) == run.pk and item_id in cases:
            return cases[item_id]
        return BenchmarkCase.objects.get(run_id=run.pk, item_id=item_id)

    def _save(self, prediction: Prediction) -> None:
        pending = getattr(self._batch, "pending", None)
        if pending is not None and getattr(self._batch, "run_id", None) == prediction.run_id:
            pending.append(prediction)
        else:
            prediction.save(force_insert=True)

    def lock(self, run: Any, unit_keys: list[str]) -> None:
        item_ids = sorted({_item_id(key) for key in unit_keys})
        if run.parameters.get("mode") == "likelihood":  # chat: one call, one prediction, nothing shared
            self._batch.run_id, self._batch.cases, self._batch.pending = None, None, None
            likelihood_runs.lock_cases(run, item_ids)
            return
        self._batch.run_id = run.pk
        self._batch.cases = {
            case.item_id: case for case in BenchmarkCase.objects.filter(run_id=run.pk, item_id__in=item_ids)
        }
        self._batch.pending = []  # a retried batch (deadlock) starts again from lock: nothing doubled

    def batch_end(self, run: Any) -> None:
        pending = getattr(self._batch, "pending", None) or []
        self._batch.run_id, self._batch.cases, self._batch.pending = None, None, None
        if pending:
            insert_rows(Prediction, [_row(prediction) for prediction in pending])

    def on_result(self, run: Any, call: Any) -> Iterable[Unit]:
        case = self._case(run, call)
        if run.parameters.get("mode") == "likelihood":
            likelihood_runs.record(run, call, case)
            return ()
        scorer = scorer_for(run.project.task_type) if run.parameters.get("open_ended") else None
        if scorer is not None and scorer.open_ended is not None:  # scored against the item's references
            score = scorer.open_ended(call.text or "", case)
        elif run.parameters.get("open_ended"):  # judged by reviewers, not by the extraction rules
            score = Score(answer="", parsed=False, correct=False, rule=AWAITING_JUDGMENT)
        else:
            score = score_reply(_spec(run.project).kind, call.text or "", case=case)
        self._save(
            Prediction(
                run_id=run.pk,
                case=case,
                item_id=case.item_id,
                endpoint_id=call.endpoint_id,
                template=call.template,
                call_id=call.pk,
                reply=call.text or "",
                answer=score.answer,
                parsed=score.parsed,
                correct=score.correct,
                gold=case.gold,
                rule=score.rule,
            )
        )
        return ()

    def on_failed(self, run: Any, call: Any) -> None:
        case = self._case(run, call)
        if run.parameters.get("mode") == "likelihood":
            likelihood_runs.record(run, call, case)
            return
        self._save(
            Prediction(
                run_id=run.pk,
                case=case,
                item_id=case.item_id,
                endpoint_id=call.endpoint_id,
                template=call.template,
                call_id=call.pk,
                gold=case.gold,
                rule="call_failed",
            )
        )


register(Benchmark())
