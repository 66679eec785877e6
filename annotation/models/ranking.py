"""The last ranking of the models behind a project's items (a Bradley-Terry fit over pairwise comparisons),
written by the background aggregation task and read by the report."""

from django.db import models


class ModelRanking(models.Model):
    """The project's last ranking; a new fit replaces it."""

    project = models.OneToOneField("annotation.Project", on_delete=models.CASCADE, related_name="model_ranking")
    # Per model, best first: {"model", "score", "low", "high", "pairs", "wins", "rank"}; low/high bound the
    # score's 95% bootstrap interval (None when no resample held every model).
    ranking = models.JSONField(default=list)
    pairs = models.PositiveIntegerField(default=0)  # the pairs the fit used (same-model pairs left out)
    resamples = models.PositiveIntegerField(default=0)
    fitted_at = models.DateTimeField()
    seconds = models.FloatField(default=0.0)

    def __str__(self) -> str:
        return f"Model ranking of project {self.project_id}"
