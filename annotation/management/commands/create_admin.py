"""Create the first administrator. Gotong ships no default accounts outside the demo.

    python manage.py create_admin --username ada --email ada@example.org
    GOTONG_ADMIN_USERNAME=ada GOTONG_ADMIN_EMAIL=ada@example.org GOTONG_ADMIN_PASSWORD=... \
        python manage.py create_admin --no-input

The password comes from GOTONG_ADMIN_PASSWORD or, on a terminal, from a prompt; never from the
command line, where it would end up in the shell history and the process list.
"""

from __future__ import annotations

import getpass
import os
import sys

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from annotation.errors import InvalidInput
from annotation.services.projects import user_create

User = get_user_model()


@transaction.atomic
def staff_user_create(*, username: str, password: str, email: str = "") -> AbstractBaseUser:
    """A user who may administer the platform (create projects, use the Django admin)."""
    user = user_create(username=username, password=password, email=email)
    user.is_staff = True
    user.is_superuser = True
    user.save(update_fields=["is_staff", "is_superuser"])
    return user


class Command(BaseCommand):
    help = "Create a staff superuser (the first admin). Password from GOTONG_ADMIN_PASSWORD or a prompt."

    def add_arguments(self, parser):
        parser.add_argument("--username", default=os.environ.get("GOTONG_ADMIN_USERNAME", ""))
        parser.add_argument("--email", default=os.environ.get("GOTONG_ADMIN_EMAIL", ""))
        parser.add_argument(
            "--no-input", action="store_false", dest="interactive", help="Never prompt; fail if something is missing."
        )
        parser.add_argument(
            "--if-missing",
            action="store_true",
            help="Do nothing (exit 0) when the user already exists, e.g. when a container restarts.",
        )

    def handle(self, *args, username: str, email: str, interactive: bool, if_missing: bool, **options):
        username = username.strip()
        interactive = interactive and sys.stdin.isatty()
        if not username and interactive:
            username = input("Username: ").strip()
        if not username:
            raise CommandError("Give a user name with --username or GOTONG_ADMIN_USERNAME.")
        if User.objects.filter(username=username).exists():
            if if_missing:
                self.stdout.write(f"The user “{username}” already exists; nothing changed.")
                return
            raise CommandError(f"The user “{username}” already exists; nothing changed.")

        password = os.environ.get("GOTONG_ADMIN_PASSWORD", "")
        if not password and interactive:
            password = getpass.getpass("Password: ")
            if password != getpass.getpass("Password (again): "):
                raise CommandError("The two passwords differ; nothing changed.")
        if not password:
            raise CommandError("Set GOTONG_ADMIN_PASSWORD (or run on a terminal to be asked); nothing changed.")
        try:
            validate_password(password, User(username=username, email=email))
        except ValidationError as exc:
            raise CommandError("The password is too weak: " + " ".join(exc.messages)) from None

        try:
            staff_user_create(username=username, password=password, email=email)
        except InvalidInput as exc:
            raise CommandError(exc.message) from None
        self.stdout.write(self.style.SUCCESS(f"Created the administrator “{username}”. Log in at /accounts/login/."))
