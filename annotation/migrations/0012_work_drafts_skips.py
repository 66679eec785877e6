# Autosaved authoring drafts and skips with a reason.
import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("annotation", "0011_item_list_index"),
    ]

    operations = [
        migrations.CreateModel(
            name="WorkDraft",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("fields", models.JSONField(default=dict)),
                ("saved_at", models.DateTimeField()),
                (
                    "assignment",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="work_draft",
                        to="annotation.assignment",
                    ),
                ),
            ],
        ),
        migrations.CreateModel(
            name="Skip",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                (
                    "reason",
                    models.CharField(
                        choices=[
                            ("unknown_concept", "I don't know this concept"),
                            ("unsuitable", "Concept unsuitable"),
                            ("other", "Other"),
                        ],
                        max_length=20,
                    ),
                ),
                ("note", models.TextField(blank=True)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                (
                    "assignment",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE, related_name="skip", to="annotation.assignment"
                    ),
                ),
                (
                    "project",
                    models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="annotation.project",
                    ),
                ),
            ],
            options={
                "ordering": ["-created_at", "-id"],
                "indexes": [models.Index(fields=["project", "-created_at", "-id"], name="skip_project_recent")],
            },
        ),
    ]
