"""The model side (endpoints, generation and benchmark runs) arrives with its own issues."""
