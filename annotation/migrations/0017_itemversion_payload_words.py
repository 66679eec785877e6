# Item search by words, answered from a GIN index of the payload's words (item_search.py).
from django.db import migrations

# to_tsvector('simple', jsonb) takes every string value of the JSON (not its keys), lower-cased, not
# stemmed: the same for every language. The query must repeat this expression (item_search.PayloadWords)
# for PostgreSQL to use the index. SQLite (the demo) has no such index and searches by scanning.
WORDS_UP = (
    "CREATE INDEX IF NOT EXISTS itemversion_payload_words ON annotation_itemversion "
    "USING gin (to_tsvector('simple'::regconfig, payload))"
)
WORDS_DOWN = "DROP INDEX IF EXISTS itemversion_payload_words"


def words_index(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(WORDS_UP)


def drop_words_index(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(WORDS_DOWN)


class Migration(migrations.Migration):
    dependencies = [
        ("annotation", "0016_project_guidelines"),
    ]

    operations = [
        migrations.RunPython(words_index, drop_words_index),
    ]
