from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class UserPreferences(models.Model):
    """How one person wants the interface: its language and time zone, the same in every project.

    Blank language: the browser's (Accept-Language); blank time zone: UTC.
    """

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="preferences")
    language = models.CharField(_("language"), max_length=10, blank=True)
    time_zone = models.CharField(_("time zone"), max_length=64, blank=True)

    def __str__(self) -> str:
        return f"Preferences of user {self.user_id}"
