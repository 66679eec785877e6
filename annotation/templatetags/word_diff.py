"""{{ change.old|word_diff:change.new }}: the word-level diff as HTML, <del> for removed words and <ins> for
added ones; every piece of text is escaped (it is user text)."""

from django import template
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe

from annotation.word_diff import DELETE, INSERT, word_diff

register = template.Library()


@register.filter(name="word_diff")
def word_diff_filter(old, new) -> SafeString:
    pieces = []
    for op, text in word_diff(str(old or ""), str(new or "")):
        if op == DELETE:
            pieces.append(format_html("<del>{}</del>", text))
        elif op == INSERT:
            pieces.append(format_html("<ins>{}</ins>", text))
        else:
            pieces.append(conditional_escape(text))
    return mark_safe("".join(pieces))  # noqa: S308 - every piece above is escaped
