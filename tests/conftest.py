"""Every test session keeps its runs in a store of its own: tests never write into the user's
per-user store (or a store named by $TCPSIM_STORE), and processes they start inherit this."""

import os

import pytest
from tcpsim.store.location import LEGACY_ENV, STORE_ENV


@pytest.fixture(autouse=True, scope="session")
def session_store(tmp_path_factory):
    path = tmp_path_factory.mktemp("store")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(STORE_ENV, str(path))
        patch.delenv(LEGACY_ENV, raising=False)
        assert os.environ[STORE_ENV] == str(path)
        yield path
