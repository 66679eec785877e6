"""The cultural_prompt task type (KALAHI, Montalan et al. 2024): situated prompts with relevant and
irrelevant responses and one best, validated by natives (MC1), scored on models by likelihood (MC1, MC2,
MC3) and open-ended generation."""
