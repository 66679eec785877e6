"""A project's own benchmark prompt templates: saved as PromptTemplate rows named "benchmark:<name>",
offered beside the task type's built-in ones on the start form and by `benchmark run --template`.

A template is checked when it is saved, not when a run starts: its placeholders must be fields the task
type's benchmark offers (BenchmarkSpec.fields), so it renders through the sandbox
(evaluation/templating.py) and sees only the item's fields. A run copies the texts it uses
(`template_texts`), so editing or deleting a template never changes a run that used it.
"""

from __future__ import annotations

import re

from django.db import transaction
from django.utils.translation import gettext

from annotation.errors import InvalidInput
from annotation.models import Project
from annotation.task_types import get_task_type
from annotation.task_types.base import BenchmarkSpec
from evaluation.models import PromptTemplate
from evaluation.templating import validate_template

CUSTOM_PREFIX = "benchmark:"
NAME = re.compile(r"^[a-z0-9][a-z0-9_-]*$")
NAME_MAX = PromptTemplate._meta.get_field("name").max_length - len(CUSTOM_PREFIX)
# Every saved template is rendered on each view of the templates page: a bound keeps that page's cost fixed.
MAX_TEMPLATES = 200


def _spec(project: Project) -> BenchmarkSpec:
    spec = get_task_type(project.task_type).benchmark()
    if spec is None:
        raise InvalidInput(
            gettext("This project's task type has no benchmark."), field_errors={"project": [gettext("No benchmark.")]}
        )
    return spec


def benchmark_templates(*, project: Project) -> list[PromptTemplate]:
    """The project's own templates by name; `short_name` is the name a run and the CLI use."""
    templates = list(
        PromptTemplate.objects.filter(project=project, name__startswith=CUSTOM_PREFIX)
        .select_related("updated_by")
        .order_by("name")
    )
    for template in templates:
        template.short_name = template.name.removeprefix(CUSTOM_PREFIX)
    return templates


def _clean_name(name: str, spec: BenchmarkSpec) -> str:
    name = name.strip()
    if not NAME.fullmatch(name) or len(name) > NAME_MAX:
        raise InvalidInput(
            gettext("Name the template with lower-case letters, digits, - and _ (at most %(n)s characters).")
            % {"n": NAME_MAX},
            field_errors={"name": [gettext("Not a valid name.")]},
        )
    if name in {t.name for t in spec.templates}:
        raise InvalidInput(
            gettext("“%(name)s” is a built-in template of this task type; choose another name.") % {"name": name},
            field_errors={"name": [gettext("Built-in name.")]},
        )
    return name


@transaction.atomic
def benchmark_template_save(*, project: Project, name: str, text: str, user) -> PromptTemplate:
    """Create the template, or replace the text of the project's template of that name."""
    spec = _spec(project)
    name = _clean_name(name, spec)
    if not text.strip():
        raise InvalidInput(gettext("Write the template's text."), field_errors={"template": [gettext("Required.")]})
    validate_template(text, allowed=spec.fields)
    # The project's row serialises saves, so two at once cannot both take the last place under the cap.
    Project.objects.select_for_update().filter(pk=project.pk).first()
    saved = PromptTemplate.objects.filter(project=project, name__startswith=CUSTOM_PREFIX)
    if saved.count() >= MAX_TEMPLATES and not saved.filter(name=CUSTOM_PREFIX + name).exists():
        raise InvalidInput(
            gettext("A project keeps at most %(n)s benchmark templates; delete one to add another.")
            % {"n": MAX_TEMPLATES},
            field_errors={"name": [gettext("Too many templates.")]},
        )
    template, _ = PromptTemplate.objects.update_or_create(
        project=project, name=CUSTOM_PREFIX + name, defaults={"text": text, "updated_by": user}
    )
    return template


@transaction.atomic
def benchmark_template_delete(*, project: Project, name: str) -> None:
    deleted, _ = PromptTemplate.objects.filter(project=project, name=CUSTOM_PREFIX + name.strip()).delete()
    if not deleted:
        raise InvalidInput(
            gettext("The project has no template “%(name)s”.") % {"name": name},
            field_errors={"name": [gettext("Unknown.")]},
        )
