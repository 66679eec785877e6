"""The preferences page: each user picks their interface language and time zone."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from annotation.errors import DomainError
from annotation.forms import apply_domain_error
from annotation.forms.preferences import PreferencesForm
from annotation.services.preferences import preferences_for, preferences_update, session_store
from annotation.views.common import posted


@login_required
@require_http_methods(["GET", "POST"])
def preferences_page(request: HttpRequest) -> HttpResponse:
    # Only the signed-in user's own preferences: there is no user id in the address.
    current = preferences_for(user=request.user)
    form = PreferencesForm(posted(request), initial={"language": current.language, "time_zone": current.time_zone})
    if request.method == "POST" and form.is_valid():
        try:
            saved = preferences_update(user=request.user, **form.cleaned_data)
        except DomainError as exc:
            apply_domain_error(form, exc)
        else:
            session_store(session=request.session, preferences=saved)
            # The confirmation in the language just chosen (blank: the browser's, already active).
            if saved.language:
                translation.activate(saved.language)
            messages.success(request, _("Preferences saved."))
            return redirect("preferences")
    return render(request, "annotation/preferences.html", {"form": form}, status=400 if form.errors else 200)
