"""The preference task type (IndoPref, Wiyono et al. 2025): prompts in categories, responses from several
models, 1-5 relevance and fluency ratings by two rater groups with a best pick, preference pairs."""
