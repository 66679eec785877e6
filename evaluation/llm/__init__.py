"""Talking to OpenAI-compatible servers: the one client, the base-URL guard, the shared limiter."""
