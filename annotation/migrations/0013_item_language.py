# Every item records its language; item search by text gets a trigram index.
from django.db import migrations, models

# Item search is `ItemVersion.payload` icontains, which PostgreSQL runs as UPPER(payload::text) LIKE
# UPPER('%...%'): a GIN trigram index on that very expression answers it at 1,000,000 items. SQLite
# (the demo) has neither the extension nor the index and searches by scanning.
TRGM_UP = [
    "CREATE EXTENSION IF NOT EXISTS pg_trgm",
    "CREATE INDEX IF NOT EXISTS itemversion_payload_trgm ON annotation_itemversion "
    "USING gin ((UPPER((payload)::text)) gin_trgm_ops)",
]
TRGM_DOWN = ["DROP INDEX IF EXISTS itemversion_payload_trgm"]


def trigram_index(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        for sql in TRGM_UP:
            schema_editor.execute(sql)


def drop_trigram_index(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        for sql in TRGM_DOWN:
            schema_editor.execute(sql)


def first_language(apps, schema_editor):
    """Existing items get their project's first language (the only one, for most projects)."""
    Item = apps.get_model("annotation", "Item")
    ProjectLanguage = apps.get_model("annotation", "ProjectLanguage")
    firsts: dict[int, str] = {}
    for project_id, code in ProjectLanguage.objects.order_by("project_id", "position", "code").values_list(
        "project_id", "code"
    ):
        firsts.setdefault(project_id, code)
    for project_id, code in firsts.items():
        Item.objects.filter(project_id=project_id, language="").update(language=code)


class Migration(migrations.Migration):
    dependencies = [
        ("annotation", "0012_work_drafts_skips"),
    ]

    operations = [
        migrations.AddField(
            model_name="item",
            name="language",
            field=models.CharField(blank=True, db_default="", default="", max_length=20),
        ),
        migrations.RunPython(first_language, migrations.RunPython.noop, elidable=True),
        migrations.RunPython(trigram_index, drop_trigram_index),
    ]
