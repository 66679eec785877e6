"""Item list and item detail with the full history of versions and reviews."""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from annotation.models import Item
from annotation.selectors import item_for_member, membership_for
from annotation.selectors.items import item_list_page
from annotation.views.common import ANY_ROLE, item_history, project_context

PAGE_SIZE = 50
PAGE_SIZES = range(10, 101)


def _page_size(raw: str | None) -> int:
    """?per_page=10..100 (50 when left out or out of range)."""
    try:
        size = int(raw or PAGE_SIZE)
    except ValueError:
        return PAGE_SIZE
    return size if size in PAGE_SIZES else PAGE_SIZE


@login_required
@require_GET
def item_list(request: HttpRequest, slug: str) -> HttpResponse:
    membership = membership_for(user=request.user, slug=slug, roles=ANY_ROLE)
    context = project_context(membership)
    status = request.GET.get("status", "")
    if status not in Item.Status.values:
        status = ""
    size = _page_size(request.GET.get("per_page"))
    page = item_list_page(
        membership=membership,
        status=status,
        page=request.GET.get("page"),
        size=size,
        after=request.GET.get("after"),
        before=request.GET.get("before"),
    )
    task_type = context["task_type"]
    rows = [
        (item, task_type.summary(item.current_version.payload) if item.current_version else "") for item in page.items
    ]
    per_page = size if size != PAGE_SIZE else ""
    context.update(page=page, rows=rows, status=status, statuses=Item.Status.choices, per_page=per_page)
    return render(request, "annotation/item_list.html", context)


@login_required
@require_GET
def item_detail(request: HttpRequest, slug: str, item_id: int) -> HttpResponse:
    membership = membership_for(user=request.user, slug=slug, roles=ANY_ROLE)
    item = item_for_member(membership=membership, item_id=item_id)
    context = project_context(membership, item=item)
    history = item_history(item=item, task_type=context["task_type"])
    context.update(
        history=history,
        last_review=next((row.review for row in reversed(history) if row.review), None),
        can_revise=item.author_id == request.user.pk
        and item.status in (Item.Status.DRAFT, Item.Status.REVISION_REQUESTED)
        and item.assignment_id is not None,
    )
    return render(request, "annotation/item_detail.html", context)
