"""`manage.py endpoint add NAME --base-url URL --model MODEL [...]` and `manage.py endpoint test NAME`."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError, CommandParser

from annotation.errors import DomainError
from evaluation.models import Endpoint
from evaluation.services.endpoints import endpoint_create, endpoint_test


class Command(BaseCommand):
    help = "Register or test an OpenAI-compatible endpoint."

    def add_arguments(self, parser: CommandParser) -> None:
        actions = parser.add_subparsers(dest="action", required=True)
        add = actions.add_parser("add", help="Register an endpoint.")
        add.add_argument("name")
        add.add_argument("--base-url", required=True)
        add.add_argument("--model", required=True)
        add.add_argument(
            "--api-key-env",
            default="",
            help="Name of the environment variable holding the key (it starts with GOTONG_LLM_KEY_).",
        )
        add.add_argument("--local", action="store_true", help="A server on this machine (loopback allowed).")
        add.add_argument("--max-concurrency", type=int, default=4)
        add.add_argument("--rpm", type=int, default=None, help="Requests per minute.")
        add.add_argument("--timeout", type=float, default=60.0)
        add.add_argument("--logprobs", action="store_true", help="The endpoint offers log-probabilities.")
        test = actions.add_parser("test", help="Send one request and show the reply and latency.")
        test.add_argument("name")

    def handle(self, *args, **options) -> None:
        if options["action"] == "add":
            self._add(options)
        else:
            self._test(options["name"])

    def _add(self, options: dict) -> None:
        if options["max_concurrency"] < 1 or (options["rpm"] is not None and options["rpm"] < 1):
            raise CommandError("--max-concurrency and --rpm must be at least 1.")
        try:
            endpoint = endpoint_create(
                name=options["name"],
                base_url=options["base_url"],
                model=options["model"],
                api_key_env=options["api_key_env"],
                is_local=options["local"],
                max_concurrency=options["max_concurrency"],
                requests_per_minute=options["rpm"],
                timeout_seconds=options["timeout"],
                offers_logprobs=options["logprobs"],
            )
        except DomainError as exc:
            raise CommandError(exc.message) from exc
        self.stdout.write(f"Endpoint {endpoint.name} added: {endpoint.base_url} ({endpoint.model}).")

    def _test(self, name: str) -> None:
        endpoint = Endpoint.objects.filter(name=name).first()
        if endpoint is None:
            raise CommandError(f"No endpoint named “{name}”.")
        outcome = endpoint_test(endpoint=endpoint)
        if not outcome.ok:
            raise CommandError(f"{endpoint.name} failed: {outcome.error}")
        self.stdout.write(f"{endpoint.name} answered in {outcome.latency_ms} ms: {outcome.text}")
