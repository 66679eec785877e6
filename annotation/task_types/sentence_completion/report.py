"""The completion report (ArabCulture): per country, region, topic and annotator, items written,
rejected at stage 1 (national review), discarded at stage 2 (peer verification) and kept; the
country-specific share of the kept items. Pure: computed from the core's ReportRows.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from annotation.task_types.base import ItemRecord, ReportRows
from annotation.task_types.sentence_completion.places import COUNTRIES, REGIONS

STAGES = ("written", "rejected", "discarded", "kept", "pending")


def _stage(item: ItemRecord, gold: dict[int, Any]) -> str:
    if item.status == "rejected":
        return "rejected"
    decision = gold.get(item.item_id)
    if item.status == "excluded" or (decision is not None and decision.outcome == "excluded"):
        return "discarded"
    if item.status == "gold" or (decision is not None and decision.outcome == "gold"):
        return "kept"
    return "pending"  # in review (submitted, sent back) or approved and waiting for the peer


def _counts() -> dict[str, int]:
    return dict.fromkeys(STAGES, 0)


def _ordered(table: dict[str, dict[str, int]], order: tuple[str, ...]) -> dict[str, dict[str, int]]:
    known = [k for k in order if k in table]
    return {k: table[k] for k in [*known, *sorted(set(table) - set(known))]}


def report_sections(rows: ReportRows) -> dict[str, Any]:
    items = [*rows.items, *getattr(rows, "unapproved", ())]
    items.sort(key=lambda i: i.item_id)
    by: dict[str, dict[str, dict[str, int]]] = {
        k: defaultdict(_counts) for k in ("country", "region", "topic", "annotator")
    }
    totals = _counts()
    specific = shared = unknown = 0
    peer_answers: dict[int, int] = defaultdict(int)
    for judgment in rows.judgments:
        peer_answers[judgment.item_id] += 1
    for item in items:
        stage = _stage(item, rows.gold)
        payload = item.payload
        keys = {
            "country": payload.get("country") or "unknown",
            "region": payload.get("region") or "unknown",
            "topic": item.category or "unknown",
            "annotator": item.author_code or "unknown",
        }
        totals["written"] += 1
        totals[stage] += 1
        for name, key in keys.items():
            by[name][key]["written"] += 1
            by[name][key][stage] += 1
        if stage == "kept":
            flag = payload.get("relevant_to_other_countries")
            if flag is False:
                specific += 1
            elif flag is True:
                shared += 1
            else:
                unknown += 1
    kept = totals["kept"]
    return {
        "items": totals["written"],
        "written": totals["written"],
        "rejected": totals["rejected"],
        "discarded": totals["discarded"],
        "kept": kept,
        "pending": totals["pending"],
        "peer_answers": sum(peer_answers.values()),
        "by_country": _ordered(dict(by["country"]), COUNTRIES),
        "by_region": _ordered(dict(by["region"]), tuple(REGIONS)),
        "by_topic": _ordered(dict(by["topic"]), ()),
        "by_annotator": _ordered(dict(by["annotator"]), tuple(a.code for a in rows.annotators)),
        "country_specific": {
            "kept": kept,
            "country_specific": specific,
            "shared": shared,
            "unknown": unknown,
            "share": round(specific / kept, 4) if kept else None,
        },
    }
