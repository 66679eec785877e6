import pytest

from annotation.errors import IllegalTransition
from annotation.models import Membership
from annotation.services.projects import membership_add, membership_deactivate

pytestmark = pytest.mark.django_db


def test_last_admin_can_be_neither_demoted_nor_deactivated(csqa):
    admin = Membership.objects.get(project=csqa.project, user=csqa.admin)

    with pytest.raises(IllegalTransition, match="at least one active admin"):
        membership_add(project=csqa.project, user=csqa.admin, role=Membership.Role.ANNOTATOR)
    with pytest.raises(IllegalTransition, match="at least one active admin"):
        membership_deactivate(membership=admin)

    admin.refresh_from_db()
    assert (admin.role, admin.is_active) == ("admin", True)


def test_an_admin_can_step_down_once_another_admin_exists(csqa):
    membership_add(project=csqa.project, user=csqa.reviewer, role=Membership.Role.ADMIN)
    admin = Membership.objects.get(project=csqa.project, user=csqa.admin)

    membership_deactivate(membership=admin)

    admin.refresh_from_db()
    assert admin.is_active is False
    assert list(
        Membership.objects.filter(project=csqa.project, role="admin", is_active=True).values_list(
            "user__username", flat=True
        )
    ) == ["demo-reviewer"]
