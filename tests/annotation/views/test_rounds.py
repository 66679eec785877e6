"""The judgments-by-round page shows judgment values and gold outcomes in the page's language; the
stored values stay codes."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from annotation.models import Assignment, Judgment
from annotation.services.items import unit_submit
from annotation.services.judging import judging_plan
from annotation.services.judgments import judgment_record
from qc.services import review_approve
from tests.annotation.task_types.nli.world import SIX, make_nli_project, writing_assignment

pytestmark = pytest.mark.django_db


def test_rounds_page_shows_labels_and_outcome_in_the_page_language():
    world = make_nli_project(annotators=5, expert=True)
    assignment = writing_assignment(world)
    items = unit_submit(assignment_id=assignment.pk, user=assignment.user, data={"items": SIX})
    for item in items:
        review_approve(item_id=item.pk, version_id=item.current_version_id, reviewer=world.reviewer)
    judging_plan(project=world.project)
    item = items[2]  # the author's label: contradiction
    validate = Assignment.objects.filter(target_item=item, kind="validate").order_by("id").first()
    judgment_record(assignment_id=validate.pk, user=validate.user, data={"label": "e"})
    client = Client(HTTP_ACCEPT_LANGUAGE="ar")
    client.force_login(world.reviewer)

    html = client.get(reverse("judging_rounds", args=[world.project.slug])).content.decode()

    row = re.search(rf'<tr id="round-row-{item.pk}".*?</tr>', html, re.S).group(0)
    assert '<td class="author-value">تناقض</td>' in row
    assert '<td class="round-1">استلزام</td>' in row
    assert '<td class="outcome"><span class="badge">قيد الانتظار</span></td>' in row
    assert list(Judgment.objects.filter(item=item).values_list("value", flat=True)) == [{"label": "entailment"}]
