"""A table row is one record: asked for the 小型 row's value, the answer quotes that row, not the rows of the other
kinds of 餐饮企业 that share every other word of the question."""
from __future__ import annotations

from kb.answer.offline import ExtractiveAnswerer
from kb.turn import Source

PRICES = "\n".join([
    "附表1",
    "餐厨垃圾收运价格表",
    "| 产生单位类别 | 计费方式 | 收费标准 |",
    "| --- | --- | --- |",
    "| 大型餐饮企业（经营面积500平方米以上） | 按桶计费（240升标准桶） | 每桶55元 |",
    "| 中型餐饮企业（经营面积150至500平方米） | 按桶计费（240升标准桶） | 每桶48元 |",
    "| 小型餐饮企业（经营面积150平方米以下） | 按月定额 | 每月180元 |",
    "| 机关、学校等单位食堂 | 按桶计费（240升标准桶） | 每桶40元 |",
])
STOCK = "\n".join([
    "附件4",
    "防汛抢险物资储备清单",
    "| 物资名称 | 数量 | 存放地点 |",
    "| --- | --- | --- |",
    "| 冲锋舟 | 2艘 | 东岭街道防汛仓库 |",
    "| 救生衣 | 120件 | 东岭街道防汛仓库 |",
    "| 编织袋 | 5000条 | 东岭村委会仓库 |",
])


def source(n: int, label: str, title: str, text: str, doc: str) -> Source:
    return Source(n, f"d{n}", doc, "lib", label, title, text, ((0, len(text)),), (f"c{n}",), 1.0)


def quoted(question: str, *sources: Source) -> list[str]:
    return [c.text for c in ExtractiveAnswerer().select_parts(question, list(sources))]


def test_the_row_the_questions_attribute_picks_is_quoted_without_the_rows_of_other_kinds():
    prices = source(1, "附表1", "餐厨垃圾收运价格表", PRICES, "示范市餐厨垃圾管理办法")
    small = quoted("小型餐饮企业的餐厨垃圾收运费是多少？", prices)
    assert any("每月180元" in line for line in small), small
    assert not any("每桶55元" in line or "每桶48元" in line for line in small), small
    large = quoted("大型餐饮企业的餐厨垃圾收运费是多少？", prices)
    assert any("每桶55元" in line for line in large) and not any("每月180元" in line for line in large), large


def test_rows_that_only_lack_a_word_of_the_question_stay_when_it_asks_for_several():
    stock = source(1, "附件4", "防汛抢险物资储备清单", STOCK, "东岭街道防汛应急预案")
    both = quoted("东岭街道有多少冲锋舟和救生衣？", stock)
    assert any("2艘" in line for line in both) and any("120件" in line for line in both), both
