"""Word tokens shared by BM25, the lexical reranker and the offline answerer."""
from __future__ import annotations

from kb.search.tokens import tokenize


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
