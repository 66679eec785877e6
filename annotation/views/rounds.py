"""Judgments by round (reviewers and admins) and sending a judge's proposed correction to the author."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from annotation.errors import DomainError
from annotation.selectors import membership_for
from annotation.selectors.rounds import PAGE_SIZE, judged_items_by_round, judgments_visible_to, proposed_corrections
from annotation.services.corrections import correction_send_to_author
from annotation.views.common import REVIEW_ROLES, project_context, show_domain_error


@login_required
@require_GET
def judging_rounds(request: HttpRequest, slug: str) -> HttpResponse:
    membership = membership_for(user=request.user, slug=slug, roles=REVIEW_ROLES)
    try:
        page = max(int(request.GET.get("page", "1")), 1)
    except ValueError:
        page = 1
    rows, total = judged_items_by_round(membership=membership, page=page)
    max_round = max((max(row.rounds, default=0) for row in rows), default=0)
    context = project_context(
        membership,
        rows=rows,
        total=total,
        page=page,
        has_next=page * PAGE_SIZE < total,
        round_numbers=list(range(1, max(max_round, max((r.item.judging_round for r in rows), default=0)) + 1)),
        corrections=proposed_corrections(membership=membership),
    )
    return render(request, "annotation/judging_rounds.html", context)


@login_required
@require_POST
def correction_send(request: HttpRequest, slug: str, judgment_id: int) -> HttpResponse:
    membership = membership_for(user=request.user, slug=slug, roles=REVIEW_ROLES)
    # Another project's judgment, or one on an item out of the member's scope, is a 404, as if it did not exist.
    if not judgments_visible_to(membership=membership).filter(pk=judgment_id).exists():
        raise Http404("No such judgment.")
    try:
        item = correction_send_to_author(
            judgment_id=judgment_id, reviewer=request.user, note=request.POST.get("note", "")
        )
    except DomainError as exc:
        show_domain_error(request, exc)
    else:
        messages.success(
            request, gettext("Item #%(pk)s was sent back to its author with the proposed correction.") % {"pk": item.pk}
        )
    return redirect("judging_rounds", slug=slug)
