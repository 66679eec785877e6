"""The import part of the task-type contract: the file formats a project's items can be imported from."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from annotation.importing.records import Importer


class ImportHooks:
    """Import: the formats (an existing dataset's files: IndoNLI, MNLI, ...) whose items, judgments and gold
    a project can import, each an `annotation.importing.records.Importer`.

    A task type must give nothing here: by default the `IMPORTERS` of the `importers` module beside its
    plugin, or none.
    """

    def importers(self) -> dict[str, Importer]:
        """Format name -> importer (annotation.importing.records.Importer), e.g. {"indonli": ..., "mnli": ...}.

        By default the `IMPORTERS` dict of the `importers` module beside the plugin's, when there is one.
        """
        name = type(self).__module__.rpartition(".")[0] + ".importers"
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            return {}
        return dict(getattr(module, "IMPORTERS", {}))
