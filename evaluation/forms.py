"""Forms of the evaluation pages: shape only; the services check the rules (base URL, kinds)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from evaluation.llm.keys import KEY_PREFIX, granted_key_names
from evaluation.models import Endpoint
from evaluation.services.endpoints import FIELDS

ENDPOINT_FIELDS = list(FIELDS)  # what the service saves


class EndpointForm(forms.ModelForm):
    # A plain text field: URLField's own check would refuse hosts the service explains better.
    base_url = forms.CharField(
        max_length=500, label=_("Base URL"), help_text=_("The OpenAI-compatible API root, e.g. https://host/v1")
    )

    class Meta:
        model = Endpoint
        fields = ENDPOINT_FIELDS
        labels = {
            "name": _("Name"),
            "model": _("Model"),
            "is_local": _("Local server (on this machine)"),
            "api_key_env": _("API key environment variable"),
            "timeout_seconds": _("Timeout (seconds)"),
            "max_concurrency": _("Requests at once"),
            "requests_per_minute": _("Requests per minute"),
            "price_input_per_million": _("Price per million input tokens"),
            "price_output_per_million": _("Price per million output tokens"),
            "offers_logprobs": _("Offers log-probabilities"),
            "offers_embeddings": _("Offers embeddings"),
        }
        help_texts = {
            "is_local": _("A server on this machine: only then is a loopback address accepted."),
        }
        widgets = {"api_key_env": forms.TextInput(attrs={"list": "api-key-names", "autocomplete": "off"})}

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # Names only, for the field's datalist: the values stay in the process.
        self.key_names = granted_key_names()
        self.fields["api_key_env"].help_text = _(
            "Name of an environment variable granted to endpoints (it starts with %(prefix)s; the key itself "
            "is never stored). Set here: %(names)s."
        ) % {"prefix": KEY_PREFIX, "names": ", ".join(self.key_names) or _("none")}

    def validate_unique(self) -> None:
        pass  # the service refuses a taken name with its own message


class ResponsesRunForm(forms.Form):
    endpoint = forms.ModelChoiceField(
        label=_("Endpoint"), queryset=Endpoint.objects.order_by("name"), to_field_name="name"
    )
    prompts = forms.CharField(
        label=_("Prompts"),
        widget=forms.Textarea(attrs={"rows": 8, "dir": "auto"}),
        help_text=_("One prompt per line."),
    )
    system = forms.CharField(
        label=_("System message"), required=False, widget=forms.Textarea(attrs={"rows": 2, "dir": "auto"})
    )
    max_tokens = forms.IntegerField(label=_("Max tokens"), required=False, min_value=1, max_value=32000)

    def parameters(self) -> dict:
        data = self.cleaned_data
        prompts = [line.strip() for line in data["prompts"].splitlines() if line.strip()]
        parameters: dict = {"prompts": prompts}
        if data.get("system"):
            parameters["system"] = data["system"]
        if data.get("max_tokens"):
            parameters["max_tokens"] = data["max_tokens"]
        return parameters
