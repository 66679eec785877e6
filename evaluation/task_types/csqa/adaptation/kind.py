"""The `llm_adapt` run kind: English CommonsenseQA adapted to a location, step by step, into QC.

Per English question (an AdaptationState row keeps every step's output):
  1. relevance   five yes/no prompts, majority vote (adaptation/relevance.py); a question
                 naming people or places is irrelevant at once, without calls
  2. relevant    -> `to_language`: translated as it is into the target language
     irrelevant  -> `adapt_all` (concept, question and options made local), then `adapt_name` when it
                 names people
  3. optional, when `second_language` is set: `translate` into it, `back_translate` into the target
     language, compared with the adapted text: cosine of the endpoint's embeddings (an `embed` call)
     when it offers them, chrF otherwise; kept only at or above `threshold` (score and method stored)
Kept items enter QC as submitted items with source llm_adapt; the others are FilteredDraft rows with
the step's reason. Each step is a follow-up Unit of the same run, on the same endpoint.

The state row is locked while a reply is recorded: the five relevance replies arrive on parallel
workers, and exactly one of them must see all five and start step 2. A batch of replies locks all
its questions' rows first, in id order (`lock`), so two workers never lock them in opposite orders.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from django.utils.translation import gettext, gettext_lazy

from annotation.errors import InvalidInput
from annotation.models import Item
from annotation.services.item_language import first_language
from annotation.task_types.csqa import payload as csqa_payload
from annotation.task_types.csqa.morphology import mentions_concept
from evaluation.calls import calls_add
from evaluation.kinds import RunKind, Unit, register
from evaluation.models import AdaptationState, Call, Endpoint, Run
from evaluation.services.drafts import draft_create, filtered_record
from evaluation.task_types.csqa.adaptation import adapt, backtranslation, relevance
from evaluation.task_types.csqa.adaptation.commonsenseqa import parse_line
from evaluation.task_types.csqa.generation.pipeline import question_key

NAME = "llm_adapt"
MAX_QUESTIONS = 5000
RELEVANCE_PROMPTS = 5
STEP_PARAMS = {"max_tokens": 1000, "temperature": 0.0}
VOTE_PARAMS = {"max_tokens": 10, "temperature": 0.0}

# Reasons an adaptation is not kept (besides adapt.py's unreadable / invalid / concept_missing).
BELOW_THRESHOLD = "below_threshold"
DUPLICATE_IN_RUN = "duplicate_in_run"
_OPTION_LABEL = re.compile(r"^\s*\(?[A-Ea-e]\s*[.):]\s+")


def _key(source_id: str, step: str) -> str:
    return f"adapt:{source_id}:{step}"


def _parse_key(key: str) -> tuple[str, str]:
    _, rest = key.split(":", 1)
    source_id, step = rest.rsplit(":", 1)
    return source_id, step


def payload_from_lines(text: str, answer: str) -> dict[str, Any] | None:
    """A translated item (question, then one option per line, as backtranslation.item_text writes it)."""
    lines = [_OPTION_LABEL.sub("", line).strip() for line in (text or "").splitlines() if line.strip()]
    if len(lines) != 6:
        return None
    return {"question": lines[0], "choices": lines[1:], "answer": answer}


class Adaptation(RunKind):
    name = NAME
    label = "Adaptation of English CommonsenseQA (LLM_ADAPT)"
    title = gettext_lazy("Adapted questions")

    def clean_parameters(self, parameters: dict[str, Any], *, project: Any) -> dict[str, Any]:
        if project is None or project.task_type != "csqa":
            raise InvalidInput("Adaptation needs a commonsense QA (csqa) project.", field_errors={"project": ["csqa."]})
        questions = parameters.get("questions")
        if not isinstance(questions, list) or not questions:
            raise InvalidInput(
                gettext("Import at least one CommonsenseQA question."), field_errors={"file": [gettext("Required.")]}
            )
        if len(questions) > MAX_QUESTIONS:
            raise InvalidInput(
                gettext("At most %(n)s questions per run.") % {"n": MAX_QUESTIONS},
                field_errors={"file": [gettext("Too many.")]},
            )
        cleaned, seen = [], set()
        for number, raw in enumerate(questions, start=1):
            if isinstance(raw, dict) and isinstance(raw.get("choices"), list | tuple):  # already parsed
                raw = {
                    **raw,
                    "question_concept": raw.get("concept"),
                    "answerKey": raw.get("answer"),
                    "choices": {"label": list(adapt.LABELS), "text": list(raw["choices"])},
                }
            parsed, problem = parse_line(raw)
            if problem:
                raise InvalidInput(f"Question {number}: {problem}.", field_errors={"file": [problem]})
            if parsed["id"] in seen or len(parsed["id"]) > 150 or ":" in parsed["id"]:
                raise InvalidInput(
                    f"Question {number}: its id is repeated, too long or has a colon.",
                    field_errors={"file": ["Bad id."]},
                )
            seen.add(parsed["id"])
            cleaned.append({**parsed, "choices": list(parsed["choices"])})
        threshold = parameters.get("threshold", backtranslation.DEFAULT_THRESHOLD)
        try:
            threshold = float(threshold if threshold not in (None, "") else backtranslation.DEFAULT_THRESHOLD)
        except (TypeError, ValueError):
            raise InvalidInput(
                gettext("The threshold is a number."), field_errors={"threshold": [gettext("Not a number.")]}
            ) from None
        if not 0 <= threshold <= 1:
            raise InvalidInput(
                gettext("The threshold is between 0 and 1."), field_errors={"threshold": [gettext("Out of range.")]}
            )

        def text(name: str, default: str) -> str:
            return (str(parameters.get(name) or default)).strip()[:100]

        return {
            "questions": cleaned,
            "location": text("location", adapt.DEFAULT_LOCATION),
            "language": text("language", adapt.DEFAULT_LANGUAGE),
            "second_language": text("second_language", ""),
            "threshold": threshold,
        }

    # --- planning ---------------------------------------------------------------------------------

    def units(self, run: Run) -> Iterable[Unit]:
        parameters = run.parameters
        endpoint_ids = (run.endpoints.order_by("pk").values_list("pk", flat=True).first(),)
        states = []
        units: list[Unit] = []
        for q in parameters["questions"]:
            by_names = relevance.irrelevant_by_names(q["question"])
            state = AdaptationState(run=run, source_id=q["id"], source=q)
            if by_names is not None:
                state.relevant = False
                state.relevance_reason = by_names.reason
                state.steps = {"relevance": {"reason": by_names.reason, "names": list(by_names.names)}}
                units.append(self._adapt_all(run, state, endpoint_ids))
            else:
                verb = relevance.is_verb(q["concept"])
                for index, messages in enumerate(
                    relevance.messages(
                        question=q["question"], concept=q["concept"], location=parameters["location"], verb=verb
                    )
                ):
                    units.append(
                        Unit(
                            key=_key(q["id"], f"rel{index + 1}"),
                            template="relevance",
                            messages=messages,
                            params=VOTE_PARAMS,
                            endpoint_ids=endpoint_ids,
                        )
                    )
            states.append(state)
        AdaptationState.objects.bulk_create(states, ignore_conflicts=True)
        return units

    def _unit(self, state: AdaptationState, step: str, prompt: str, endpoint_ids: tuple) -> Unit:
        return Unit(
            key=_key(state.source_id, step),
            template=step,
            messages=adapt.as_messages(prompt),
            params=STEP_PARAMS,
            endpoint_ids=endpoint_ids,
        )

    def _adapt_all(self, run: Run, state: AdaptationState, endpoint_ids: tuple) -> Unit:
        q = state.source
        prompt = adapt.adapt_all_prompt(
            question=q["question"],
            concept=q["concept"],
            choices=q["choices"],
            answer=q["answer"],
            location=run.parameters["location"],
            language=run.parameters["language"],
        )
        return self._unit(state, "adapt_all", prompt, endpoint_ids)

    # --- replies ----------------------------------------------------------------------------------

    def lock(self, run: Run, unit_keys: list[str]) -> None:
        # All the batch's questions at once, by id: two workers recording votes of the same questions
        # in different orders would otherwise each hold a row the other waits for.
        source_ids = {_parse_key(key)[0] for key in unit_keys if key.startswith("adapt:")}
        if source_ids:
            list(
                AdaptationState.objects.select_for_update()
                .filter(run=run, source_id__in=source_ids)
                .order_by("pk")
                .values_list("pk", flat=True)
            )

    def on_result(self, run: Run, call: Call) -> Iterable[Unit]:
        source_id, step = _parse_key(call.unit_key)
        state = AdaptationState.objects.select_for_update().get(run=run, source_id=source_id)
        if state.status != AdaptationState.Status.PENDING:
            return []
        endpoint_ids = (call.endpoint_id,)
        handler = getattr(self, f"_on_{'relevance' if step.startswith('rel') else step}")
        follow_ups = handler(run, call, state, step, endpoint_ids)
        state.save(update_fields=["votes", "relevant", "relevance_reason", "steps", "status", "reason"])
        return follow_ups

    def on_failed(self, run: Run, call: Call) -> None:
        source_id, step = _parse_key(call.unit_key)
        state = AdaptationState.objects.select_for_update().get(run=run, source_id=source_id)
        if state.status != AdaptationState.Status.PENDING:
            return
        if step.startswith("rel"):
            # A failed vote counts as "not yes"; when it is the last of the five, step 2 starts here
            # (the engine takes follow-ups only from on_result, so they are added directly).
            follow_ups = self._on_relevance(run, call, state, step, (call.endpoint_id,))
            state.save(update_fields=["votes", "relevant", "relevance_reason", "steps"])
            if follow_ups:
                Run.objects.filter(pk=run.pk).update(total=calls_add(run=run, units=follow_ups))
            return
        self._filter(run, call, state, "call_failed", f"The {step} call failed: {call.error_kind}.")
        state.save(update_fields=["status", "reason"])

    def _filter(self, run: Run, call: Call | None, state: AdaptationState, reason: str, detail: str) -> None:
        state.status = AdaptationState.Status.FILTERED
        state.reason = reason
        filtered_record(
            run=run,
            call=call,
            reason=reason,
            detail=detail,
            concept_name=state.source["concept"],
            record={"id": state.source_id, "steps": state.steps},
        )

    def _on_relevance(self, run, call, state, step, endpoint_ids) -> list[Unit]:
        state.votes = {**state.votes, step[3:]: relevance.parse_yes_no(call.text)}
        replies = state.steps.get("relevance", {})
        state.steps = {**state.steps, "relevance": {**replies, step: call.text}}
        # Decide when the row (locked) holds all five votes. Not by counting finished vote calls: a
        # batch writes all its calls as done before their replies are handled, so the first vote of a
        # batch holding all five would see five finished calls and decide on one vote.
        if state.relevant is not None or len(state.votes) < RELEVANCE_PROMPTS:
            return []
        votes = [state.votes.get(str(i)) for i in range(1, RELEVANCE_PROMPTS + 1)]
        decided = relevance.decide(votes)
        state.relevant = decided.relevant
        state.relevance_reason = decided.reason
        if decided.relevant:
            q = state.source
            text = backtranslation.item_text({"question": q["question"], "choices": q["choices"]})
            prompt = backtranslation.translate_prompt(
                text=text, source_language="English", target_language=run.parameters["language"]
            )
            return [self._unit(state, "to_language", prompt, endpoint_ids)]
        return [self._adapt_all(run, state, endpoint_ids)]

    def _on_to_language(self, run, call, state, step, endpoint_ids) -> list[Unit]:
        payload = payload_from_lines(call.text, state.source["answer"])
        state.steps = {**state.steps, "to_language": {"reply": call.text, "payload": payload}}
        return self._adapted(run, call, state, payload, state.source["concept"], endpoint_ids, check_concept=False)

    def _on_adapt_all(self, run, call, state, step, endpoint_ids) -> list[Unit]:
        adapted = adapt.parse_adapt_all(call.text)
        state.steps = {
            **state.steps,
            "adapt_all": {"reply": call.text, "payload": adapted.payload, "concept": adapted.concept},
        }
        if not adapted.ok:
            self._filter(run, call, state, adapted.reason, adapted.detail)
            return []
        if state.steps.get("relevance", {}).get("names"):
            prompt = adapt.adapt_name_prompt(question=adapted.payload["question"], language=run.parameters["language"])
            return [self._unit(state, "adapt_name", prompt, endpoint_ids)]
        return self._adapted(run, call, state, adapted.payload, adapted.concept, endpoint_ids)

    def _on_adapt_name(self, run, call, state, step, endpoint_ids) -> list[Unit]:
        before = state.steps["adapt_all"]
        changed = adapt.parse_adapt_name(call.text)
        state.steps = {**state.steps, "adapt_name": {"reply": call.text, "question": changed}}
        payload = dict(before["payload"])
        if changed:
            payload["question"] = changed
        return self._adapted(run, call, state, payload, before["concept"], endpoint_ids)

    def _adapted(self, run, call, state, payload, concept, endpoint_ids, *, check_concept=True) -> list[Unit]:
        """Step 2's result: validated, then kept or sent on to the translation check."""
        if payload is None:
            self._filter(run, call, state, adapt.UNREADABLE, "The reply is not a question with five options.")
            return []
        try:
            payload = csqa_payload.normalize(payload)
        except InvalidInput as error:
            self._filter(run, call, state, adapt.INVALID, error.message)
            return []
        errors = csqa_payload.check(payload, concept=None).errors
        if errors:
            self._filter(run, call, state, adapt.INVALID, " ".join(m for ms in errors.values() for m in ms))
            return []
        if check_concept and not mentions_concept(payload["question"], concept):
            self._filter(run, call, state, adapt.CONCEPT_MISSING, f"The question does not contain “{concept}”.")
            return []
        state.steps = {**state.steps, "adapted": {"payload": payload, "concept": concept}}
        second = run.parameters.get("second_language")
        if not second:
            self._keep(run, call, state, payload, concept, None)
            return []
        prompt = backtranslation.translate_prompt(
            text=backtranslation.item_text(payload), source_language=run.parameters["language"], target_language=second
        )
        return [self._unit(state, "translate", prompt, endpoint_ids)]

    def _on_translate(self, run, call, state, step, endpoint_ids) -> list[Unit]:
        adapted = state.steps["adapted"]["payload"]
        translated = payload_from_lines(call.text, adapted["answer"])
        state.steps = {**state.steps, "translate": {"reply": call.text, "payload": translated}}
        if translated is None:
            self._filter(run, call, state, adapt.UNREADABLE, "The translation is not a question with five options.")
            return []
        prompt = backtranslation.translate_prompt(
            text=call.text.strip(),
            source_language=run.parameters["second_language"],
            target_language=run.parameters["language"],
        )
        return [self._unit(state, "back_translate", prompt, endpoint_ids)]

    def _on_back_translate(self, run, call, state, step, endpoint_ids) -> list[Unit]:
        state.steps = {**state.steps, "back_translate": {"reply": call.text}}
        original = backtranslation.item_text(state.steps["adapted"]["payload"])
        if Endpoint.objects.filter(pk=call.endpoint_id, offers_embeddings=True).exists():
            return [
                Unit(
                    key=_key(state.source_id, "embed"),
                    template="embed",
                    operation="embed",
                    inputs=[original, call.text.strip()],
                    endpoint_ids=endpoint_ids,
                )
            ]
        result = backtranslation.check(
            original=original, back_translated=call.text.strip(), threshold=run.parameters["threshold"]
        )
        self._checked(run, call, state, result)
        return []

    def _on_embed(self, run, call, state, step, endpoint_ids) -> list[Unit]:
        vectors = (call.response or {}).get("vectors") or []
        original = backtranslation.item_text(state.steps["adapted"]["payload"])
        back = state.steps["back_translate"]["reply"].strip()
        embeddings = (vectors[0], vectors[1]) if len(vectors) == 2 else None
        result = backtranslation.check(
            original=original, back_translated=back, embeddings=embeddings, threshold=run.parameters["threshold"]
        )
        self._checked(run, call, state, result)
        return []

    def _checked(self, run, call, state, result: backtranslation.BackTranslationCheck) -> None:
        state.steps = {
            **state.steps,
            "check": {"method": result.method, "score": result.score, "threshold": result.threshold},
        }
        if not result.passed:
            self._filter(
                run,
                call,
                state,
                BELOW_THRESHOLD,
                f"Back-translation {result.method} {result.score} is below {result.threshold}.",
            )
            return
        self._keep(
            run,
            call,
            state,
            state.steps["translate"]["payload"],
            state.steps["adapted"]["concept"],
            (result.method, result.score),
        )

    def _keep(self, run, call, state, payload, concept, check) -> None:
        payload = csqa_payload.normalize(payload)
        item = draft_create(
            run=run,
            call=call,
            payload=payload,
            source=Item.Source.LLM_ADAPT,
            language=first_language(run.project),
            model=Endpoint.objects.filter(pk=call.endpoint_id).values_list("model", flat=True).first() or "",
            concept_name=concept or "",
            steps={"source": state.source, **state.steps},
            dedup_key=question_key(payload["question"]),
            backtranslation=check,
        )
        if item is None:
            self._filter(run, call, state, DUPLICATE_IN_RUN, "The same question was adapted earlier in this run.")
            return
        state.status = AdaptationState.Status.KEPT
        state.reason = ""


register(Adaptation())
