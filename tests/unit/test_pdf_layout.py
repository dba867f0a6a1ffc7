"""A PDF page's positioned text read as a reader reads it (kb/ingest/pdf_layout.py): pages built from boxes the way
pdfium and OCR give them, so each rule is checked on the layout alone."""
from __future__ import annotations

from kb.ingest.pdf_layout import Box, Page, Rule, is_page_number, page_lines, page_texts

CHAR = 10.0  # points per character: one em of a 10 pt CJK font
LEFT, RIGHT = 50.0, 550.0  # the text block; a full line holds 50 characters


def line(text: str, top: float, left: float = LEFT) -> Box:
    return Box(text, left, top - CHAR, left + CHAR * len(text), top)


def paragraph(text: str, top: float) -> list[Box]:
    """A paragraph wrapped at the right margin, one box per line."""
    width = int((RIGHT - LEFT) / CHAR)
    return [line(text[i : i + width], top - 15 * n) for n, i in enumerate(range(0, len(text), width))]


def page(boxes: list[Box], rules: tuple[Rule, ...] = (), across: tuple[float, ...] = ()) -> Page:
    return Page(tuple(page_lines(boxes, rules)), 600.0, across)


SENTENCE = ("第三条 街道防汛应急物资由应急管理办公室统一储备，储备品种和数量详见附件2，每年汛前组织一次清点并向区应急管理局"
            "报告结果；清点中发现短缺或者损坏的物资，应当在十五日内补充或者更换，所需经费列入街道年度预算，由财政所"
            "按季度拨付，并接受审计部门的监督检查；物资的调用由街道防汛指挥部统一调度，任何单位和个人不得擅自挪用。")
assert len(SENTENCE) > 150  # more than three full lines: enough for the reader to find the right margin


def test_a_sentence_wrapped_across_lines_is_one_line_again_without_a_space():
    text = page_texts([page(paragraph(SENTENCE, 800) + [line("附件2", 700), line("防汛物资储备清单", 685)])])[0]
    assert text.splitlines() == [SENTENCE, "附件2", "防汛物资储备清单"]


def test_a_header_line_after_a_full_line_stays_its_own_line():
    full = "为做好防汛工作，街道办事处根据区防汛指挥部的统一部署，制定本预案的各项保障措施如"  # 42 characters
    boxes = [line(full + "下表所列各项内容安排", 800), line("附件2", 785), line("值班安排表", 770),
             line(full + "下表所列各项内容安排", 740), line(full + "下表所列各项内容安排", 725),
             line("结束。", 710)]
    lines = page_texts([page(boxes)])[0].splitlines()
    assert "附件2" in lines and "值班安排表" in lines


def test_running_header_footer_and_page_numbers_are_removed_from_every_page():
    bodies = ["第一条 为做好防汛工作，制定本预案。", "第二条 本预案适用于东岭街道。", "第三条 街道设防汛指挥部。",
              "第四条 物资详见附件2。", "第五条 本预案自发布之日起施行。"]
    pages = [page([line("东岭街道防汛应急预案", 830, left=200), line(body, 800), line(body[::-1], 785),
                   line(f"- {n} -", 40, left=280)]) for n, body in enumerate(bodies, 1)]
    assert page_texts(pages) == [f"{body}\n{body[::-1]}" for body in bodies]


def test_a_browser_printed_header_and_footer_go_even_on_a_two_page_document():
    boxes = [Box("12/1/26, 8:26 PM", 25, 770, 91, 776), Box("东岭街道防汛应急预案", 297, 770, 413, 776),
             line("第一条 总则。", 740), Box("file:///tmp/plan.html", 24, 17, 114, 23), Box("1/2", 571, 17, 587, 23)]
    texts = page_texts([page(boxes), page(boxes)])
    assert texts == ["第一条 总则。", "第一条 总则。"]


def test_a_sentence_running_over_a_page_break_continues_on_the_next_page():
    texts = page_texts([page(paragraph(SENTENCE[:150], 800)), page(paragraph(SENTENCE[150:], 800))])
    assert texts[0] == SENTENCE  # the page's text starts where its own words begin
    assert texts[1] == ""


def test_page_numbers_in_their_usual_forms():
    for text in ("3", "- 3 -", "— 3 —", "第 3 页 共 9 页", "第3页", "3/9", "Page 3 of 9", "共9页 第3页"):
        assert is_page_number(text), text
    for text in ("第三条", "3月", "附件3", "2024"[:0] + "第3章"):
        assert not is_page_number(text), text


def test_a_ruled_table_reads_as_rows_of_cells_under_its_header_with_empty_cells_kept():
    xs = (50.0, 150.0, 250.0, 400.0)
    rules = tuple(Rule(x, 600, 700) for x in xs)
    boxes = [Box("应急职务", 52, 680, 92, 690), Box("姓名", 152, 680, 172, 690), Box("联系方式", 252, 680, 292, 690),
             Box("总指挥", 52, 660, 82, 670), Box("张红", 152, 660, 172, 670),
             Box("组员", 52, 640, 72, 650), Box("王菲", 152, 640, 172, 650), Box("0571-1234", 252, 640, 297, 650)]
    text = page_texts([page(boxes, rules, across=(695.0, 675.0, 655.0, 635.0))])[0]
    assert text.splitlines() == ["应急职务 | 姓名 | 联系方式", "总指挥 | 张红 | ", "组员 | 王菲 | 0571-1234"]


