import pytest
from django.contrib.auth import get_user_model

User = get_user_model()


@pytest.mark.django_db
def test_migrating_creates_no_account():
    # The first admin comes from `create_admin`; only `load_demo` creates accounts with known passwords.
    assert User.objects.count() == 0
