"""The csqa settings (answerers per item, ambiguity threshold) move from core columns to the
project's task-type settings (JSON), so the core holds no protocol's own columns."""

from django.db import migrations, models

CSQA_SETTINGS = ("answerers_per_item", "ambiguity_threshold")
CSQA_DEFAULTS = {"answerers_per_item": 5, "ambiguity_threshold": 3}


def columns_to_settings(apps, schema_editor):
    Project = apps.get_model("annotation", "Project")
    for project in Project.objects.filter(task_type="csqa").order_by("pk"):
        project.settings = {**project.settings, **{name: getattr(project, name) for name in CSQA_SETTINGS}}
        project.save(update_fields=["settings"])


def settings_to_columns(apps, schema_editor):
    Project = apps.get_model("annotation", "Project")
    for project in Project.objects.filter(task_type="csqa").order_by("pk"):
        for name in CSQA_SETTINGS:
            setattr(project, name, project.settings.get(name, CSQA_DEFAULTS[name]))
        project.save(update_fields=list(CSQA_SETTINGS))


class Migration(migrations.Migration):
    dependencies = [
        ("annotation", "0003_profiles_per_membership_invitations"),
    ]

    operations = [
        migrations.AddField(
            model_name="project",
            name="settings",
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.RunPython(columns_to_settings, settings_to_columns),
        migrations.RemoveConstraint(
            model_name="project",
            name="project_m_positive",
        ),
        migrations.RemoveField(
            model_name="project",
            name="answerers_per_item",
        ),
        migrations.RemoveField(
            model_name="project",
            name="ambiguity_threshold",
        ),
    ]
