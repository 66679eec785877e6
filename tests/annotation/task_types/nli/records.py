"""ReportRows and ExportRecords built in memory from the released files, the way the core's engines build
them from the database after an import (premise -> unit with data, hypothesis -> item payload, MNLI
label2..label5 -> judgments of rounds 1, 1, 2, 3, gold from the plugin's own gold_decide)."""

from __future__ import annotations

from annotation.task_types.base import (
    AnnotatorInfo,
    ExportRecord,
    GoldCase,
    GoldInfo,
    ItemRecord,
    JudgmentRecord,
    JudgmentRow,
    ReportRows,
)
from annotation.task_types.nli.files import IndoNliRow, MnliRow, read_diagnostic, read_indonli, read_mnli
from annotation.task_types.nli.judging import gold_decide

MNLI_ROUNDS = (1, 1, 2, 3)  # label2..label5


def item(
    item_id: int,
    *,
    premise: str,
    hypothesis: str,
    label: str,
    premise_id: str = "p1",
    unit_id: int | None = None,
    author_id: int | None = 1,
    author_code: str = "W1",
    status: str = "approved",
    judging_round: int = 0,
    unit_data: dict | None = None,
    payload: dict | None = None,
    seconds: float | None = None,
    slot: int = 0,
) -> ItemRecord:
    return ItemRecord(
        item_id=item_id,
        external_id=str(item_id),
        status=status,
        source="human",
        author_id=author_id,
        author_code=author_code,
        unit_id=unit_id,
        unit_name=premise_id,
        category="wiki",
        unit_data={"text": premise, "source": "wiki", "sentence_size": "single", **(unit_data or {})},
        slot=slot,
        judging_round=judging_round,
        payload={"hypothesis": hypothesis, "label": label, "tags": [], **(payload or {})},
        seconds=seconds,
    )


def decide(record: ItemRecord, judgments: list[JudgmentRecord], settings: dict | None = None) -> GoldInfo:
    rows = tuple(JudgmentRow(j.judgment_id, j.user_id, j.round, j.value, j.flags) for j in judgments)
    outcome = gold_decide(GoldCase(record.payload, rows, settings or {}, record.judging_round))
    return GoldInfo(record.item_id, outcome.outcome, outcome.reason, outcome.details)


def indonli_rows(*paths, seed: int = 13) -> ReportRows:
    items = []
    premise_ids: dict[str, int] = {}
    for path in paths:
        for row in read_indonli(path):
            assert isinstance(row, IndoNliRow)
            unit_id = premise_ids.setdefault(row.premise_id, len(premise_ids) + 1)
            items.append(
                item(
                    int(row.pair_id),
                    premise=row.premise,
                    hypothesis=row.hypothesis,
                    label=row.label,
                    premise_id=row.premise_id,
                    unit_id=unit_id,
                    unit_data={"sentence_size": row.sentence_size},
                    payload={
                        "release": {
                            "label": row.label,
                            "data_split": row.data_split,
                            "annotator_type": row.annotator_type,
                        }
                    },
                )
            )
    items.sort(key=lambda record: record.item_id)
    return ReportRows({"annotator_type": "lay"}, seed, tuple(items), (), {}, ())


def diagnostic_rows(path) -> ReportRows:
    items = []
    for row in read_diagnostic(path):
        assert isinstance(row, IndoNliRow)
        items.append(
            item(
                int(row.pair_id),
                premise=row.premise,
                hypothesis=row.hypothesis,
                label=row.label,
                premise_id=f"d{row.pair_id}",
                payload={"tags": list(row.phenomena), "release": {"label": row.label}},
            )
        )
    return ReportRows({"annotator_type": "expert"}, 13, tuple(items), (), {}, ())


def mnli_rows(path, *, seed: int = 13) -> ReportRows:
    """Each MNLI pair written by W1, its four validators W2..W5 (one per label column)."""
    items, judgments, gold = [], [], {}
    for row in read_mnli(path):
        assert isinstance(row, MnliRow)
        record = item(
            row.line,
            premise=row.premise,
            hypothesis=row.hypothesis,
            label=row.labels[0],
            premise_id=row.prompt_id or str(row.line),
            status="judged",
            judging_round=1,
        )
        own = [
            JudgmentRecord(4 * row.line + k, row.line, k + 2, f"W{k + 2}", number, {"label": label}, {})
            for k, (number, label) in enumerate(zip(MNLI_ROUNDS, row.labels[1:], strict=True))
        ]
        info = decide(record, own)
        record = record._replace(judging_round=info.details["round"])
        items.append(record)
        judgments += own
        gold[record.item_id] = info
    annotators = tuple(AnnotatorInfo(user_id, f"W{user_id}", "") for user_id in range(1, 6))
    return ReportRows({"annotator_type": "lay"}, seed, tuple(items), tuple(judgments), gold, annotators)


def export_records(rows: ReportRows) -> list[ExportRecord]:
    by_item: dict[int, list[JudgmentRecord]] = {}
    for judgment in rows.judgments:
        by_item.setdefault(judgment.item_id, []).append(judgment)
    return [
        ExportRecord(
            record, tuple(by_item.get(record.item_id, ())), rows.gold.get(record.item_id), rows.settings, rows.seed
        )
        for record in rows.items
    ]
