"""Wiyono et al. 2025's (IndoPref) model side for the preference task type: response runs (models answer
the prompts), judge runs (R3/mR3 pairwise prompt, both orders), pair exports and the rater-group page."""
