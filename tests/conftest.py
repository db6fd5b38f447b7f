import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture
def store(tmp_path):
    from claimbench.store import Store

    with Store(tmp_path / "store.sqlite") as st:
        yield st


@pytest.fixture(autouse=True, scope="session")
def _fresh_checkpoints(tmp_path_factory):
    """Trained-model checkpoints go to a folder of this test session, never results/: a test
    trains what it needs instead of loading a model from an earlier run."""
    import os

    from claimbench.checkpoints import ENV_VAR

    old = os.environ.get(ENV_VAR)
    os.environ[ENV_VAR] = str(tmp_path_factory.mktemp("checkpoints"))
    yield
    if old is None:
        os.environ.pop(ENV_VAR, None)
    else:
        os.environ[ENV_VAR] = old
