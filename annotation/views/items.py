"""Item list and item detail with the full history of versions and reviews."""

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from annotation.models import Item
from annotation.selectors import item_for_member, items_visible_to, membership_for
from annotation.views.common import ANY_ROLE, item_history, project_context

PAGE_SIZE = 50


@login_required
@require_GET
def item_list(request: HttpRequest, slug: str) -> HttpResponse:
    membership = membership_for(user=request.user, slug=slug, roles=ANY_ROLE)
    context = project_context(membership)
    status = request.GET.get("status", "")
    items = items_visible_to(membership=membership).select_related(
        "concept__category", "author", "current_version", "reviewer"
    )
    if status in Item.Status.values:
        items = items.filter(status=status)
    else:
        status = ""
    page = Paginator(items.order_by("-updated_at", "-id"), PAGE_SIZE).get_page(request.GET.get("page"))
    task_type = context["task_type"]
    rows = [(item, task_type.summary(item.current_version.payload) if item.current_version else "") for item in page]
    context.update(page=page, rows=rows, status=status, statuses=Item.Status.choices)
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
