"""The keyword store's vocabulary, read from SQLite (kb/search/vocabulary.py)."""
from __future__ import annotations

import sqlite3

import pytest

from kb.errors import KeywordIndexError
from kb.search.keyword_index import KeywordIndex


def test_ids_are_given_in_order_and_readers_see_only_committed_words(tmp_path):
    index = KeywordIndex(tmp_path / "keywords.sqlite3")
    vocab = index.vocab
    with index._write("index", 1):
        ids = vocab.assign(["预案", "附件", "预案"])
        assert sorted(ids.values()) == [0, 1] and len(vocab) == 2
        assert vocab.known(["预案"]) == []  # not committed yet: a reader does not see it
    assert vocab.known(["附件", "冲锋舟", "预案", "附件"]) == [ids["附件"], ids["预案"], ids["附件"]]
    with index._write("index", 1):
        again = vocab.assign(["预案", "冲锋舟"])
    assert again == {"预案": ids["预案"], "冲锋舟": 2}
    index.close()
    reopened = KeywordIndex(tmp_path / "keywords.sqlite3")
    assert len(reopened.vocab) == 3 and reopened.vocab.known(["冲锋舟"]) == [2]


def test_a_rolled_back_write_gives_its_ids_again(tmp_path):
    index = KeywordIndex(tmp_path / "keywords.sqlite3")
    with index._write("index", 1):
        index.vocab.assign(["预案"])
    with pytest.raises(KeywordIndexError):
        with index._write("index", 1) as db:
            index.vocab.assign(["响应", "物资"])
            db.execute("INSERT INTO documents VALUES (NULL, NULL)")  # NOT NULL: the transaction fails
    assert len(index.vocab) == 1 and index.vocab.known(["响应", "物资"]) == []
    with index._write("index", 1):
        assert index.vocab.assign(["物资"]) == {"物资": 1}
    assert sqlite3.connect(tmp_path / "keywords.sqlite3").execute("SELECT word, id FROM words ORDER BY id").fetchall() \
        == [("预案", 0), ("物资", 1)]
