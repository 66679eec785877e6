"""Editing the catalog by hand: rename or move a concept, retire it from planning and bring it back.

Imports (annotation.services.catalog) add and update concepts in bulk; these act on one concept. A
retired concept keeps its items and past work; the planners give it no new assignments.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from annotation import limits
from annotation.errors import IllegalTransition, InvalidInput, NotAllowed
from annotation.models import Category, Concept, Membership


def _require_admin(*, concept: Concept, user) -> None:
    if not Membership.objects.filter(
        project_id=concept.project_id, user=user, role=Membership.Role.ADMIN, is_active=True
    ).exists():
        raise NotAllowed(_("Only a project admin can change the catalog."))


@transaction.atomic
def concept_update(*, concept: Concept, user, name: str, category: str) -> Concept:
    """Rename the concept and/or move it to a category (by name; a new name creates the category)."""
    _require_admin(concept=concept, user=user)
    name, category = (name or "").strip(), (category or "").strip()
    errors = {}
    if not name:
        errors["name"] = [_("This field is required.")]
    if not category:
        errors["category"] = [_("This field is required.")]
    if len(name) > limits.CONCEPT_NAME:
        errors.setdefault("name", []).append(_("Too long."))
    if len(category) > limits.CATEGORY_NAME:
        errors.setdefault("category", []).append(_("Too long."))
    if errors:
        raise InvalidInput(_("The concept was not saved: fix the fields below."), field_errors=errors)
    concept = Concept.objects.select_for_update().get(pk=concept.pk)
    target = Category.objects.filter(project_id=concept.project_id, name=category).first()
    if target is None:
        target = Category.objects.create(project_id=concept.project_id, name=category)
    clash = Concept.objects.filter(category=target, name=name).exclude(pk=concept.pk).exists()
    if clash:
        raise InvalidInput(
            _("The category “%(category)s” already has a concept “%(name)s”.") % {"category": category, "name": name},
            field_errors={"name": [_("Already in this category.")]},
        )
    concept.name, concept.category = name, target
    concept.save(update_fields=["name", "category"])
    return concept


@transaction.atomic
def concept_set_retired(*, concept: Concept, user, retired: bool) -> Concept:
    """Retire (no new assignments from the planners) or bring back a concept."""
    _require_admin(concept=concept, user=user)
    concept = Concept.objects.select_for_update().get(pk=concept.pk)
    if retired == (concept.retired_at is not None):
        raise IllegalTransition(_("The concept is already retired.") if retired else _("The concept is not retired."))
    concept.retired_at = timezone.now() if retired else None
    concept.save(update_fields=["retired_at"])
    return concept
