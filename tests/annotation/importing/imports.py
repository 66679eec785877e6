"""The id-csqa import as the tests call it: the generic service with the id-csqa format."""

from annotation.services.imports import ImportSummary, items_import


def csqa_import(**kwargs) -> ImportSummary:
    return items_import(format="id-csqa", **kwargs)
