"""``simcodebench eval``: bad options and endpoints stop in one line before anything is written or asked; a
good endpoint runs the workflow on the resolved config, which ``--limit`` makes the same every time."""

from __future__ import annotations

import socket
import threading
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

import pandas as pd
import pytest
import yaml
from openai_server import openai_server_fixture, status  # noqa: F401

from simcodebench.cli import build_parser, main
from simcodebench.core.cases import load_suite_cases
from simcodebench.pipeline.plan import Plan
from simcodebench.run.eval_config import default_config, resolve_config

MODEL = "org/test-model:1"
AGENT = "test-model-1"


def _eval(run_dir, url, *extra):
    return main(["eval", "--model", MODEL, "--base-url", url, "--run-dir", str(run_dir), *extra])


def _one_line_naming(capsys, option):
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1, err
    assert err.startswith("error: command line: field '" + option), err
    assert "fix:" in err
    return err


@pytest.fixture
def serving(openai_server):
    """The scripted server, serving MODEL."""
    openai_server.windows = {MODEL: 100_000, "other-model": 100_000}
    return openai_server


def test_limit_takes_the_same_first_cases_in_the_same_order(repo):
    every = sorted(case.id for case in load_suite_cases(repo / "cases" / "cfd-query"))
    args = build_parser().parse_args(
        ["eval", "--model", MODEL, "--base-url", "http://x/v1", "--suites", "cfd-query", "--limit", "3"]
    )
    first, again = resolve_config(args, default_config()), resolve_config(args, default_config())
    assert first["cases"]["cfd-query"] == every[:3] == again["cases"]["cfd-query"]
    shuffled = {**default_config(), "cases": {"cfd-query": list(reversed(every[5:10]))}}
    assert resolve_config(args, shuffled)["cases"]["cfd-query"] == every[5:8]


def test_options_become_one_openai_agent(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    args = build_parser().parse_args(
        ["eval", "--model", MODEL, "--base-url", "http://x/v1", "--samples", "4", "--protocol", "paper"]
        + ["--temperature", "0.2", "--max-tokens", "512", "--max-cost-usd", "1.5", "--price", "0.5", "2"]
    )
    config = resolve_config(args, default_config())
    assert config["suites"] == default_config()["suites"]
    assert config["agents"] == {
        AGENT: {
            "backend": "openai",
            "model": MODEL,
            "base_url": "http://x/v1",
            "api_key_env": None,
            "samples": 4,
            "temperature": 0.2,
            "max_tokens": 512,
            "max_cost_usd": 1.5,
            "protocol": "paper",
            "price": {"prompt_per_1m": 0.5, "completion_per_1m": 2.0},
        }
    }
    Plan.from_config(config)


def _closed_port_url():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{sock.getsockname()[1]}/v1"


def test_an_unreachable_url_names_base_url(tmp_path, capsys):
    assert _eval(tmp_path, _closed_port_url()) == 2
    assert "cannot reach" in _one_line_naming(capsys, "--base-url")
    assert not (tmp_path / "results").exists()


class _QuietFiles(SimpleHTTPRequestHandler):
    """A plain web server's handler that logs nothing."""

    def log_message(self, format, *args):
        pass


def test_a_web_server_that_is_not_openai_names_base_url(tmp_path, capsys):
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "index.html").write_text("<html>hello</html>")
    handler = partial(_QuietFiles, directory=str(tmp_path / "site"))
    with ThreadingHTTPServer(("127.0.0.1", 0), handler) as web:
        threading.Thread(target=web.serve_forever, daemon=True).start()
        code = _eval(tmp_path / "run", f"http://127.0.0.1:{web.server_address[1]}")
        web.shutdown()
    assert code == 2
    err = _one_line_naming(capsys, "--base-url")
    assert "not an OpenAI-compatible server" in err and f"try http://127.0.0.1:{web.server_address[1]}/v1" in err
    assert not (tmp_path / "run").exists()


