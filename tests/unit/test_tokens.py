"""Word tokens shared by BM25, the lexical reranker and the offline answerer."""
from __future__ import annotations

import jieba

from kb.search.tokens import search_words, tokenize
from tests.conftest import DATA_DIR, SHARED_CORPUS, needs_shared_corpus


def test_an_attachment_label_is_one_word_whatever_its_numerals():
    # jieba cuts 附件三中 as 附件/三中 but 附件3 as 附件/3: both name 附件3, so both hold the word 附件3
    assert "附件3" in tokenize("在基本法附件三中增加下列法律") and "三中" not in tokenize("在基本法附件三中增加下列法律")
    assert "附件3" in tokenize("列于本法附件3的法律")
    assert "附录b" in tokenize("容积按附录B确定") and "附表2" in tokenize("附表二中第一类水污染物")


def test_a_word_that_only_contains_附件_is_no_label():
    assert not any(t.startswith("附件") and t != "附件" for t in tokenize("安全附件失效，成套附件及其改装附件"))


def test_a_short_name_of_a_body_reads_as_its_full_name():
    # the question says 全国人大常委会, the law writes 全国人民代表大会常务委员会
    assert "全国人民代表大会常务委员会" in tokenize("2017年全国人大常委会决定")
    assert set(tokenize("全国人大常委会")) <= set(tokenize("第十二届全国人民代表大会常务委员会第三十次会议"))


def _texts(folder) -> list[str]:
    """Every 300-character window (half overlapping) of the documents under a folder."""
    out = []
    for path in sorted(folder.rglob("*.md")) + sorted(folder.rglob("*.txt")):
        text = path.read_text(encoding="utf-8", errors="replace")
        out += [text[i:i + 300] for i in range(0, len(text), 150)]
    return out


def test_search_words_are_jiebas_words_on_the_bundled_documents():
    # jieba-rs with jieba's own cutting of digit/letter runs (GB18218-2009, A.1, 100%, 10.0MPa) must give the words
    # jieba gives, or every index, score and answer built on them would move
    texts = _texts(DATA_DIR / "corpus") + ["《危险化学品重大危险源辨识》（GB18218-2009）；A.2.1 ≥10.0MPa 回用率100%"]
    assert [search_words(t) for t in texts] == [jieba.lcut_for_search(t) for t in texts]


@needs_shared_corpus
def test_search_words_are_jiebas_words_on_real_documents():
    texts = _texts(SHARED_CORPUS)
    assert len(texts) > 1000
    assert [search_words(t) for t in texts] == [jieba.lcut_for_search(t) for t in texts]
