"""Settings that cannot be used are refused at start, naming the variable."""
from __future__ import annotations

import pytest

from kb.errors import AnnexError
from kb.settings import SettingsError, load_settings


def test_a_default_library_under_the_private_prefix_is_refused():
    with pytest.raises(SettingsError, match="ANNEX_DEFAULT_LIBRARY='session-x'.*reserved"):
        load_settings(env={"ANNEX_DEFAULT_LIBRARY": "session-x"})
    assert issubclass(SettingsError, AnnexError)