def test_a_missing_key_variable_names_api_key_env(tmp_path, serving, capsys, monkeypatch):
    monkeypatch.delenv("SCB_EVAL_TEST_KEY", raising=False)
    assert _eval(tmp_path, serving.url, "--api-key-env", "SCB_EVAL_TEST_KEY") == 2
    assert "SCB_EVAL_TEST_KEY is not set" in _one_line_naming(capsys, "--api-key-env")
    assert serving.count == 0 and not (tmp_path / "results").exists()


def test_a_wrong_key_names_api_key_env(tmp_path, serving, capsys, monkeypatch):
    serving.key = "the-right-key"
    monkeypatch.setenv("SCB_EVAL_TEST_KEY", "a-wrong-key")
    assert _eval(tmp_path, serving.url, "--api-key-env", "SCB_EVAL_TEST_KEY") == 2
    err = _one_line_naming(capsys, "--api-key-env")
    assert "HTTP 401" in err and "a-wrong-key" not in err
    assert not (tmp_path / "results").exists()


def test_an_unknown_model_names_model_and_the_served_ones(tmp_path, serving, capsys):
    serving.windows = {"served-a": 4096, "served-b": 4096}
    assert _eval(tmp_path, serving.url) == 2
    err = _one_line_naming(capsys, "--model")
    assert "served-a, served-b" in err
    assert serving.count == 0 and not (tmp_path / "results").exists()


def test_a_model_that_lists_but_cannot_chat_names_model(tmp_path, serving, capsys):
    serving.queue(status(400, {"error": {"message": "this model is an embedding model", "type": "invalid"}}))
    assert _eval(tmp_path, serving.url) == 2
    assert "embedding model" in _one_line_naming(capsys, "--model")
    assert serving.count == 1 and not (tmp_path / "results").exists()


@pytest.mark.parametrize(
    ("extra", "option"),
    [(["--limit", "0"], "--limit"), (["--suites", "no-such-suite"], "--suites"), (["--profile", "nope"], "--profile")],
)
def test_a_bad_option_is_named_before_the_endpoint_is_asked(tmp_path, serving, capsys, extra, option):
    assert _eval(tmp_path, serving.url, *extra) == 2
    _one_line_naming(capsys, option)
    assert serving.count == 0 and not (tmp_path / "results").exists()


def test_a_suite_whose_environment_is_missing_is_named(tmp_path, serving, capsys, monkeypatch):
    monkeypatch.setenv("SIMCODEBENCH_ENVS", str(tmp_path / "no-envs"))
    assert _eval(tmp_path, serving.url, "--suites", "re4", "--limit", "1") == 2
    assert "simcodebench env setup python" in _one_line_naming(capsys, "--suites")
    assert serving.count == 0 and not (tmp_path / "results").exists()


@pytest.mark.slow
def test_a_good_endpoint_runs_the_workflow_on_the_written_config(tmp_path, serving, repo, capsys):
    serving.responder = lambda request: "The answer is 2."
    argv = ["--suites", "cfd-query", "--limit", "2", "--samples", "1", "--cores", "2", "--max-connections", "2"]
    assert _eval(tmp_path, serving.url, *argv) == 0
    written = tmp_path / "results" / "eval_config.yaml"
    text = written.read_text()
    assert f"simcodebench eval --model {MODEL}" in text and "--limit 2" in text
    config = yaml.safe_load(text)
    every = sorted(case.id for case in load_suite_cases(repo / "cases" / "cfd-query"))
    assert config["cases"] == {"cfd-query": every[:2]}
    assert list(config["agents"]) == [AGENT]
    assert serving.count == 1 + 2  # the preflight's request, then one per case
    frame = pd.read_csv(tmp_path / "results" / "summary" / "scores.csv")
    finals = frame[frame.final]
    assert sorted(finals.case) == every[:2] and set(finals.agent) == {AGENT}
    answers = {c: int((repo / "cases" / "cfd-query" / c / "oracle.txt").read_text()) for c in every[:2]}
    expected = {c: "Pass" if answer == 2 else "F-Acc" for c, answer in answers.items()}
    assert dict(zip(finals.case, finals.failure_class, strict=True)) == expected
    assert "scores:" in capsys.readouterr().out
