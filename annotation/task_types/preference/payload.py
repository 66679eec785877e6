"""One prompt (a preference item) with its responses, as pure functions.

Canonical payload:
    {"prompt": str, "input": str,
     "responses": [{"id": "r1", "model": str, "text": str, "source": "import" | "run" | "author",
                    "run_id": int | None, "usage": {...}, "latency_ms": float | None}, ...],
     "human_pairs": [{"id": str, "chosen": "r1", "rejected": "r2"}, ...]}

The category is the item's unit (Category of its Concept), editable per project. Responses live in the
payload, not in a table of their own: they are what a rater judges, so an item version fixes exactly which
responses were there (a response run adds them as a new version), and every report, export and judge run
reads one row per prompt. Response ids are stable ("r1", "r2", ... in the order they arrived) so ratings
keep pointing at the same text across versions. `human_pairs` holds preferences given by a file (the
released IndoPref pairs), kept apart from the pairs derived from ratings.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from annotation import limits
from annotation.errors import InvalidInput
from annotation.task_types.base import FieldChange, PayloadCheck

PROMPT = 20_000
INPUT = 100_000
RESPONSE = 100_000
MODEL = 200
MAX_RESPONSES = 20
SOURCES = ("author", "import", "run")


def _text(value: Any) -> str | None:
    if value is None:
        return ""
    if isinstance(value, str | int | float) and not isinstance(value, bool):
        return str(value).strip()
    return None


def _response(raw: Any, index: int, errors: dict[str, list[str]]) -> dict[str, Any] | None:
    if not isinstance(raw, dict):
        errors.setdefault("responses", []).append(
            gettext("Response %(index___1)s must be an object.") % {"index___1": index + 1}
        )
        return None
    text, model = _text(raw.get("text")), _text(raw.get("model"))
    if text is None or model is None:
        errors.setdefault("responses", []).append(
            gettext("Response %(index___1)s: text and model must be text.") % {"index___1": index + 1}
        )
        return None
    response: dict[str, Any] = {
        "id": _text(raw.get("id")) or f"r{index + 1}",
        "model": model,
        "text": text,
        "source": raw.get("source") if raw.get("source") in SOURCES else "import",
    }
    for key in ("run_id", "call_id"):
        if isinstance(raw.get(key), int) and not isinstance(raw.get(key), bool):
            response[key] = raw[key]
    if isinstance(raw.get("usage"), dict):
        response["usage"] = {k: v for k, v in raw["usage"].items() if isinstance(v, int) and not isinstance(v, bool)}
    if isinstance(raw.get("latency_ms"), int | float) and not isinstance(raw.get("latency_ms"), bool):
        response["latency_ms"] = float(raw["latency_ms"])
    return response


def normalize(data: dict[str, Any]) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise InvalidInput(
            gettext("A prompt must be an object."), field_errors={"prompt": [gettext("Give an object.")]}
        )
    errors: dict[str, list[str]] = {}
    prompt, input_text = _text(data.get("prompt")), _text(data.get("input"))
    if prompt is None:
        errors["prompt"] = [limits.NOT_TEXT]
    if input_text is None:
        errors["input"] = [limits.NOT_TEXT]
    raw_responses = data.get("responses") or []
    responses: list[dict[str, Any]] = []
    if not isinstance(raw_responses, list):
        errors["responses"] = [gettext("Give a list of responses.")]
    else:
        for index, raw in enumerate(raw_responses):
            response = _response(raw, index, errors)
            if response is not None:
                responses.append(response)
    pairs = []
    for raw in data.get("human_pairs") or []:
        if isinstance(raw, dict) and raw.get("chosen") and raw.get("rejected"):
            pair = {"id": str(raw.get("id") or ""), "chosen": str(raw["chosen"]), "rejected": str(raw["rejected"])}
            if raw.get("first") and raw.get("second"):
                pair["first"], pair["second"] = str(raw["first"]), str(raw["second"])
            pairs.append(pair)
    if errors:
        raise InvalidInput(gettext("The prompt can't be read."), field_errors=errors)
    payload: dict[str, Any] = {"prompt": prompt, "input": input_text, "responses": responses}
    language = _text(data.get("language"))
    if language:
        payload["language"] = language[:35]
    if pairs:
        payload["human_pairs"] = pairs
    return payload


def check(payload: dict[str, Any]) -> PayloadCheck:
    errors: dict[str, list[str]] = {}
    prompt = payload.get("prompt") or ""
    if not prompt:
        errors["prompt"] = [gettext("Write the prompt.")]
    for name, value, limit in (("prompt", prompt, PROMPT), ("input", payload.get("input") or "", INPUT)):
        problem = limits.text_problem(value, max_length=limit)
        if problem:
            errors.setdefault(name, []).append(problem)
    responses = payload.get("responses") or []
    if len(responses) > MAX_RESPONSES:
        errors.setdefault("responses", []).append(
            gettext("At most %(MAX_RESPONSES)s responses per prompt.") % {"MAX_RESPONSES": MAX_RESPONSES}
        )
    ids = [r["id"] for r in responses]
    if len(set(ids)) != len(ids):
        errors.setdefault("responses", []).append(gettext("Two responses have the same id."))
    for response in responses:
        if not response["text"]:
            errors.setdefault("responses", []).append(
                gettext("Response %(response)s is empty.") % {"response": response["id"]}
            )
        for value, limit in ((response["text"], RESPONSE), (response["model"], MODEL)):
            problem = limits.text_problem(value, max_length=limit)
            if problem:
                errors.setdefault("responses", []).append(
                    gettext("Response %(response)s: %(problem)s") % {"response": response["id"], "problem": problem}
                )
    known = set(ids)
    for pair in payload.get("human_pairs") or []:
        if pair["chosen"] not in known or pair["rejected"] not in known or pair["chosen"] == pair["rejected"]:
            errors.setdefault("human_pairs", []).append(
                gettext("Pair %(pair)s names unknown responses.") % {"pair": pair["id"] or "?"}
            )
    return PayloadCheck(errors=errors)


def diff(old: dict[str, Any] | None, new: dict[str, Any]) -> list[FieldChange]:
    old = old or {}
    changes = [
        FieldChange(name, str(old.get(name) or ""), str(new.get(name) or ""))
        for name in ("prompt", "input")
        if (old.get(name) or "") != (new.get(name) or "")
    ]
    if any("id" not in r for r in [*(old.get("responses") or []), *(new.get("responses") or [])]):
        # Anonymised payloads (payload_as_seen): no ids to pair responses by, and positions reshuffle from
        # one version to the next, so only the texts are compared.
        texts_before = sorted(r["text"] for r in old.get("responses") or [])
        texts_after = sorted(r["text"] for r in new.get("responses") or [])
        if texts_before != texts_after:
            changes.append(FieldChange("responses", "\n\n".join(texts_before), "\n\n".join(texts_after)))
        return changes
    before = {r["id"]: r for r in old.get("responses") or []}
    for response in new.get("responses") or []:
        previous = before.pop(response["id"], None)
        if previous is None or previous.get("text") != response["text"] or previous.get("model") != response["model"]:
            changes.append(
                FieldChange(
                    f"response {response['id']}",
                    "" if previous is None else f"{previous.get('model')}: {previous.get('text')}",
                    f"{response['model']}: {response['text']}",
                )
            )
    for rid, previous in before.items():
        changes.append(FieldChange(f"response {rid}", f"{previous.get('model')}: {previous.get('text')}", ""))
    return changes


def summary(payload: dict[str, Any]) -> str:
    prompt = payload.get("prompt") or ""
    short = prompt if len(prompt) <= 80 else prompt[:79] + "…"
    n = len(payload.get("responses") or [])
    return f"{short} ({n} response{'s' if n != 1 else ''})"


def best_choices(payload: dict[str, Any]) -> tuple[str, ...]:
    """The response ids a rater may pick as the best: what a known-answer check of the prompt may expect.
    () with fewer than two responses, where a pick can't be wrong and measures nothing."""
    ids = tuple(str(r["id"]) for r in payload.get("responses") or [] if isinstance(r, dict) and r.get("id"))
    return ids if len(ids) >= 2 else ()


def with_response(payload: dict[str, Any], response: dict[str, Any]) -> dict[str, Any] | None:
    """The payload with one more response (id r<n+1>), or None when that model's response for this run is
    already there (a response run recorded twice adds it once)."""
    responses = list(payload.get("responses") or [])
    for existing in responses:
        if response.get("call_id") is not None and existing.get("call_id") == response.get("call_id"):
            return None
    taken = {r["id"] for r in responses}
    n = len(responses) + 1
    while f"r{n}" in taken:
        n += 1
    responses.append({**response, "id": f"r{n}"})
    return {**payload, "responses": responses}
