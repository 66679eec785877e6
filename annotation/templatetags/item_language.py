"""`{% item_lang_attrs item %}`: ` lang="…" dir="…"` of an item's language, for the element
holding its text, so a Sundanese item on an Indonesian page or an Arabic item reads right. One query."""

from django import template
from django.utils.html import format_html

from annotation.models import ProjectLanguage

register = template.Library()


@register.simple_tag(takes_context=True)
def item_lang_attrs(context, item) -> str:
    code = getattr(item, "language", "") or ""
    if not code:
        return format_html(' dir="auto"')
    if code == context.get("page_lang"):  # the project's first language: project_context has its direction
        return format_html(' lang="{}" dir="{}"', code, context.get("page_dir") or "auto")
    direction = (
        ProjectLanguage.objects.filter(project_id=item.project_id, code=code)
        .values_list("direction", flat=True)
        .first()
    )
    return format_html(' lang="{}" dir="{}"', code, direction or "auto")
