# The search indexes hold the versions that are ready for them (annotation/search_index.py): an import
# writes its versions with search_ready false and a background task indexes them after the commit, so the
# import does not wait for two GIN indexes (more than half of PostgreSQL's work in a large import).
from django.db import migrations, models

# The expressions of migrations 0013 (trigram) and 0017 (words), now partial. The search queries repeat
# both the expression and the condition (annotation/selectors/item_search.py) for PostgreSQL to use them.
DROP = ["DROP INDEX IF EXISTS itemversion_payload_words", "DROP INDEX IF EXISTS itemversion_payload_trgm"]
# Also what bench/item_list.py builds after its fill.
PARTIAL = [
    "CREATE INDEX itemversion_payload_words ON annotation_itemversion "
    "USING gin (to_tsvector('simple'::regconfig, payload)) WHERE search_ready",
    "CREATE INDEX itemversion_payload_trgm ON annotation_itemversion "
    "USING gin ((UPPER((payload)::text)) gin_trgm_ops) WHERE search_ready",
]
WHOLE = [
    "CREATE INDEX itemversion_payload_words ON annotation_itemversion "
    "USING gin (to_tsvector('simple'::regconfig, payload))",
    "CREATE INDEX itemversion_payload_trgm ON annotation_itemversion "
    "USING gin ((UPPER((payload)::text)) gin_trgm_ops)",
]


def partial_indexes(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        for statement in DROP + PARTIAL:
            schema_editor.execute(statement)


def whole_indexes(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        for statement in DROP + WHOLE:
            schema_editor.execute(statement)


class Migration(migrations.Migration):
    dependencies = [
        ("annotation", "0022_model_ranking"),
    ]

    operations = [
        migrations.AddField(
            model_name="itemversion",
            name="search_ready",
            field=models.BooleanField(db_default=True, default=True),
        ),
        migrations.AddIndex(
            model_name="itemversion",
            index=models.Index(
                condition=models.Q(("search_ready", False)), fields=["id"], name="itemversion_search_pending"
            ),
        ),
        migrations.RunPython(partial_indexes, whole_indexes),
    ]
