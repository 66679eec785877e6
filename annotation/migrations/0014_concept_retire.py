# A concept can be retired from planning without deleting its items.
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("annotation", "0013_item_language"),
    ]

    operations = [
        migrations.AddField(
            model_name="concept",
            name="retired_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
    ]
