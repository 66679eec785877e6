"""Forms of the evaluation pages: shape only; the services check the rules (base URL, kinds)."""

from __future__ import annotations

from django import forms

from evaluation.models import Endpoint
from evaluation.services.endpoints import FIELDS

ENDPOINT_FIELDS = list(FIELDS)  # what the service saves


class EndpointForm(forms.ModelForm):
    # A plain text field: URLField's own check would refuse hosts the service explains better.
    base_url = forms.CharField(max_length=500, label="Base URL")

    class Meta:
        model = Endpoint
        fields = ENDPOINT_FIELDS
        labels = {"is_local": "Local server (on this machine)", "api_key_env": "API key environment variable"}

    def validate_unique(self) -> None:
        pass  # the service refuses a taken name with its own message


class ResponsesRunForm(forms.Form):
    endpoint = forms.ModelChoiceField(queryset=Endpoint.objects.order_by("name"), to_field_name="name")
    prompts = forms.CharField(widget=forms.Textarea(attrs={"rows": 8, "dir": "auto"}), help_text="One prompt per line.")
    system = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2, "dir": "auto"}))
    max_tokens = forms.IntegerField(required=False, min_value=1, max_value=32000)

    def parameters(self) -> dict:
        data = self.cleaned_data
        prompts = [line.strip() for line in data["prompts"].splitlines() if line.strip()]
        parameters: dict = {"prompts": prompts}
        if data.get("system"):
            parameters["system"] = data["system"]
        if data.get("max_tokens"):
            parameters["max_tokens"] = data["max_tokens"]
        return parameters
