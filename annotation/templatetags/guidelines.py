"""{% project_guidelines project "judging" as text %}: the project's guidelines of one kind in the active
UI language (annotation.guidelines), so every page picks them the same way without a query."""

from django import template

from annotation.guidelines import guidelines_for

register = template.Library()


@register.simple_tag
def project_guidelines(project, kind: str) -> str:
    return guidelines_for(project=project, kind=kind)
