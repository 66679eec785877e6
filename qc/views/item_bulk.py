"""The item list's bulk actions (reviewers and admins): approve the checked items, or re-assign their open
work. A view of qc: approving is a review decision."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_POST

from annotation.errors import DomainError
from annotation.selectors import membership_for
from annotation.services.item_bulk import items_bulk_reassign
from annotation.views.common import REVIEW_ROLES
from qc.services import items_bulk_approve


@login_required
@require_POST
def item_bulk(request: HttpRequest, slug: str) -> HttpResponse:
    """Approve or re-assign the checked items of the item list: all or nothing, back to the same list."""
    membership = membership_for(user=request.user, slug=slug, roles=REVIEW_ROLES)
    back = reverse("item_list", args=[slug])
    # The list's filters, to come back to the same list: only a query string after our own path.
    raw_query = "".join(request.POST.get("back", "").split()).lstrip("?")
    if raw_query:
        back = f"{back}?{raw_query}"
    action = request.POST.get("action", "")
    try:
        ids = [int(pk) for pk in request.POST.getlist("items")]
    except ValueError:
        ids = []
    try:
        if action == "approve":
            result = items_bulk_approve(membership=membership, item_ids=ids)
            messages.success(
                request,
                ngettext("Approved %(count)d item.", "Approved %(count)d items.", result.done) % {"count": result.done},
            )
        elif action == "reassign":
            try:
                to_user_id = int(request.POST.get("to_user") or 0)
            except ValueError:
                to_user_id = 0
            result = items_bulk_reassign(membership=membership, item_ids=ids, to_user_id=to_user_id)
            messages.success(
                request,
                ngettext(
                    "Re-assigned the open work of %(count)d item (%(review)d to review, %(writing)d to write).",
                    "Re-assigned the open work of %(count)d items (%(review)d to review, %(writing)d to write).",
                    result.done,
                )
                % {"count": result.done, "review": result.review_moved, "writing": result.authoring_moved},
            )
        else:
            messages.error(request, gettext("Choose an action: approve or re-assign."))
    except DomainError as exc:
        messages.error(request, gettext("Nothing was changed. %(reason)s") % {"reason": exc.message})
    return redirect(back)
