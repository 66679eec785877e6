"""The run kinds of the preference task type (imported by evaluation.apps through evaluation.task_types).

`preference_responses`: one response per (prompt, endpoint). parameters: {"items": [item ids], "system":
  str, "max_tokens", "temperature"}; by default every approved prompt of the project (approved, judged or
  gold when `all_statuses`). Each reply becomes a response of its prompt (model = the endpoint's model,
  usage, latency, run and call ids) in the transaction that records the call, so a call's reply is added
  once even when a worker dies and the call is sent again (the engine's lease fence), and twice-recorded
  replies are refused by the call id kept on the response.

`preference_judge`: the R3/mR3 pairwise prompt over the project's pairs (derived from ratings, or the
  file's human pairs), each pair in both orders and in each chosen instruction language (template
  judge_en / judge_id). parameters: {"pairs": [frozen pairs], "languages": ["en", "id"], "max_tokens",
  "temperature", "confidence"}. The judge sees the prompt and the two response texts, never a model's name.
  With `confidence`, every call asks for the top log-probabilities of its tokens, from which the judge's
  probability for its verdict is read (judge_calibration.py); only endpoints that offer log-probabilities
  may run it. Verdicts are read from the calls by judge_report.py and judge_calibration.py.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from annotation.errors import InvalidInput
from annotation.models import Item
from annotation.services.judging import JUDGEABLE
from annotation.task_types.preference.reports import all_pairs, prompts_from_rows
from evaluation.kinds import RunKind, Unit, register
from evaluation.models import Call, Endpoint, Run
from evaluation.task_types.preference import judge_prompts
from evaluation.task_types.preference.services import prompt_add_response
from qc.reports.rows import report_rows

TASK_TYPE = "preference"
RESPONSES = "preference_responses"
JUDGE = "preference_judge"
MAX_ITEMS = 100_000
MAX_PAIRS = 200_000
TOP_LOGPROBS = 5  # alternatives asked for each token: enough to hold both verdict digits


def _project_check(project: Any, what: str) -> None:
    if project is None or project.task_type != TASK_TYPE:
        raise InvalidInput(f"{what} needs a preference project.", field_errors={"project": ["preference."]})


def _number(parameters: dict[str, Any], name: str, cast, default, low, high):
    value = parameters.get(name)
    if value in (None, ""):
        return default
    try:
        value = cast(value)
    except (TypeError, ValueError):
        raise InvalidInput(f"{name} must be a number.", field_errors={name: ["Not a number."]}) from None
    if not low <= value <= high:
        raise InvalidInput(f"{name} must be between {low} and {high}.", field_errors={name: ["Out of range."]})
    return value


def item_key(item_id: int) -> str:
    return f"item-{item_id}"


class PromptResponses(RunKind):
    name = RESPONSES
    label = "Responses to the project's prompts (one per prompt and endpoint)"
    title = gettext_lazy("Responses to rate")

    def clean_parameters(self, parameters: dict[str, Any], *, project: Any) -> dict[str, Any]:
        _project_check(project, "A response run")
        statuses = JUDGEABLE if parameters.get("all_statuses") else (Item.Status.APPROVED,)
        items = Item.objects.filter(project=project, status__in=statuses)
        wanted = parameters.get("items") or []
        if wanted:
            try:
                ids = sorted({int(i) for i in wanted})
            except (TypeError, ValueError):
                raise InvalidInput("Prompts are given by id.", field_errors={"items": ["Not an id."]}) from None
            items = items.filter(pk__in=ids)
            if items.count() != len(ids):
                raise InvalidInput(
                    "Some prompts are not approved prompts of this project.", field_errors={"items": ["Unknown."]}
                )
        ids = list(items.order_by("pk").values_list("pk", flat=True))
        if not ids:
            raise InvalidInput("There are no approved prompts to answer.", field_errors={"items": ["None."]})
        if len(ids) > MAX_ITEMS:
            raise InvalidInput(f"At most {MAX_ITEMS} prompts per run.", field_errors={"items": ["Too many."]})
        cleaned: dict[str, Any] = {
            "items": ids,
            "max_tokens": _number(parameters, "max_tokens", int, 1024, 1, 32_000),
            "temperature": _number(parameters, "temperature", float, 0.7, 0.0, 2.0),
        }
        if parameters.get("system"):
            cleaned["system"] = str(parameters["system"])[:5000]
        return cleaned

    def units(self, run: Run) -> Iterable[Unit]:
        parameters = run.parameters
        params = {"max_tokens": parameters["max_tokens"], "temperature": parameters["temperature"]}
        payloads = dict(Item.objects.filter(pk__in=parameters["items"]).values_list("pk", "current_version__payload"))
        for item_id in parameters["items"]:
            payload = payloads.get(item_id) or {}
            text = payload.get("prompt", "")
            if payload.get("input"):
                text += "\n\n" + payload["input"]
            messages = [{"role": "system", "content": parameters["system"]}] if parameters.get("system") else []
            messages.append({"role": "user", "content": text})
            yield Unit(key=item_key(item_id), template="preference_response", messages=messages, params=params)

    def lock(self, run: Run, unit_keys: list[str]) -> None:
        ids = sorted(int(k.split("-", 1)[1]) for k in unit_keys if k.startswith("item-"))
        list(Item.objects.filter(pk__in=ids).order_by("pk").select_for_update(of=("self",)).values_list("pk"))

    def on_result(self, run: Run, call: Call) -> Iterable[Unit]:
        model = Endpoint.objects.filter(pk=call.endpoint_id).values_list("model", flat=True).first() or ""
        usage = {
            k: v
            for k, v in (("prompt_tokens", call.prompt_tokens), ("completion_tokens", call.completion_tokens))
            if v is not None
        }
        response = {
            "model": model,
            "text": call.text,
            "source": "run",
            "run_id": run.pk,
            "call_id": call.pk,
            "usage": usage,
            "latency_ms": call.latency_ms,
        }
        if call.text.strip():
            prompt_add_response(
                item_id=int(call.unit_key.split("-", 1)[1]),
                response=response,
                note=f"response of {model} (run {run.pk})",
            )
        return []


def frozen_pairs(project: Any) -> list[dict[str, Any]]:
    rows = report_rows(project=project)
    pairs, _ = all_pairs(prompts_from_rows(rows), rows.settings)
    return [
        {
            "key": f"{p['item_id']}:{p['first']}:{p['second']}",
            "item_id": p["item_id"],
            "category": p["category"],
            "first": p["first"],
            "second": p["second"],
            "chosen": p["chosen"],
        }
        for p in pairs
    ]


class PairJudge(RunKind):
    name = JUDGE
    label = "LLM-as-judge over preference pairs (R3/mR3 prompt, both orders)"
    title = gettext_lazy("LLM judge of preference pairs")

    def clean_parameters(self, parameters: dict[str, Any], *, project: Any) -> dict[str, Any]:
        _project_check(project, "A judge run")
        languages = parameters.get("languages") or ["en"]
        if isinstance(languages, str):
            languages = [x.strip() for x in languages.split(",") if x.strip()]
        if not languages or any(lang not in judge_prompts.LANGUAGES for lang in languages):
            raise InvalidInput("Instruction languages: en and/or id.", field_errors={"languages": ["en, id."]})
        pairs = frozen_pairs(project)
        if parameters.get("limit"):
            pairs = pairs[: _number(parameters, "limit", int, len(pairs), 1, MAX_PAIRS)]
        if not pairs:
            raise InvalidInput("The project has no preference pairs to judge yet.", field_errors={"pairs": ["None."]})
        if len(pairs) > MAX_PAIRS:
            raise InvalidInput(f"At most {MAX_PAIRS} pairs per run.", field_errors={"pairs": ["Too many."]})
        return {
            "pairs": pairs,
            "languages": sorted(set(languages), key=judge_prompts.LANGUAGES.index),
            "max_tokens": _number(parameters, "max_tokens", int, 1024, 1, 32_000),
            "temperature": _number(parameters, "temperature", float, 0.0, 0.0, 2.0),
            "confidence": parameters.get("confidence") in (True, "1", "on", "true"),
        }

    def preflight(self, parameters: dict[str, Any], *, endpoints: Any) -> None:
        if not parameters.get("confidence"):
            return
        without = sorted(e.name for e in endpoints if not e.offers_logprobs)
        if without:
            raise InvalidInput(
                _("The judge's probability needs log-probabilities, which these endpoints do not offer: %(names)s.")
                % {"names": ", ".join(without)},
                field_errors={"confidence": [_("Not offered by every judge.")]},
            )

    def units(self, run: Run) -> Iterable[Unit]:
        parameters = run.parameters
        params = {"max_tokens": parameters["max_tokens"], "temperature": parameters["temperature"]}
        if parameters.get("confidence"):
            params["logprobs"] = TOP_LOGPROBS
        ids = sorted({p["item_id"] for p in parameters["pairs"]})
        payloads = dict(Item.objects.filter(pk__in=ids).values_list("pk", "current_version__payload"))
        for pair in parameters["pairs"]:
            payload = payloads.get(pair["item_id"]) or {}
            texts = {r["id"]: r["text"] for r in payload.get("responses") or []}
            input_text = payload.get("prompt", "") + ("\n\n" + payload["input"] if payload.get("input") else "")
            for order, (one, two) in (("ab", (pair["first"], pair["second"])), ("ba", (pair["second"], pair["first"]))):
                for language in parameters["languages"]:
                    prompt = judge_prompts.render(
                        language, input_text=input_text, response_1=texts.get(one, ""), response_2=texts.get(two, "")
                    )
                    yield Unit(
                        key=f"{pair['key']}|{order}",
                        template=f"judge_{language}",
                        messages=[{"role": "user", "content": prompt}],
                        params=params,
                    )


register(PromptResponses())
register(PairJudge())
