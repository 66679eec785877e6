"""NLI's unit authoring: a premise imported from the premise file, its six hypotheses written on one form,
and a panel showing how the writer's phenomenon tags are spread."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from annotation.task_types.contract.unit_authoring import UnitAuthoring
from annotation.task_types.nli import payload, premises
from annotation.task_types.nli.forms import author_initial, author_payloads
from annotation.task_types.nli.settings import is_expert


class NliUnitAuthoring(UnitAuthoring):
    units_help = _(
        "Premises, as CSV with a header text,source,topic,document_id (premise_id optional) or JSON Lines "
        "with the same keys. source is wiki, news or web; each document gives at most the project's "
        "premises per document, and a premise has at most its word limit. The sentence size is computed."
    )
    units_parse = staticmethod(premises.parse_premises)
    unit_form_initial = staticmethod(author_initial)
    unit_payloads_from_form = staticmethod(author_payloads)
    author_summary_template = "annotation/task_types/nli/author_summary.html"

    def author_summary(self, payloads: list[dict[str, Any]], settings: dict[str, Any]) -> dict[str, Any]:
        return {"expert": is_expert(settings), "hypotheses": len(payloads), "tags": payload.tag_spread(payloads)}
