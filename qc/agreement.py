"""Agreement maths: they live in annotation.agreement (task types use them and never import qc);
re-exported here for the core's reports and for scripts that import them from qc."""

from annotation.agreement import (
    KappaPair,
    agreement_share,
    alpha_nominal,
    alpha_nominal_counts,
    cohen_kappa_pairs,
    conflict_counts,
    group_counts,
    majority,
    matrix,
    value_counts,
)

__all__ = [
    "KappaPair",
    "agreement_share",
    "alpha_nominal",
    "alpha_nominal_counts",
    "cohen_kappa_pairs",
    "conflict_counts",
    "group_counts",
    "majority",
    "matrix",
    "value_counts",
]
