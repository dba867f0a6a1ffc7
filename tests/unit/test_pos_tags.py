"""jieba's part-of-speech cut and default cut, given without jieba's Python dictionary (kb/search/pos_tags.py)."""
from __future__ import annotations

import subprocess
import sys

import jieba
from jieba import posseg

from kb.search import pos_tags
from kb.search.tokens import jieba_words
from tests.conftest import DATA_DIR, SHARED_CORPUS, needs_shared_corpus

# the forms the answer step reads: names the HMM makes up (nr), numbers and codes, letters beside Chinese, spaces
AWKWARD = [
    "请问朱雯和陈柏良的联系电话是多少？", "GB18218-2009第3.2条规定的临界量", "A.1 ≥10.0MPa 回用率100%的企业",
    "iPhone15和x86架构", "  空格\t制表\r\n换行", "ＡＢＣ全角字母与１２３数字", "那300毫升的呢？", "张三丰13800138000",
    "附件1-1、附件一（1）和附表二", "第十二届全国人大常委会第三十次会议", "内要付款", "c2和4国",
]


def _lines(folder) -> list[str]:
    return [line for path in sorted(folder.rglob("*.md")) + sorted(folder.rglob("*.txt"))
            for line in path.read_text(encoding="utf-8", errors="replace").splitlines() if line.strip()]


def _same(texts: list[str]) -> None:
    assert [[tuple(w) for w in pos_tags.cut(t)] for t in texts] == [[(w.word, w.flag) for w in posseg.cut(t)]
                                                                      for t in texts]
    assert [jieba_words(t) for t in texts] == [jieba.lcut(t) for t in texts]


def test_the_cut_and_tags_are_jiebas_on_awkward_text():
    _same(AWKWARD)
    assert ("朱雯", "nr") in [tuple(w) for w in pos_tags.cut("朱雯的电话")]  # a name no dictionary holds: the HMM's


def test_the_cut_and_tags_are_jiebas_on_the_bundled_documents():
    texts = _lines(DATA_DIR / "corpus")
    assert len(texts) > 500
    _same(texts)


@needs_shared_corpus
def test_the_cut_and_tags_are_jiebas_on_real_documents():
    texts = _lines(SHARED_CORPUS)
    assert len(texts) > 1000
    _same(texts)


def test_answering_and_reading_never_load_jiebas_python_dictionary():
    # its word frequencies and tags are ~100 MB of the serving process at any library size (docs/scale.md)
    probe = (
        "import sys, jieba\n"
        "from kb.answer.question import word_spans, person_names\n"
        "from kb.answer.question_words import words_of\n"
        "from kb.ingest.title_mentions import _word_tails\n"
        "from kb.search.tokens import tokenize, search_words, is_dictionary_word\n"
        "word_spans('应急物资储备清单里有多少冲锋舟'); words_of('朱雯的电话是多少'); person_names('陈柏良是谁')\n"
        "tokenize('附件三中增加下列法律'); search_words('危险化学品重大危险源辨识'); is_dictionary_word('冲锋舟')\n"
        "_word_tails('突发事件应急物资储备清单')\n"
        "print(jieba.dt.initialized, 'jieba.posseg' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]
