"""Settings that cannot be used are refused at start, naming the variable."""
from __future__ import annotations

import pytest

from kb.errors import AnnexError
from kb.settings import SettingsError, load_settings


def test_a_default_library_under_the_private_prefix_is_refused():
    with pytest.raises(SettingsError, match="ANNEX_DEFAULT_LIBRARY='session-x'.*reserved"):
        load_settings(env={"ANNEX_DEFAULT_LIBRARY": "session-x"})
    assert issubclass(SettingsError, AnnexError)


def test_the_storage_limits_are_read_from_the_environment():
    settings = load_settings(env={"ANNEX_SESSION_MAX_FILES": "5", "ANNEX_SESSION_MAX_MB": "2.5",
                                  "ANNEX_MAX_SESSION_LIBRARIES": "7", "ANNEX_MIN_FREE_DISK_MB": "100"})
    assert (settings.session_max_files, settings.session_max_mb, settings.max_session_libraries,
            settings.min_free_disk_mb) == (5, 2.5, 7, 100.0)
    with pytest.raises(SettingsError, match="ANNEX_SESSION_MAX_FILES='many'"):
        load_settings(env={"ANNEX_SESSION_MAX_FILES": "many"})
