"""KALAHI's variants page (admins): the approved base prompts with their variants and variant requests,
and the form asking for a variant of one (variants.variant_request). Any other task type's project, and
anyone but an admin, gets a 404."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from annotation.errors import DomainError
from annotation.models import Membership
from annotation.selectors import membership_for
from annotation.task_types.cultural_prompt.variants import TASK_TYPE, variant_overview, variant_request
from annotation.views.common import ADMIN_ONLY, project_context


@login_required
@require_http_methods(["GET", "POST"])
def variants_page(request: HttpRequest, slug: str) -> HttpResponse:
    membership = membership_for(user=request.user, slug=slug, roles=ADMIN_ONLY)
    project = membership.project
    if project.task_type != TASK_TYPE:
        raise Http404("This project has no prompt variants.")
    status = 200
    if request.method == "POST":
        try:
            assignment = variant_request(
                project=project,
                base_item_id=request.POST.get("base_item"),
                writer_id=request.POST.get("writer") or None,
            )
        except DomainError as exc:
            messages.error(request, exc.message)
            status = exc.http_status
        else:
            mine = Membership.objects.filter(project=project, user_id=assignment.user_id)
            writer = mine.values_list("code", flat=True).first() or assignment.user.get_username()
            messages.success(
                request,
                gettext("Variant of prompt %(target_item_id)s asked of %(writer)s.")
                % {"target_item_id": assignment.target_item_id, "writer": writer},
            )
            return redirect("kalahi_variants", slug=slug)
    writers = (
        Membership.objects.filter(project=project, role=Membership.Role.ANNOTATOR, is_active=True)
        .select_related("user")
        .order_by("user_id")
    )
    context = project_context(membership, rows=variant_overview(project=project), writers=writers)
    return render(request, "annotation/task_types/cultural_prompt/variants.html", context, status=status)
