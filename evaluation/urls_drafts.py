"""Each task type's own pages of the model side (generation, adaptation, reports:
evaluation/task_types/<name>/urls.py). The run pages are evaluation/urls.py."""

from django.urls import include, path

from evaluation.task_types import task_type_modules

urlpatterns = [path("", include(module)) for module in task_type_modules("urls")]
