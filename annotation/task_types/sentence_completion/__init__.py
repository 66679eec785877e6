"""Sentence completion with country-aware two-stage QC (ArabCulture, Sadallah et al., ACL 2025)."""
