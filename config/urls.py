from django.contrib import admin
from django.urls import include, path

from config.api_docs import api_docs
from config.views import favicon

urlpatterns = [
    path("favicon.ico", favicon, name="favicon"),
    path("django-admin/", admin.site.urls),
    path("api/docs/", api_docs, name="api-docs"),
    path("api/", include("config.api_urls")),
    path("api/", include("annotation.api.urls")),
    path("api/", include("qc.api.urls")),
    path("", include("qc.urls")),
    path("", include("evaluation.urls")),
    path("", include("evaluation.urls_drafts")),
    path("", include("annotation.urls")),
]
