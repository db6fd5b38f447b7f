"""`claimbench run a_memguard --model ...` from the command line, with the tiny backend and
with an OpenAI-compatible server on 127.0.0.1 (`claimbench serve`, started by the test)."""
from __future__ import annotations

import json
import socket
import subprocess
import sys

import pytest

CLI = [sys.executable, "-m", "claimbench.cli"]
LLM_ARM = ["--method", "a_memguard_llm", "--method", "no_defense_llm",
           "--dataset", "agent_memory_tasks[arm=llm,attack=direct,n_tasks=4,per_topic=10]"]


def _cli(*args, env=None, timeout=600):
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=timeout, env=env)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def env(tmp_path, monkeypatch):
    import os

    e = dict(os.environ, CLAIMBENCH_STORE=str(tmp_path / "s.sqlite"))
    return e


def _rows(env, slug="a_memguard"):
    from claimbench.store import Store

    with Store(env["CLAIMBENCH_STORE"], readonly=True) as st:
        return st.rows(slug)


def test_run_a_memguard_with_the_tiny_model(env):
    r = _cli("run", "a_memguard", "--grid", "smoke", *LLM_ARM, "--model", "tiny:charlm-small",
             env=env)
    assert r.returncode == 0, r.stderr
    rows = _rows(env)
    assert rows and {x["status"] for x in rows} == {"ok"}
    assert {json.loads(x["model"])["backend"] for x in rows} == {"tiny"}
    c = _cli("claims", "a_memguard", "--model", "tiny:charlm-small", "--format", "json", env=env)
    assert c.returncode == 0, c.stderr
    verdicts = {x["claim"]: x["verdict"] for x in json.loads(c.stdout)}
    assert verdicts["c6_llm_asr_cut_95"] == "not_run"


def test_run_a_memguard_against_an_openai_compatible_server(env, tmp_path):
    port = _free_port()
    server = subprocess.Popen([*CLI, "serve", "tiny:charlm-small", "--port", str(port),
                               "--name", "charlm"], env=env, stdout=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()  # printed once the model is loaded and the port bound
        assert f"http://127.0.0.1:{port}/v1" in line
        spec = f"openai:http://127.0.0.1:{port}/v1#charlm"
        r = _cli("run", "a_memguard", "--grid", "smoke", *LLM_ARM, "--model", spec, env=env)
        assert r.returncode == 0, r.stderr
        rows = _rows(env)
        assert rows and {x["status"] for x in rows} == {"ok"}
        ident = {json.loads(x["model"])["spec"] for x in rows}
        assert ident == {spec}
        # a second identical run is cached; the server is not asked again
        again = _cli("run", "a_memguard", "--grid", "smoke", *LLM_ARM, "--model", spec, env=env)
        assert "0 run" in again.stdout and again.returncode == 0
        rep = _cli("report", "a_memguard", "--model", spec, "--out", str(tmp_path / "rep"), env=env)
        assert rep.returncode == 0, rep.stderr
        (folder,) = (tmp_path / "rep" / "models").iterdir()
        text = (folder / "a_memguard" / "paper_vs_ours.md").read_text()
        assert "Models: a\\_memguard\\_llm: " + spec.replace("_", "\\_") in text
        assert "needs a capable model" not in text  # an openai: model is judged, not skipped
    finally:
        server.terminate()
        server.wait(timeout=30)
    # the server is gone: the same spec is refused before anything runs, naming the URL
    r = _cli("run", "a_memguard", "--grid", "smoke", *LLM_ARM, "--model", spec + "?retries=0",
             env=env)
    assert r.returncode == 2 and "cannot connect" in r.stderr


def test_model_flag_on_a_benchmark_without_a_model_is_refused(env):
    r = _cli("run", "ssd_duality", "--model", "tiny:charlm-small", env=env)
    assert r.returncode == 2 and "has no method with a model field" in r.stderr
    assert "a_memguard" in r.stderr
