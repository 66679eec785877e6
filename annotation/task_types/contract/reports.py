"""The reports part of the task-type contract: the task type's own sections of the project report."""

from __future__ import annotations

from typing import Any, ClassVar

from annotation.task_types.contract.marks import required, required_with
from annotation.task_types.records import ReportColumns, ReportRows


class ReportHooks:
    """Reports: the task type's sections of the project report, computed from the core's plain rows
    (`ReportRows`) or, on the fast path, from numpy columns (`ReportColumns`), and the template showing them.

    A task type must give: `report_sections`; and `report_sections_from_columns` once it sets
    `report_columns`.
    """

    # Template (under templates/) the core's report page includes for this task type's sections.
    report_template: ClassVar[str] = ""
    # The key of the sections in the report object (`report --json`, API); "" : the task type's name.
    report_section: ClassVar[str] = ""
    # Also read the items QC has not approved (ReportRows.unapproved): off by default, it costs a wider read.
    report_reads_unapproved: ClassVar[bool] = False

    @required
    def report_sections(self, rows: ReportRows) -> dict[str, Any]:
        """The task type's report, computed from the core's plain rows (qc.reports), JSON-serialisable."""
        raise NotImplementedError

    # Optional columnar path: a task type that sets `report_columns` (and has an `agreement_key`) gets
    # its report from `report_sections_from_columns(ReportColumns)` on PostgreSQL, read in two grouped
    # queries instead of 600,000 Python records; it must return exactly what report_sections returns
    # for the same project. Elsewhere (SQLite), and for task types that read unapproved items, the
    # core keeps the rows.
    report_columns: ClassVar[bool] = False

    @required_with("report_columns")
    def report_sections_from_columns(self, columns: ReportColumns) -> dict[str, Any]:
        raise NotImplementedError
