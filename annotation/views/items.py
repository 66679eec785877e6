"""Item list and item detail with the full history of versions and reviews."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from annotation import hooks
from annotation.aggregation.store import aggregation_applies, item_aggregate, last_fit
from annotation.errors import DomainError
from annotation.models import Item
from annotation.selectors import item_for_member, membership_for, payload_as_seen
from annotation.selectors.items import item_list_page
from annotation.services.known_answers import item_set_known_answer
from annotation.views.common import ADMIN_ONLY, ANY_ROLE, REVIEW_ROLES, item_history, project_context, show_domain_error
from annotation.views.item_filters import filter_query, item_filter_choices, item_filters_from, list_rows

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
    size = _page_size(request.GET.get("per_page"))
    choices = item_filter_choices(membership)
    filters = item_filters_from(request.GET, choices)
    page = item_list_page(
        membership=membership,
        page=request.GET.get("page"),
        size=size,
        after=request.GET.get("after"),
        before=request.GET.get("before"),
        filters=filters,
    )
    rows = list_rows(page.items, task_type=context["task_type"], dirs=choices.language_dirs, slug=slug)
    per_page = size if size != PAGE_SIZE else ""
    query = filter_query(filters, per_page=per_page)
    context.update(
        page=page,
        rows=rows,
        status=filters.status,
        statuses=Item.Status.choices,
        sources=Item.Source.choices,
        per_page=per_page,
        filters=filters,
        choices=choices,
        filter_query=query,
        bulk=membership.role in REVIEW_ROLES,
    )
    return render(request, "annotation/item_list.html", context)


@login_required
@require_GET
def item_detail(request: HttpRequest, slug: str, item_id: int) -> HttpResponse:
    membership = membership_for(user=request.user, slug=slug, roles=ANY_ROLE)
    item = item_for_member(membership=membership, item_id=item_id)
    return item_detail_response(request, membership=membership, item=item)


def item_detail_response(request: HttpRequest, *, membership, item: Item, status: int = 200, **extra) -> HttpResponse:
    """The item page; also rendered by the gold override views (qc.views.adjudication) when they refuse."""
    context = project_context(membership, item=item, **extra)
    if membership.role in REVIEW_ROLES:
        # Reviewers and admins adjudicate: every judgment, the majority, the gold decision, the overrides
        # (qc's panel, annotation.hooks). Annotators keep the page without others' answers.
        context.update(hooks.item_page_for_reviewers(item=item, membership=membership))
        # The model's posterior beside the rule, for those who see every judgment (two queries).
        if aggregation_applies(membership.project):
            aggregate = item_aggregate(item_id=item.pk)
            context.update(
                shows_aggregation=True,
                aggregate=aggregate,
                aggregate_bars=sorted(aggregate.posterior.items()) if aggregate else [],
                aggregation_fit=last_fit(project=membership.project),
            )
    history = item_history(item=item, task_type=context["task_type"], membership=membership)
    context.update(
        history=history,
        shown_payload=payload_as_seen(
            membership=membership, item=item, payload=item.current_version.payload if item.current_version else None
        ),
        last_review=next((row.review for row in reversed(history) if row.review), None),
        can_revise=item.author_id == request.user.pk
        and item.status in (Item.Status.DRAFT, Item.Status.REVISION_REQUESTED)
        and item.assignment_id is not None,
    )
    return render(request, "annotation/item_detail.html", context, status=status)


@login_required
@require_POST
def item_known_answer(request: HttpRequest, slug: str, item_id: int) -> HttpResponse:
    """An admin makes the item a known-answer check (or an ordinary item again, with an empty answer)."""
    membership = membership_for(user=request.user, slug=slug, roles=ADMIN_ONLY)
    item = item_for_member(membership=membership, item_id=item_id)
    try:
        item = item_set_known_answer(
            item_id=item.pk, project=membership.project, answer=request.POST.get("known_answer", "")
        )
    except DomainError as exc:
        return item_detail_response(request, membership=membership, item=item, status=show_domain_error(request, exc))
    if item.status == Item.Status.CHECK:
        messages.success(request, gettext("This item is now a known-answer check."))
    else:
        messages.success(request, gettext("This item is an ordinary item again."))
    return redirect("item_detail", slug=slug, item_id=item.pk)
