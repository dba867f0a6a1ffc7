"""Tables read the way a person reads them: a table of labels and values as its fields, a row found by its place
(第7项), and numbers written in words matched against digits (三至五年 / 3-5年)."""
from __future__ import annotations

from kb.answer.units import read_units
from kb.turn import Source
from tests.unit.test_answer_reading import quoted, source

PROFILE = "\n".join(["| 单位名称 | 青禾县溪畔环保科技有限公司 |", "|---|---|", "| 法定代表人 | 罗文舟 |",
                     "| 注册资本 | 伍佰万元 |"])


def rows(text: str) -> list[str]:
    return [u.text for u in read_units(text)]


def test_a_label_table_without_a_header_row_is_read_field_by_field_its_first_row_too():
    assert rows(PROFILE) == ["单位名称：青禾县溪畔环保科技有限公司", "法定代表人：罗文舟", "注册资本：伍佰万元"]


def test_a_joined_label_table_from_a_docx_or_pdf_is_read_the_same_way():
    joined = "\n".join(["单位名称 | 青禾县溪畔环保科技有限公司", "法定代表人 | 罗文舟", "成立日期： | 2016年4月18日"])
    assert rows(joined) == ["单位名称：青禾县溪畔环保科技有限公司", "法定代表人：罗文舟", "成立日期：2016年4月18日"]


def test_a_two_column_table_whose_first_row_names_its_columns_keeps_its_header():
    for head in ("| 项目 | 内容 |", "| 物资名称 | 数量 |", "| 部门 | 值班电话 |", "| 器材 | 配备 |"):  # 配备: above numbers
        table = "\n".join([head, "|---|---|", "| 灭火器 | 24具 |", "| 应急照明灯 | 12盏 |"])
        first, second = (c.strip() for c in head.strip("|").split("|"))
        assert rows(table) == [f"{first}：灭火器；{second}：24具", f"{first}：应急照明灯；{second}：12盏"], head


def test_a_numbered_or_repeating_first_column_is_no_column_of_labels():
    numbered = "\n".join(["| 1 | 灭火器 |", "| 2 | 应急照明灯 |", "| 3 | 担架 |"])
    assert not any(r.startswith(("1：灭火器", "2：应急照明灯")) for r in rows(numbered)), rows(numbered)
    repeated = "\n".join(["| 东岭街道 | 冲锋舟 |", "| 东岭街道 | 救生衣 |", "| 西岭街道 | 抽水泵 |"])
    assert "东岭街道：救生衣" not in rows(repeated) and "西岭街道：抽水泵" not in rows(repeated), rows(repeated)


SUBSIDY = "\n".join(["附件2", "人才安居补贴标准", "| 序号 | 服务年限 | 补贴标准 | 一次性奖励 |", "|---|---|---|---|",
                      "| 1 | 1-3年 | 每月800元 | 5万元 |", "| 2 | 3-5年 | 每月1200元 | 10万元 |",
                      "| 3 | 5-10年 | 每月1500元 | 20万元 |", "| 4 | 10年以上 | 每月2000元 | 30万元 |"])


def subsidy(question: str) -> list[str]:
    return quoted(question, [source(1, SUBSIDY, "附件2", "人才安居补贴标准", doc_title="青禾县人才安居办法")])


def test_a_range_written_in_characters_finds_the_row_written_in_digits():
    answer = subsidy("服务年限三至五年的人才每月补贴多少？")
    assert answer == ["人才安居补贴标准", "序号：2；服务年限：3-5年；补贴标准：每月1200元；一次性奖励：10万元"], answer
    assert subsidy("服务年限3到5年的人才每月补贴多少？") == answer
    # the range's middle picks its row: either end alone is held by two rows (5 by 3-5年 and 5-10年)
    assert subsidy("服务年限五至十年的一次性奖励是多少？")[1:] == [
        "序号：3；服务年限：5-10年；补贴标准：每月1500元；一次性奖励：20万元"]


def test_a_sum_in_characters_ranks_first_the_row_that_writes_it_in_wan_and_digits():
    answer = subsidy("一次性奖励二十万元的人才每月补贴多少？")
    assert answer[1] == "序号：3；服务年限：5-10年；补贴标准：每月1500元；一次性奖励：20万元", answer
    capitals = subsidy("一次性奖励叁拾万元的人才每月补贴多少？")
    assert capitals[1] == "序号：4；服务年限：10年以上；补贴标准：每月2000元；一次性奖励：30万元", capitals


SUPPLIES = ["消火栓", "灭火器", "应急广播", "摄像头", "破拆斧", "防毒面具", "应急照明灯", "担架", "急救箱", "警戒带"]


