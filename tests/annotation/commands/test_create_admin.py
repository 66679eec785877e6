import getpass
import sys
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from tests.factories import UserFactory

User = get_user_model()

STRONG = "Kopi-tubruk-2026-pagi"


@pytest.fixture(autouse=True)
def clean_env(monkeypatch):
    for name in ["GOTONG_ADMIN_USERNAME", "GOTONG_ADMIN_EMAIL", "GOTONG_ADMIN_PASSWORD"]:
        monkeypatch.delenv(name, raising=False)


def create_admin(*args: str) -> str:
    out = StringIO()
    call_command("create_admin", *args, stdout=out)
    return out.getvalue()


def users() -> list[tuple]:
    return list(
        User.objects.order_by("username").values_list("username", "email", "is_staff", "is_superuser", "password")
    )


@pytest.mark.django_db
def test_creates_a_staff_superuser_with_the_password_from_the_environment(monkeypatch):
    monkeypatch.setenv("GOTONG_ADMIN_PASSWORD", STRONG)

    output = create_admin("--username", "ada", "--email", "ada@example.org", "--no-input")

    user = User.objects.get()
    assert (user.username, user.email, user.is_staff, user.is_superuser, user.is_active) == (
        "ada",
        "ada@example.org",
        True,
        True,
        True,
    )
    assert user.check_password(STRONG) is True
    assert user.password.startswith("argon2$argon2id$")
    assert output == "Created the administrator “ada”. Log in at /accounts/login/.\n"


@pytest.mark.django_db
def test_user_name_and_email_come_from_the_environment_too(monkeypatch):
    monkeypatch.setenv("GOTONG_ADMIN_USERNAME", "root-admin")
    monkeypatch.setenv("GOTONG_ADMIN_EMAIL", "ops@example.org")
    monkeypatch.setenv("GOTONG_ADMIN_PASSWORD", STRONG)

    create_admin("--no-input")

    assert list(User.objects.values_list("username", "email", "is_staff")) == [("root-admin", "ops@example.org", True)]


@pytest.mark.django_db
def test_refuses_an_existing_user_and_changes_nothing(monkeypatch):
    UserFactory(username="ada", email="old@example.org")
    before = users()
    monkeypatch.setenv("GOTONG_ADMIN_PASSWORD", STRONG)

    with pytest.raises(CommandError) as exc:
        create_admin("--username", "ada", "--email", "new@example.org", "--no-input")

    assert str(exc.value) == "The user “ada” already exists; nothing changed."
    assert users() == before
    assert User.objects.get().is_staff is False


@pytest.mark.django_db
def test_if_missing_makes_an_existing_user_a_no_op(monkeypatch):
    UserFactory(username="ada")
    before = users()
    monkeypatch.setenv("GOTONG_ADMIN_PASSWORD", STRONG)

    output = create_admin("--username", "ada", "--if-missing", "--no-input")

    assert output == "The user “ada” already exists; nothing changed.\n"
    assert users() == before


@pytest.mark.django_db
def test_refuses_without_a_password_when_it_may_not_prompt():
    with pytest.raises(CommandError) as exc:
        create_admin("--username", "ada", "--no-input")

    assert str(exc.value) == "Set GOTONG_ADMIN_PASSWORD (or run on a terminal to be asked); nothing changed."
    assert User.objects.count() == 0


@pytest.mark.django_db
def test_refuses_without_a_user_name():
    with pytest.raises(CommandError) as exc:
        create_admin("--no-input")

    assert str(exc.value) == "Give a user name with --username or GOTONG_ADMIN_USERNAME."
    assert User.objects.count() == 0


@pytest.mark.django_db
def test_refuses_a_weak_password_and_creates_nothing(monkeypatch):
    monkeypatch.setenv("GOTONG_ADMIN_PASSWORD", "12345678")

    with pytest.raises(CommandError) as exc:
        create_admin("--username", "ada", "--no-input")

    assert str(exc.value) == "The password is too weak: This password is too common. This password is entirely numeric."
    assert User.objects.count() == 0


@pytest.mark.django_db
def test_prompts_for_the_password_twice_on_a_terminal(monkeypatch):
    answers = iter([STRONG, STRONG])
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True)
    monkeypatch.setattr(getpass, "getpass", lambda prompt: next(answers))

    create_admin("--username", "ada")

    assert User.objects.get(username="ada").check_password(STRONG) is True


@pytest.mark.django_db
def test_two_different_passwords_at_the_prompt_create_nothing(monkeypatch):
    answers = iter([STRONG, STRONG + "x"])
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True)
    monkeypatch.setattr(getpass, "getpass", lambda prompt: next(answers))

    with pytest.raises(CommandError) as exc:
        create_admin("--username", "ada")

    assert str(exc.value) == "The two passwords differ; nothing changed."
    assert User.objects.count() == 0
