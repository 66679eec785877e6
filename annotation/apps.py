from django.apps import AppConfig


class AnnotationConfig(AppConfig):
    name = "annotation"
    verbose_name = "Annotation"

    def ready(self) -> None:
        from django.contrib.auth import get_user_model
        from django.db.models.signals import pre_save

        from annotation.signals import revoke_api_tokens_on_password_change

        pre_save.connect(
            revoke_api_tokens_on_password_change,
            sender=get_user_model(),
            dispatch_uid="annotation.revoke_api_tokens_on_password_change",
        )
        from django.contrib.auth.signals import user_logged_in

        from annotation.signals import remember_preferences_on_login

        user_logged_in.connect(remember_preferences_on_login, dispatch_uid="annotation.remember_preferences_on_login")
        from annotation.task_types import autodiscover

        autodiscover()