def supplies(question: str, serial: bool = True) -> list[str]:
    head = "序号 | 物资名称 | 数量 | 存放位置" if serial else "物资名称 | 数量 | 存放位置"
    rows = [(f"{i} | " if serial else "") + f"{name} | {i + 1}个 | {'一层' if i % 2 else '二层'}库房"
            for i, name in enumerate(SUPPLIES, 1)]
    text = "\n".join(["附件4", "应急物资清单", head, *rows])  # a .docx table's rows, cells joined
    return quoted(question, [source(1, text, "附件4", "应急物资清单", doc_title="青禾酒店生产安全事故应急预案")])


def test_a_row_asked_by_its_place_is_found_by_its_serial_number():
    seventh = ["应急物资清单", "序号：7；物资名称：应急照明灯；数量：8个；存放位置：一层库房"]
    assert supplies("应急物资清单第7项是什么？") == seventh
    assert supplies("应急物资清单第七项物资有多少个？") == seventh
    assert supplies("应急物资清单里序号为9的物资存放在哪里？")[1:] == ["序号：9；物资名称：急救箱；数量：10个；存放位置：一层库房"]


def test_a_table_without_serial_numbers_is_counted_by_its_rows():
    assert supplies("附件4里第三行是什么物资？", serial=False)[1:] == ["物资名称：应急广播；数量：4个；存放位置：一层库房"]


def test_a_numbered_list_is_counted_by_its_numbers_and_a_time_is_no_place():
    text = "\n".join(["报送要求", "1．报送单位名称及联系人；", "2．隐患排查治理台账；", "3．整改完成情况及佐证材料；",
                      "各单位应于每月第一个工作日前报送上月隐患排查情况。"])
    ask = lambda q: quoted(q, [source(1, text, doc_title="青禾县安全生产隐患排查工作方案")])  # noqa: E731
    assert ask("报送要求的第二项是什么？")[-1] == "2．隐患排查治理台账；", ask("报送要求的第二项是什么？")
    assert "各单位应于每月第一个工作日前报送上月隐患排查情况。" in ask("每月第一个工作日前报送什么？")


def test_pairs_of_fields_side_by_side_are_read_as_fields_and_a_year_column_is_a_header():
    form = "\n".join(["| 项目名称 | 青禾县河道保洁服务 | 项目编号 | QH-2025-017 |", "| 采购人 | 青禾县水务局 | 联系电话 | 0931-5551234 |"])
    assert rows(form) == ["项目名称：青禾县河道保洁服务；项目编号：QH-2025-017", "采购人：青禾县水务局；联系电话：0931-5551234"]
    plan = "\n".join(["| 指标 | 2025年 |", "|---|---|", "| 地区生产总值 | 500亿元 |", "| 城镇化率 | 60% |"])
    assert rows(plan) == ["指标：地区生产总值；2025年：500亿元", "指标：城镇化率；2025年：60%"]


def test_a_passage_that_opens_inside_a_table_does_not_count_its_rows_from_there():
    rows = "\n".join(f"{name} | {n}个 | 一层库房" for name, n in [("破拆斧", 6), ("防毒面具", 7), ("应急照明灯", 8)])
    cut = Source(1, "d1", "青禾酒店生产安全事故应急预案", "lib", "附件4", "应急物资清单", rows, ((0, len(rows)),), ("c1",), 1.0,
                 preamble="物资名称 | 数量 | 存放位置")
    answer = quoted("附件4里第三行是什么物资？", [cut])
    assert answer != ["物资名称：应急照明灯；数量：8个；存放位置：一层库房"], answer  # the table's 7th row, not its 3rd


def test_a_header_whose_end_pipe_borders_its_rows_is_a_header_not_a_form():
    # a text copy of a schedule: the header written without its first border, the rows between both borders and
    # their first cell (the day, merged down from above) empty
    schedule = "\n".join(["一、需要安排学生观众的活动有:", "日期 | 具体时间 | 活动内容 | 活动地点 | 人数 |",
                          "| 8:30—9:30 | 启动仪式 | 学校体育场 | 1200 |", "| 19:00—21:00 | 主题论坛 | 图书馆报告厅 | 450 |"])
    assert rows(schedule)[1:] == ["具体时间：8:30—9:30；活动内容：启动仪式；活动地点：学校体育场；人数：1200",
                                  "具体时间：19:00—21:00；活动内容：主题论坛；活动地点：图书馆报告厅；人数：450"]
    form = "\n".join(["报告单位： | | 报告编号： |", "| 填报人 | 张三 |"])  # a form's empty value cell is still one
    assert rows(form)[0].startswith("报告单位：")
    assert quoted("主题论坛在哪里办？", [source(1, schedule)]) == [
        "具体时间：19:00—21:00；活动内容：主题论坛；活动地点：图书馆报告厅；人数：450"]
