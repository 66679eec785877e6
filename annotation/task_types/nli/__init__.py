"""NLI (IndoNLI, Mahendra et al. 2021): pure building blocks for the task-type plugin.

Not registered yet: these modules hold the protocol's rules and reports (labels, validation rounds,
corpus statistics, annotation artefacts, a writer's checks, file parsing) as plain functions over
plain rows, so the plugin, its importer and its reports can call them without a database.
"""
