"""The export part of the task-type contract: the rows, splits, schema and data card of a gold-set release."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from annotation.task_types.contract.marks import required
from annotation.task_types.records import DataCardStats, ExportRecord

if TYPE_CHECKING:
    import pyarrow as pa


class ExportHooks:
    """Export: one row per exported item (`ExportRecord` -> a dict with exactly `export_fields`), the split
    it goes to, the Parquet schema and the data card's text.

    A task type must give: `export_row`, `export_split`, `parquet_schema`, `datacard_text` (and name its
    `export_fields`). The JSON-lines fast path and the card's own figures are optional.
    """

    export_fields: ClassVar[tuple[str, ...]] = ()

    @required
    def export_row(self, record: ExportRecord) -> dict[str, Any]:
        raise NotImplementedError

    @required
    def export_split(self, record: ExportRecord) -> str:
        raise NotImplementedError

    @required
    def parquet_schema(self) -> pa.Schema:
        raise NotImplementedError

    @required
    def datacard_text(self, stats: DataCardStats) -> str:
        """The data card's body (Markdown) after its title, from DataCardStats; the core writes the YAML
        header (with `datacard_task_categories`), the title "# <project>: gold set" and a closing
        "## Licence" section. End the text with an empty line."""
        raise NotImplementedError

    # Hugging Face task_categories in the card's header.
    datacard_task_categories: ClassVar[tuple[str, ...]] = ()
    # Read the items' gold decisions into ExportRecord.gold (False: gold is None; a row that never looks at
    # the decision saves a join and 100,000 objects per export).
    export_reads_gold: ClassVar[bool] = True

    def export_jsonl(self, record: ExportRecord) -> str | None:
        """Optional fast path: the row as one JSON line, equal to json.dumps(export_row(record),
        ensure_ascii=False); None lets the core encode export_row."""
        return None

    def export_stats(self) -> Any:
        """Optional accumulator with `add(record)`, called for every exported record; handed to
        datacard_text as DataCardStats.task. None: the card needs no figures of the task type's own."""
        return None
