"""Gold overrides from the item page (admins): override with a note, or revert to the computed decision."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from annotation.errors import DomainError
from annotation.selectors import item_for_member, membership_for
from annotation.views.common import ANY_ROLE, show_domain_error
from annotation.views.items import item_detail_response
from qc.overrides import gold_override, gold_override_revert


def _act(request: HttpRequest, slug: str, item_id: int, action) -> HttpResponse:
    # Any member reaches the service (it refuses non-admins with a clear message); the item must be
    # one the member may see, else 404.
    membership = membership_for(user=request.user, slug=slug, roles=ANY_ROLE)
    item = item_for_member(membership=membership, item_id=item_id)
    try:
        action(item)
    except DomainError as exc:
        status = show_domain_error(request, exc)
        item.refresh_from_db()
        return item_detail_response(request, membership=membership, item=item, status=status)
    return redirect("item_detail", slug=slug, item_id=item.pk)


@login_required
@require_POST
def item_gold_override(request: HttpRequest, slug: str, item_id: int) -> HttpResponse:
    def action(item):
        row = gold_override(
            item=item, user=request.user, outcome=request.POST.get("outcome", ""), note=request.POST.get("note", "")
        )
        messages.success(request, _("Gold decision overridden: %(outcome)s.") % {"outcome": row.outcome_after})

    return _act(request, slug, item_id, action)


@login_required
@require_POST
def item_gold_revert(request: HttpRequest, slug: str, item_id: int) -> HttpResponse:
    def action(item):
        row = gold_override_revert(item=item, user=request.user, note=request.POST.get("note", ""))
        messages.success(
            request,
            _("Override reverted: the computed decision (%(outcome)s) stands.") % {"outcome": row.outcome_after},
        )

    return _act(request, slug, item_id, action)
