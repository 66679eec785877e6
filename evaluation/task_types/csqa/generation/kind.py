"""The `llm_gen` run kind: the paper's direct generation, wired to the catalog, the engine and QC.

parameters (cleaned by `clean_parameters`, stored on the run):
  language          the language named in the prompt (default: the project's first language's name)
  categories        category names (default: all of the project's)
  concepts          concept ids (optional subset of those categories)
  items_per_concept rounds: one call per batch and round, one item per concept per call (1-5)
  template          the prompt (default: the project's own, else the paper's)
  max_tokens, temperature

Each call's reply goes through generation/pipeline.process_reply: accepted payloads become
submitted items (source llm_gen, no author) with their provenance; every filtered draft is kept with
its reason. Duplicates within the run are refused by the database too (GeneratedItem's unique
(run, dedup_key)), so parallel workers can't both accept the same question.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop

from annotation.errors import InvalidInput
from annotation.models import Category, Concept, Item, Project
from annotation.services.item_language import first_language
from evaluation.kinds import RunKind, Unit, register
from evaluation.models import Call, Endpoint, GeneratedItem, PromptTemplate, Run
from evaluation.services.drafts import draft_create, filtered_record
from evaluation.task_types.csqa.generation import prompts
from evaluation.task_types.csqa.generation.batching import Batch, ConceptRef, plan_batches
from evaluation.task_types.csqa.generation.pipeline import process_reply, question_key

NAME = "llm_gen"
TEMPLATE = "llm_gen"
MAX_ROUNDS = 5
MAX_CONCEPTS = 20_000
DEFAULT_MAX_TOKENS = 2000
DEFAULT_TEMPERATURE = 0.7
# Reasons beyond the pipeline's: a reply with nothing readable, a batch concept that got no item.
UNREADABLE = "unreadable"
NO_ITEM = "no_item"
UNREADABLE_PROBLEMS = (gettext_noop("The reply is empty."), gettext_noop("No JSON was found in the reply."))


def project_template(project: Project, name: str = TEMPLATE, default: str = prompts.DEFAULT_TEMPLATE) -> str:
    text = PromptTemplate.objects.filter(project=project, name=name).values_list("text", flat=True).first()
    return text or default


def project_language(project: Project) -> str:
    return project.languages.order_by("position", "code").values_list("name", flat=True).first() or "Indonesian"


def _number(parameters: dict[str, Any], name: str, cast, default, low, high):
    value = parameters.get(name)
    if value in (None, ""):
        return default
    try:
        value = cast(value)
    except (TypeError, ValueError):
        raise InvalidInput(
            _("%(name)s must be a number.") % {"name": name}, field_errors={name: [_("Not a number.")]}
        ) from None
    if not low <= value <= high:
        raise InvalidInput(
            _("%(name)s must be between %(low)s and %(high)s.") % {"name": name, "low": low, "high": high},
            field_errors={name: [_("Out of range.")]},
        )
    return value


def _names(value: Any) -> list[str]:
    if value in (None, ""):
        return []
    if isinstance(value, str):
        value = value.split(",")
    return [str(v).strip() for v in value if str(v).strip()]


class Generation(RunKind):
    name = NAME
    label = "Direct generation (LLM_GEN)"
    title = gettext_lazy("Generated questions")

    def clean_parameters(self, parameters: dict[str, Any], *, project: Any) -> dict[str, Any]:
        if project is None or project.task_type != "csqa":
            raise InvalidInput("Generation needs a commonsense QA (csqa) project.", field_errors={"project": ["csqa."]})
        categories = Category.objects.filter(project=project)
        wanted = _names(parameters.get("categories"))
        if wanted:
            found = {c.name: c for c in categories.filter(name__in=wanted)}
            unknown = [n for n in wanted if n not in found]
            if unknown:
                raise InvalidInput(
                    _("Unknown categories: %(names)s.") % {"names": ", ".join(unknown)},
                    field_errors={"categories": [_("Unknown category.")]},
                )
            categories = categories.filter(pk__in=[c.pk for c in found.values()])
        concepts = Concept.objects.filter(project=project, category__in=categories).select_related("category")
        concept_ids = parameters.get("concepts") or []
        if isinstance(concept_ids, str):
            concept_ids = concept_ids.split(",")
        if concept_ids:
            try:
                ids = sorted({int(c) for c in concept_ids})
            except (TypeError, ValueError):
                raise InvalidInput(
                    _("Concepts are given by id."), field_errors={"concepts": [_("Not an id.")]}
                ) from None
            concepts = concepts.filter(pk__in=ids)
            if concepts.count() != len(ids):
                raise InvalidInput(
                    _("Some concepts are not in the chosen categories of this project."),
                    field_errors={"concepts": [_("Unknown concept.")]},
                )
        refs = [
            {"id": c.pk, "category": c.category.name, "name": c.name} for c in concepts.order_by("category_id", "id")
        ]
        if not refs:
            raise InvalidInput(
                _("There are no concepts to generate for."), field_errors={"concepts": [_("None chosen.")]}
            )
        if len(refs) > MAX_CONCEPTS:
            raise InvalidInput(
                _("At most %(n)s concepts per run.") % {"n": MAX_CONCEPTS}, field_errors={"concepts": [_("Too many.")]}
            )
        template = parameters.get("template") or project_template(project)
        prompts.validate_template(template)
        language = str(parameters.get("language") or project_language(project)).strip()[:100]
        return {
            "language": language,
            "categories": wanted,
            "concepts": refs,
            "items_per_concept": _number(parameters, "items_per_concept", int, 1, 1, MAX_ROUNDS),
            "template": template,
            "max_tokens": _number(parameters, "max_tokens", int, DEFAULT_MAX_TOKENS, 1, 32_000),
            "temperature": _number(parameters, "temperature", float, DEFAULT_TEMPERATURE, 0.0, 2.0),
        }

    def units(self, run: Run) -> Iterable[Unit]:
        parameters = run.parameters
        params = {"max_tokens": parameters["max_tokens"], "temperature": parameters["temperature"]}
        for batch in batches_of(run):
            yield Unit(
                key=batch.key,
                template=TEMPLATE,
                messages=prompts.messages(batch, language=parameters["language"], template=parameters["template"]),
                params=params,
            )

    def on_result(self, run: Run, call: Call) -> Iterable[Unit]:
        batch = {b.key: b for b in batches_of(run)}.get(call.unit_key)
        if batch is None:
            filtered_record(run=run, call=call, reason=UNREADABLE, detail="The call's unit is not in the run's plan.")
            return []
        run_keys = set(GeneratedItem.objects.filter(run=run).values_list("dedup_key", flat=True))
        outcome = process_reply(call.text, batch, run_keys=run_keys, project_keys=project_keys(run))
        model = endpoint_model(call.endpoint_id)
        language = first_language(run.project) if outcome.accepted else ""
        for accepted in outcome.accepted:
            item = draft_create(
                run=run,
                call=call,
                payload=accepted.payload,
                source=Item.Source.LLM_GEN,
                model=model,
                language=language,
                concept=accepted.concept.id,
                concept_name=accepted.concept.name,
                steps={"generate": accepted.record},
                dedup_key=accepted.dedup_key,
            )
            if item is None:  # another worker accepted the same question first
                filtered_record(
                    run=run,
                    call=call,
                    reason="duplicate_in_run",
                    detail="The same question was generated earlier in this run.",
                    concept_name=accepted.concept.name,
                    record=accepted.record,
                )
        for filtered in outcome.filtered:
            filtered_record(
                run=run,
                call=call,
                reason=filtered.reason,
                detail=filtered.detail,
                concept_name=filtered.concept or "",
                record=filtered.record if isinstance(filtered.record, dict | list | str) else None,
            )
        unreadable = [p for p in outcome.problems if p in UNREADABLE_PROBLEMS]
        if unreadable and not outcome.accepted and not outcome.filtered:
            filtered_record(run=run, call=call, reason=UNREADABLE, detail=" ".join(outcome.problems))
            return []
        for concept in outcome.missing:
            filtered_record(
                run=run, call=call, reason=NO_ITEM, detail="The reply has no item for it.", concept_name=concept.name
            )
        return []


@lru_cache(maxsize=32)
def _batches(run_id: int, key: str, concepts: tuple[tuple[int, str, str], ...], rounds: int) -> tuple[Batch, ...]:
    refs = [ConceptRef(category, name, pk) for pk, category, name in concepts]
    return tuple(plan_batches(refs, rounds=rounds))


def batches_of(run: Run) -> tuple[Batch, ...]:
    """The run's batches, planned again from its parameters (the same every time: a call's key finds its batch)."""
    return _batches(run.pk, *_parameters_key(run))


def _parameters_key(run: Run) -> tuple:
    parameters = run.parameters
    concepts = tuple((c["id"], c["category"], c["name"]) for c in parameters["concepts"])
    return (str(run.created_at), concepts, int(parameters.get("items_per_concept", 1)))


def endpoint_model(endpoint_id: int) -> str:
    return Endpoint.objects.filter(pk=endpoint_id).values_list("model", flat=True).first() or ""


_PROJECT_KEYS: dict[tuple[int, str], frozenset[str]] = {}


def project_keys(run: Run) -> frozenset[str]:
    """The project's questions before this run (normalised), read once per run in each process."""
    cache_key = (run.pk, str(run.created_at))
    if cache_key not in _PROJECT_KEYS:
        questions = (
            Item.objects.filter(project_id=run.project_id)
            .exclude(generation__run=run)
            .values_list("current_version__payload__question", flat=True)
        )
        if len(_PROJECT_KEYS) > 32:
            _PROJECT_KEYS.clear()
        _PROJECT_KEYS[cache_key] = frozenset(question_key(q) for q in questions if isinstance(q, str))
    return _PROJECT_KEYS[cache_key]


register(Generation())
