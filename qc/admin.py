from django.contrib import admin

from qc.models import ErrorType, GoldDecision, Review

for model in (ErrorType, GoldDecision, Review):
    admin.site.register(model)