def test_a_cell_wrapped_inside_its_row_joins_its_cell():
    rules = tuple(Rule(x, 600, 700) for x in (50.0, 150.0, 400.0))
    boxes = [Box("序号", 52, 680, 72, 690), Box("物资", 152, 680, 172, 690),
             Box("1", 52, 660, 57, 670), Box("冲锋舟（含船外机", 152, 660, 232, 670), Box("及救生圈）", 152, 647, 202, 657)]
    text = page_texts([page(boxes, rules, across=(695.0, 675.0, 643.0))])[0]
    assert text.splitlines() == ["序号 | 物资", "1 | 冲锋舟（含船外机及救生圈）"]


def test_an_unruled_table_row_is_split_at_its_wide_gaps():
    boxes = [Box("序号", 50, 680, 70, 690), Box("名称", 150, 680, 170, 690), Box("数量", 300, 680, 320, 690),
             Box("1", 50, 660, 55, 670), Box("冲锋舟", 150, 660, 180, 670), Box("3艘", 300, 660, 320, 670)]
    assert page_texts([page(boxes)])[0].splitlines() == ["序号 | 名称 | 数量", "1 | 冲锋舟 | 3艘"]


def test_ocr_reads_the_dash_of_a_range_as_a_dash_not_as_the_character_one():
    from kb.ingest.pdf_ocr import read_as_written

    assert read_as_written("1000元以下的部分40一100元，按1%一2%交纳") == "1000元以下的部分40－100元，按1%－2%交纳"
    assert read_as_written("第一条 一次清点") == "第一条 一次清点"


def test_a_contents_entry_keeps_its_page_number_apart_so_it_is_not_taken_for_the_attachment_itself():
    from kb.ingest.splitting import is_toc_line

    boxes = [line("附件5：有关应急部门的联系方式", 700), Box("99", 530, 690, 550, 700),
             line("冲锋舟", 680), Box("3", 530, 670, 540, 680)]
    lines = page_texts([page(boxes)])[0].splitlines()
    assert lines == ["附件5：有关应急部门的联系方式\t99", "冲锋舟 | 3"]  # a table row of a number stays cells
    assert is_toc_line(lines[0]) and not is_toc_line(lines[1])


def test_a_line_stopping_short_because_a_character_and_its_closing_mark_moved_down_together_is_joined():
    first = "2．住院部A楼（内科外科病区）：经南、北两部防烟楼梯撤至一层，集合于住院部A楼北侧草坪（2号集合"
    assert len(first) == 48  # two characters short of the 50 a line holds
    boxes = paragraph(SENTENCE, 700) + [line(first, 600), line("点）。着火层以上病区楼梯被烟气封堵时，先向相邻病区转移。", 585)]
    lines = page_texts([page(boxes)])[0].splitlines()
    assert first + "点）。着火层以上病区楼梯被烟气封堵时，先向相邻病区转移。" in lines, lines


def test_a_gap_a_space_writing_writer_left_unwritten_ends_a_cell_of_a_borderless_table(tmp_path):
    """LibreOffice writes its spaces as characters, so a gap with no space in it on one line is its layout's: a
    borderless table's cell padding (half a text height and more) ends a cell; an autospace-sized gap does not."""
    from kb.ingest.parsing import parse_file
    from tests.malformed import pdf_file

    # Helvetica 12: "Zhang San" is 58.7 pt wide and "Li Si" 23.3 pt: gaps of 10 pt (a cell's padding) and 2.7 pt
    stream = (b"BT /F1 12 Tf 72 700 Td (Zhang San) Tj ET\nBT /F1 12 Tf 140.7 700 Td (Manager) Tj ET\n"
              b"BT /F1 12 Tf 72 680 Td (Li Si) Tj ET\nBT /F1 12 Tf 98 680 Td (Clerk) Tj ET\n")
    (tmp_path / "表.pdf").write_bytes(pdf_file([stream]))
    assert parse_file(tmp_path / "表.pdf", 1 << 20).text == "Zhang San | Manager\nLi Si Clerk"


def test_a_borderless_tables_row_of_fewer_cells_puts_each_under_the_column_it_starts_at():
    """No rule draws an empty cell: a row that leaves 备注 (or 序号) empty keeps its place in the columns."""
    columns = (50.0, 120.0, 260.0, 400.0)

    def row(top: float, *cells: tuple[int, str]) -> list[Box]:
        return [line(text, top, columns[at]) for at, text in cells]

    boxes = (row(700, (0, "序号"), (1, "单位名称"), (2, "联系电话"), (3, "备注"))
             + row(685, (0, "7"), (1, "西安市国家电网"), (2, "029-95598"), (3, "抢修单位"))
             + row(670, (0, "8"), (1, "秦华天然气客服"), (2, "029-96777"))
             + row(655, (1, "灞桥区燃气办"), (2, "029-83510000")))
    assert page_texts([page(boxes)]) == ["序号 | 单位名称 | 联系电话 | 备注\n7 | 西安市国家电网 | 029-95598 | 抢修单位\n"
                                         "8 | 秦华天然气客服 | 029-96777 | \n | 灞桥区燃气办 | 029-83510000 | "]

