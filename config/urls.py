from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("django-admin/", admin.site.urls),
    path("api/", include("config.api_urls")),
    path("api/", include("annotation.api.urls")),
    path("api/", include("qc.api.urls")),
    path("", include("qc.urls")),
    path("", include("evaluation.urls")),
    path("", include("evaluation.urls_drafts")),
    path("", include("annotation.urls")),
]
