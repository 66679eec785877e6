"""Model benchmarks on the gold data: answer extraction, metrics and the benchmark run kind."""
