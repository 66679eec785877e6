"""Putri et al. 2024's LLM protocols for csqa: direct generation (LLM_GEN, generation/), adaptation of
English CommonsenseQA (LLM_ADAPT, adaptation/), and the human vs LLM report (reports/)."""
