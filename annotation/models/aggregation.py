"""The last fit of a project's aggregation model (annotation.aggregation): the model row, one row per
annotator (what a judging engine needs to update one item's posterior) and one row per item."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy


class AggregationModel(models.TextChoices):
    DAWID_SKENE = "dawid_skene", gettext_lazy("Dawid-Skene")
    GLAD = "glad", gettext_lazy("GLAD")
    MACE = "mace", gettext_lazy("MACE")
    OFF = "off", gettext_lazy("Off")


class AggregationFit(models.Model):
    """The project's last fit; a new fit replaces it (and its annotator and item rows) whole."""

    project = models.OneToOneField("annotation.Project", on_delete=models.CASCADE, related_name="aggregation_fit")
    model = models.CharField(max_length=20, choices=AggregationModel.choices)
    # The crowd-kit hyperparameters the fit ran with, and the iterations it took (the data card names them).
    parameters = models.JSONField(default=dict)
    labels = models.JSONField(default=list)  # the label domain, in the order of the confusion matrices
    priors = models.JSONField(default=dict)  # label -> prior probability of the true label
    judgments = models.PositiveIntegerField(default=0)
    items = models.PositiveIntegerField(default=0)
    disagreements = models.PositiveIntegerField(default=0)  # items whose top label differs from the rule's
    fitted_at = models.DateTimeField()
    seconds = models.FloatField(default=0.0)

    def __str__(self) -> str:
        return f"{self.model} fit of project {self.project_id}"


class AggregatedAnnotator(models.Model):
    """One annotator's estimate in the project's last fit: ability with a 95% interval, and the model's
    own parameters for them (a Dawid-Skene confusion matrix, a GLAD alpha, a MACE competence)."""

    project = models.ForeignKey("annotation.Project", on_delete=models.CASCADE, related_name="+", db_index=False)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", db_index=False)
    judgments = models.PositiveIntegerField()
    ability = models.FloatField()
    ability_low = models.FloatField()
    ability_high = models.FloatField()
    parameters = models.JSONField(default=dict)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["project", "user"], name="uniq_aggregated_annotator")]

    def __str__(self) -> str:
        return f"Ability of {self.user_id} in project {self.project_id}"


class AggregatedItem(models.Model):
    """One item's posterior in the project's last fit, beside the label the published gold rule gives."""

    # The item is the key: one row per item, replaced by the next fit.
    item = models.OneToOneField("annotation.Item", on_delete=models.CASCADE, primary_key=True, related_name="+")
    project = models.ForeignKey("annotation.Project", on_delete=models.CASCADE, related_name="+", db_index=False)
    posterior = models.JSONField()  # {label: probability}, summing to 1
    label = models.CharField(max_length=100)  # the most probable label
    probability = models.FloatField()  # its posterior
    rule_label = models.CharField(max_length=100, blank=True, default="")  # "" : the rule gives none (yet)
    # Whether the model's label equals the rule's; None when the rule gives no label.
    agrees = models.BooleanField(null=True)

    class Meta:
        # The report lists a project's disagreements; a fit replaces a project's rows.
        indexes = [models.Index(fields=["project", "agrees"], name="aggregated_item_project_agrees")]

    def __str__(self) -> str:
        return f"Posterior of item {self.item_id}"
