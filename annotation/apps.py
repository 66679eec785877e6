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
        from annotation.task_types import autodiscover

        autodiscover()
