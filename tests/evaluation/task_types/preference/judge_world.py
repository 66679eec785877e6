"""A preference judge run for the calibration tests: four human pairs and two judges over them in both
orders, recorded as a judge run records its calls (no model server: the figures depend only on the
replies and their log-probabilities)."""

from __future__ import annotations

import json
import math

from annotation.models import Item
from annotation.services.imports import items_import
from evaluation.kinds import get_kind
from evaluation.models import Call, Endpoint, Run
from tests.factories import UserFactory

# (id, category, human choice): the people chose response 1 or 2 of each pair.
PAIRS = [("a1", "math", 1), ("a2", "math", 2), ("a3", "safety", 1), ("a4", "safety", 2)]


def calibration_project(slug: str = "cal"):
    """A preference project of the four PAIRS (imported in the indopref layout) and its admin."""
    rows = [
        {
            "id": i,
            "domain": d,
            "language": "id",
            "input": f"Soal {i}",
            "response_1": f"satu {i}",
            "response_2": f"dua {i}",
            "actual_score": f"Response {s}",
        }
        for i, d, s in PAIRS
    ]
    admin = UserFactory()
    data = "".join(json.dumps(r) + "\n" for r in rows).encode()
    items_import(path_or_bytes=data, project_slug=slug, format="indopref", language="id", creator=admin)
    return Item.objects.filter(project__slug=slug).first().project, admin


def verdict_reply(position: int, p_first: float | None) -> tuple[str, list | None]:
    """A verdict naming `position`, with the log-probabilities of its digit (P(1) = p_first) when given."""
    text = json.dumps({"explanation": "x", "score": f"Response {position}"})
    if p_first is None:
        return text, None
    head, tail = text.split(f"Response {position}")
    top = [{"token": "1", "logprob": math.log(p_first)}, {"token": "2", "logprob": math.log(1 - p_first)}]
    chosen = top[position - 1]["logprob"]
    logprobs = [
        {"token": head + "Response ", "logprob": 0.0, "top": []},
        {"token": str(position), "logprob": chosen, "top": top},
        {"token": tail, "logprob": 0.0, "top": []},
    ]
    return text, logprobs


def judge_run(project) -> Run:
    """Two judges over the four pairs in both orders. "fair" names the people's choice except on a4,
    where it names response 1 both times, 0.75 sure each time; "biased" names what is shown first,
    certain of it."""
    fair = Endpoint.objects.create(name="fair", base_url="http://127.0.0.1:9/v1", model="m1", offers_logprobs=True)
    biased = Endpoint.objects.create(name="biased", base_url="http://127.0.0.1:9/v1", model="m2", offers_logprobs=True)
    parameters = get_kind("preference_judge").clean_parameters({"confidence": True}, project=project)
    run = Run.objects.create(kind="preference_judge", project=project, parameters=parameters)
    run.endpoints.set([fair, biased])
    for pair in parameters["pairs"]:
        prompt = Item.objects.get(pk=pair["item_id"]).current_version.payload["prompt"]
        for order in ("ab", "ba"):
            # the pair's first (1) or second (2) response
            wanted = 1 if prompt == "Soal a4" or pair["chosen"] == pair["first"] else 2
            fair_position = wanted if order == "ab" else 3 - wanted
            for endpoint, position, p_first in (
                (fair, fair_position, 0.75 if fair_position == 1 else 0.25),
                (biased, 1, 1.0 - 1e-12),
            ):
                text, logprobs = verdict_reply(position, p_first)
                Call.objects.create(
                    run=run,
                    endpoint=endpoint,
                    unit_key=f"{pair['key']}|{order}",
                    template="judge_en",
                    status="done",
                    text=text,
                    logprobs=logprobs,
                )
    return run
