# Separate judging guidelines and guidelines in several languages, per project.
import django.db.models
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("annotation", "0015_user_preferences"),
    ]

    operations = [
        migrations.AddField(
            model_name="project",
            name="judging_guidelines",
            field=models.TextField(blank=True, db_default="", default=""),
        ),
        migrations.AddField(
            model_name="project",
            name="guidelines_translations",
            field=models.JSONField(
                blank=True,
                db_default=django.db.models.Value({}, output_field=models.JSONField()),
                default=dict,
            ),
        ),
    ]
