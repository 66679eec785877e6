"""Profiles move from the user to the membership (what a person told one project), invitations, the
project's bound on annotators, and the mark of imported annotators."""

import django.core.validators
import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def profiles_to_memberships(apps, schema_editor):
    # Each membership gets its own copy of the profile its user had: after this, editing it in one
    # project never changes what another project sees.
    Profile = apps.get_model("annotation", "AnnotatorProfile")
    Membership = apps.get_model("annotation", "Membership")
    fields = ("native_languages", "region", "country", "ethnicity", "years_in_region", "education", "screening_answers")
    for profile in Profile.objects.filter(membership__isnull=True).exclude(user__isnull=True):
        memberships = list(Membership.objects.filter(user_id=profile.user_id).order_by("pk"))
        if not memberships:
            profile.delete()
            continue
        profile.membership = memberships[0]
        profile.save(update_fields=["membership"])
        for membership in memberships[1:]:
            Profile.objects.create(membership=membership, **{f: getattr(profile, f) for f in fields})
    Profile.objects.filter(membership__isnull=True).delete()


def mark_imported(apps, schema_editor):
    # Annotators created by an earlier import: no usable password and the name `<slug>-<code>`.
    Membership = apps.get_model("annotation", "Membership")
    for membership in Membership.objects.select_related("user", "project").filter(user__password__startswith="!"):
        if membership.user.username.startswith(f"{membership.project.slug}-") and membership.role == "annotator":
            membership.is_imported = True
            membership.save(update_fields=["is_imported"])


class Migration(migrations.Migration):
    dependencies = [
        ("annotation", "0002_assignment_lean_indexes"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="project",
            name="max_annotators",
            field=models.PositiveIntegerField(default=200, validators=[django.core.validators.MinValueValidator(1)]),
        ),
        migrations.AddField(
            model_name="membership",
            name="is_imported",
            field=models.BooleanField(default=False),
        ),
        migrations.RunPython(mark_imported, migrations.RunPython.noop),
        migrations.CreateModel(
            name="Invitation",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("username", models.CharField(max_length=150)),
                (
                    "role",
                    models.CharField(
                        choices=[("admin", "Admin"), ("reviewer", "QC reviewer"), ("annotator", "Annotator")],
                        max_length=20,
                    ),
                ),
                ("code", models.CharField(blank=True, max_length=40)),
                (
                    "status",
                    models.CharField(
                        choices=[
                            ("pending", "Pending"),
                            ("accepted", "Accepted"),
                            ("declined", "Declined"),
                            ("withdrawn", "Withdrawn"),
                        ],
                        default="pending",
                        max_length=20,
                    ),
                ),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("decided_at", models.DateTimeField(blank=True, null=True)),
                (
                    "invited_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "project",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="invitations",
                        to="annotation.project",
                    ),
                ),
            ],
            options={
                "ordering": ["-created_at", "-id"],
                "constraints": [
                    models.UniqueConstraint(
                        condition=models.Q(("status", "pending")),
                        fields=("project", "username"),
                        name="uniq_pending_invitation",
                    )
                ],
            },
        ),
        migrations.AlterField(
            model_name="annotatorprofile",
            name="user",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AddField(
            model_name="annotatorprofile",
            name="membership",
            field=models.OneToOneField(
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="profile",
                to="annotation.membership",
            ),
        ),
        migrations.RunPython(profiles_to_memberships, migrations.RunPython.noop),
        migrations.RemoveField(model_name="annotatorprofile", name="user"),
        migrations.AlterField(
            model_name="annotatorprofile",
            name="membership",
            field=models.OneToOneField(
                on_delete=django.db.models.deletion.CASCADE, related_name="profile", to="annotation.membership"
            ),
        ),
    ]
