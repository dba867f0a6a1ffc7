"""HTML inside documents read as a reader sees it: converter tables as pipe tables, a web page's <p>s as lines.

The snippets are written here in the forms real documents arrive in: MinerU/marker Markdown (one `<table>` line per
table, `<div>` captions, `表 D.1 (续)` continuations) and a government notice copied from a web page as .txt.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from kb.answer.units import read_units
from kb.errors import ParseError
from kb.ingest.html_text import html_to_text
from kb.ingest.parsing import SUPPORTED_EXTENSIONS, parse_file
from kb.ingest.splitting import split_attachments

LIMIT = 50 << 20
TD = "<td style='text-align: center;'>"

# MinerU's form: a caption <div>, blank lines, the whole table on one line; then a continuation after (续).
CONVERTER_MD = "\n".join([
    "# 某某采集规范",
    "",
    "院落分类及代码见表 C.1。",
    "",
    '<div style="text-align: center;">表 C.1 组织机构院落分类及代码</div>',
    "",
    "",
    "",
    "<table border=1 style='margin: auto; width: max-content;'>"
    f"<tr>{TD}代码</td>{TD}属性值</td>{TD}属性值定义</td></tr>"
    f"<tr>{TD}R</td>{TD}居住区</td>{TD}居住生活聚居区</td></tr>"
    f"<tr>{TD}M</td>{TD}工业区</td>{TD}工矿企业的生产车间、库房<br>及其附属设施区域</td></tr></table>",
    "",
    '<div style="text-align: center;">表 C.1 (续)</div>',
    "",
    "<table border=1 style='margin: auto; width: max-content;'>"
    f"<tr>{TD}W</td>{TD}物流仓储区</td>{TD}物资储备&nbsp;中转 &lt;配送&gt; A|B</td></tr></table>",
    "",
    "**说明**：代码为一位大写字母。",
    "",
])

NOTICE_TXT = "\n".join([
    '<p style="text-align:center">',
    "    某市粮食局 某市财政局",
    "</p>",
    '<p style="text-align:center">',
    "    关于印发《举报奖励实施细则》的通知",
    "</p>",
    "<p>",
    "    第一条 为鼓励举报，制定本细则。举报奖励审批表见附件1。",
    "</p>",
    "<p>",
    "    附件：1．举报奖励审批表",
    "</p>",
    "<p>",
    "    2．举报奖励通知书",
    "</p>",
    '<p style="text-align:center">',
    "    <strong>附件1</strong>",
    "</p>",
    '<p style="text-align:center">',
    "    举报奖励审批表",
    "</p>",
    '<table><tbody><tr><td>举报人姓名</td><td><br/></td><td>联系方式</td><td></td></tr>',
    '<tr><td>奖励金额</td><td colspan="3">1500元</td></tr></tbody></table>',
    "<p>",
    "    注：该表一式3份，由粮食行政管理部门填写。",
    "</p>",
    '<p style="text-align:center">',
    "    附件2",
    "</p>",
    '<p style="text-align:center">',
    "    举报奖励通知书",
    "</p>",
    "<p>",
    '    请在<span style="text-decoration:underline;">&nbsp; 30 </span>个工作日内领取。',
    "</p>",
    "<script>var x = '<p>附件9</p>';</script>",
])


def _lines(text: str) -> list[str]:
    return [line for line in text.split("\n") if line.strip()]


def test_a_converter_table_becomes_a_pipe_table_in_place_and_the_markdown_around_it_stays():
    out = html_to_text("规范.md", CONVERTER_MD)
    assert _lines(out) == [
        "# 某某采集规范",
        "院落分类及代码见表 C.1。",
        "表 C.1 组织机构院落分类及代码",
        "| 代码 | 属性值 | 属性值定义 |",
        "| --- | --- | --- |",
        "| R | 居住区 | 居住生活聚居区 |",
        "| M | 工业区 | 工矿企业的生产车间、库房 及其附属设施区域 |",  # a cell's line break is a space
        "表 C.1 (续)",
        # the continuation has no header row of its own: its rows go on under the last one
        "| 代码 | 属性值 | 属性值定义 |",
        "| --- | --- | --- |",
        "| W | 物流仓储区 | 物资储备 中转 <配送> A\\|B |",  # entities decoded, | escaped
        "**说明**：代码为一位大写字母。",
    ]
    assert out.startswith("# 某某采集规范\n\n院落分类及代码见表 C.1。\n\n表 C.1")  # the Markdown lines untouched
    assert out.endswith("\n\n**说明**：代码为一位大写字母。\n")


def test_a_row_of_a_converted_table_is_read_with_its_header_like_a_markdown_row():
    units = [u.text for u in read_units(html_to_text("规范.md", CONVERTER_MD)) if u.header]
    assert "代码：M；属性值：工业区；属性值定义：工矿企业的生产车间、库房 及其附属设施区域" in units
    assert any(u.startswith("代码：W；属性值：物流仓储区") for u in units)


def test_th_rows_colspan_and_rowspan():
    html = ("<table><caption>表 1 应急队伍</caption>"
            "<thead><tr><th rowspan=2>队伍</th><th colspan=2>联系方式</th></tr>"
            "<tr><th>电话</th><th>手机</th></tr></thead>"
            "<tbody><tr><td rowspan=2>消防队</td><td>119</td><td>13900000001</td></tr>"
            "<tr><td>029-1234</td><td>13900000002</td></tr>"
            "<tr><td>医疗队</td><td colspan=2>120</td></tr></tbody></table>")
    assert html_to_text("t.md", html).split("\n") == [
        "表 1 应急队伍",
        "| 队伍 | 联系方式 电话 | 联系方式 手机 |",  # two header rows read as one, column by column
        "| --- | --- | --- |",
        "| 消防队 | 119 | 13900000001 |",
        "| 消防队 | 029-1234 | 13900000002 |",  # rowspan carried down
        "| 医疗队 | 120 | 120 |",  # colspan repeated
    ]


def test_a_header_of_plain_cells_that_groups_columns_is_as_tall_as_the_cell_beside_it():
    html = (f"<table><tr><td rowspan=2>类别</td><td colspan=2>限量</td></tr>"
            f"<tr>{TD}单间库房/t</td>{TD}库区/t</td></tr><tr><td>易燃液体</td><td>50</td><td>500</td></tr></table>")
    assert html_to_text("t.md", html).split("\n") == [
        "| 类别 | 限量 单间库房/t | 限量 库区/t |", "| --- | --- | --- |", "| 易燃液体 | 50 | 500 |"]
    units = [u.text for u in read_units(html_to_text("t.md", html)) if u.header]
    assert units == ["类别：易燃液体；限量 单间库房/t：50；限量 库区/t：500"]
    # a caption and a note written as rows across the whole table are lines above and below it
    captioned = f"<table><tr><td colspan=3>表A.1 储存限量</td></tr>{html[7:-8]}<tr><td colspan=3>注：最大储存量。</td></tr></table>"
    assert html_to_text("t.md", captioned).split("\n") == [
        "表A.1 储存限量", "| 类别 | 限量 单间库房/t | 限量 库区/t |", "| --- | --- | --- |", "| 易燃液体 | 50 | 500 |",
        "注：最大储存量。"]
    # a data cell reaching down is no header: the first row alone is
    plain = "<table><tr><td>序号</td><td>名称</td></tr><tr><td rowspan=2>1</td><td>甲</td></tr><tr><td>乙</td></tr></table>"
    assert html_to_text("t.md", plain).split("\n")[:3] == ["| 序号 | 名称 |", "| --- | --- |", "| 1 | 甲 |"]


def test_a_table_that_opens_after_text_on_its_line_is_a_table():
    text = f"表A.1 储存限量 <table><tr>{TD}类别</td>{TD}限量</td></tr><tr>{TD}易燃液体</td>{TD}50</td></tr></table>\n\n下文"
    assert html_to_text("t.md", text).split("\n") == [
        "表A.1 储存限量", "| 类别 | 限量 |", "| --- | --- |", "| 易燃液体 | 50 |", "", "下文"]
    fenced = "```\n示例 <table><tr><td>x</td></tr></table>\n```"
    assert html_to_text("t.md", fenced) == fenced  # code is shown as written


def test_a_continuation_that_repeats_its_header_keeps_it_once():
    table = f"<table><tr>{TD}序号</td>{TD}属性值</td></tr><tr>{TD}%s</td>{TD}%s</td></tr></table>"
    text = "\n".join([table % ("1", "名称"), "", "<div>表 D.1（续）</div>", "", table % ("14", "俯仰角")])
    assert html_to_text("t.md", text).split("\n") == [
        "| 序号 | 属性值 |", "| --- | --- |", "| 1 | 名称 |",
        "表 D.1（续）",
        "| 序号 | 属性值 |", "| --- | --- |", "| 14 | 俯仰角 |",
    ]


def test_a_table_after_other_text_is_not_taken_for_a_continuation():
    one = f"<table><tr>{TD}代码</td>{TD}名称</td></tr><tr>{TD}1</td>{TD}山地</td></tr></table>"
    two = f"<table><tr>{TD}级别</td>{TD}名称</td></tr><tr>{TD}1级</td>{TD}省</td></tr></table>"
    out = html_to_text("t.md", "\n".join([one, "", "表 B.1 基本地点名称优先级", "", two]))
    assert "| 级别 | 名称 |" in out.split("\n")


def test_a_web_page_fragment_saved_as_txt_reads_one_paragraph_a_line_and_splits_at_its_attachments(tmp_path):
    path = tmp_path / "通知.txt"
    path.write_text(NOTICE_TXT, encoding="utf-8")
    parsed = parse_file(path, LIMIT)
    assert parsed.text.split("\n") == [
        "某市粮食局 某市财政局",
        "关于印发《举报奖励实施细则》的通知",
        "第一条 为鼓励举报，制定本细则。举报奖励审批表见附件1。",
        "附件：1．举报奖励审批表",
        "2．举报奖励通知书",
        "附件1",
        "举报奖励审批表",
        "| 举报人姓名 |  | 联系方式 |  |",
        "| --- | --- | --- | --- |",
        "| 奖励金额 | 1500元 | 1500元 | 1500元 |",
        "注：该表一式3份，由粮食行政管理部门填写。",
        "附件2",
        "举报奖励通知书",
        "请在 30 个工作日内领取。",  # inline tags dropped, &nbsp; collapsed; the script is gone
    ]
    assert parsed.headings == ()  # a .txt has no headings, whatever its HTML said
    found = {a.label: a for a in split_attachments(parsed.text).attachments}
    assert set(found) == {"附件1", "附件2"}
    assert found["附件1"].title == "举报奖励审批表"
    assert "一式3份" in parsed.text[found["附件1"].start : found["附件1"].end]


@pytest.mark.parametrize("name, text", [
    ("预案.txt", "附件1：应急物资清单\n\n名称 | 数量\n冲锋舟 | 3艘\n  缩进的行 <b>不是</b> HTML 块\r\n"),
    ("预案.md", "# 预案\n\n| 名称 | 数量 |\n|---|---|\n| 冲锋舟 | 3艘 |\n\n比较 a < b 与 `<p>` 的写法 &amp; 实体\n"),
    ("样例.md", "XML 实例：\n\n<content>\n<apd_id>附录 A</apd_id>\n</content>\n"),  # not HTML tags
    ("代码.md", "说明\n\n```html\n<table><tr><td>x</td></tr></table>\n```\n"),  # fenced code
])
def test_text_without_an_html_block_comes_back_as_the_same_string(name, text):
    assert html_to_text(name, text) is text


def test_plain_text_and_markdown_files_parse_unchanged(tmp_path):
    md = "# 预案\n\n正文见附件1。\n\n## 附件1：物资\n\n| 名称 | 数量 |\n|---|---|\n| 冲锋舟 | 3艘 |\n"
    txt = "第一条 总则。\n附件1 通讯录\n单位 | 电话\n消防 | 119\n"
    (tmp_path / "a.md").write_text(md, encoding="utf-8")
    (tmp_path / "b.txt").write_text(txt, encoding="utf-8")
    assert parse_file(tmp_path / "a.md", LIMIT).text == md
    assert parse_file(tmp_path / "b.txt", LIMIT).text == txt


def test_a_markdown_document_with_an_html_table_keeps_its_markdown_and_headings(tmp_path):
    text = "## 附录 A\n\n**表 A.1** 代码\n\n<table><tr><th>代码</th><th>名称</th></tr><tr><td>1</td><td>山地</td></tr></table>\n\n- 列表项\n"
    (tmp_path / "s.md").write_text(text, encoding="utf-8")
    parsed = parse_file(tmp_path / "s.md", LIMIT)
    assert parsed.text == "## 附录 A\n\n**表 A.1** 代码\n\n| 代码 | 名称 |\n| --- | --- |\n| 1 | 山地 |\n\n- 列表项\n"
    assert [parsed.text[h.start : h.end] for h in parsed.headings] == ["## 附录 A"]


def test_an_html_file_is_a_supported_document_with_its_headings(tmp_path):
    assert ".html" in SUPPORTED_EXTENSIONS and ".htm" in SUPPORTED_EXTENSIONS
    page = ("<!DOCTYPE html><html><head><title>通知</title><style>p{color:red}</style></head><body>\n\n"
            "<h1>关于应急值守的通知</h1>\n\n<div class=content><p>各单位：</p><p>值班电话见附件1。</p>\n\n"
            "<h2>附件1：值班电话</h2><ol><li>总值班室</li><li>应急办</li></ol></div></body></html>")
    (tmp_path / "通知.htm").write_text(page, encoding="utf-8")
    parsed = parse_file(tmp_path / "通知.htm", LIMIT)
    assert parsed.text.split("\n") == ["# 关于应急值守的通知", "各单位：", "值班电话见附件1。",
                                       "## 附件1：值班电话", "1. 总值班室", "2. 应急办"]
    assert [(h.level, parsed.text[h.start : h.end]) for h in parsed.headings] == [
        (1, "# 关于应急值守的通知"), (2, "## 附件1：值班电话")]


@pytest.mark.parametrize("text", [
    "<p>未闭合的段落\n<p>第二段 <b>加粗\n<table><tr><td>甲<td>乙\n<tr><td>1<td>2",
    "<div><table><tr><td rowspan=abc colspan=-5>x</td></tr></table></span></div></div>",
    "<table><tr><td colspan=99999999>宽</td></tr><tr><td>a</td></tr></table>",
    "<p><!-- 未闭合的注释\n正文</p>",
    "<div>\n\n\n</div>",
])
def test_malformed_html_parses_sensibly(text):
    out = html_to_text("坏.md", text)
    assert "<" not in out.replace("<!--", "")  # no markup read as text


def test_malformed_html_reads_what_a_browser_shows():
    out = html_to_text("坏.md", "<p>未闭合的段落\n<p>第二段 <b>加粗\n<table><tr><td>甲<td>乙\n<tr><td>1<td>2")
    assert out.split("\n") == ["未闭合的段落", "第二段 加粗", "| 甲 | 乙 |", "| --- | --- |", "| 1 | 2 |"]
    wide = "<table><tr><td colspan=99999999>宽</td><td>窄</td></tr><tr><td>a</td></tr></table>"
    assert html_to_text("坏.md", wide).count("宽") == 1000  # a span is capped at HTML's own limit


@pytest.mark.parametrize("page", ["<html><head><script>x()</script></head><body><img src=a.png></body></html>",
                                  "<!-- 只有注释 -->"])
def test_an_html_page_with_nothing_readable_is_a_parse_error(tmp_path, page):
    (tmp_path / "空.html").write_text(page, encoding="utf-8")
    with pytest.raises(ParseError, match="holds no text"):
        parse_file(tmp_path / "空.html", LIMIT)


NAVIGATION = "".join(f"<li><a href='/c{i}'>栏目{i}</a></li>" for i in range(40))
PLAN = ("<p>青禾县第一中学极端天气应急行动预案</p>"
        + "".join(f"<p>第{i}条 学校在气象灾害红色预警信号生效期间，按本预案安排停课、值班和复课，"
                  f"并由安全处负责预警信息的监控与发布，各部门按分工落实第{i}项措施。</p>" for i in range(1, 9))
        + "<p>附1: 应急行动工作领导小组联络方式</p><p>朱雯 17757550666 陈银伟 18906858010</p>")
PAGE = ("<!DOCTYPE html>\n<html><head><title>青禾县第一中学极端天气应急行动预案--安全处</title>"
        "<script>function login(){\n\n  document.getElementById('x').innerHTML = '登录';\n}</script></head>"
        f"<body><div class='nav'><ul>{NAVIGATION}</ul></div><div class='main'>{PLAN}</div>"
        "<div class='footer'>版权所有 青禾县第一中学 技术支持：某公司</div></body></html>")


def test_a_saved_web_page_reads_as_its_main_content_whatever_the_file_is_called(tmp_path):
    (tmp_path / "预案.txt").write_text(PAGE, encoding="utf-8")
    text = parse_file(tmp_path / "预案.txt", LIMIT).text
    lines = text.split("\n")
    assert lines[0] == "青禾县第一中学极端天气应急行动预案"
    assert "附1: 应急行动工作领导小组联络方式" in lines and "朱雯 17757550666 陈银伟 18906858010" in lines
    assert "栏目3" not in text and "版权所有" not in text and "getElementById" not in text


def test_a_page_whose_main_content_would_lose_an_attachment_is_read_whole():
    # readability keeps the long article; the attachment's label line sits apart, in a short block of its own
    page = PAGE.replace("<p>附1: 应急行动工作领导小组联络方式</p>", "").replace(
        "<div class='footer'>", "<div class='side'><p>附件2：值班表</p></div><div class='footer'>")
    text = html_to_text("预案.txt", page, whole=True)
    assert "附件2：值班表" in text.split("\n")


def test_a_script_block_in_markdown_runs_to_its_closing_tag():
    text = "正文第一段。\n\n<script>\nvar a = 1;\n\nvar b = 2;\n</script>\n\n正文第二段。"
    out = html_to_text("规范.md", text)
    assert [line for line in out.split("\n") if line] == ["正文第一段。", "正文第二段。"], out


def test_markdown_extension_syntax_is_not_text_and_a_container_titled_by_a_kind_is_an_attachment(tmp_path):
    # VitePress's ::: container around the single appendix, and its heading's attribute list
    (tmp_path / "办法.md").write_text("\n".join([
        "# 青禾县突发环境事件信息报告办法", "", "第十条 事件分级按本办法附录执行。", "", "---", "",
        "::: info 附录", "", '## 突发环境事件分级标准{align="center"}', "", "因环境污染疏散群众5万人以上的，为特别重大。",
        ":::", "", "## 集合{x}",
    ]), encoding="utf-8")
    text = parse_file(tmp_path / "办法.md", LIMIT).text
    assert "::: info" not in text and "{align" not in text and "## 集合{x}" in text  # {x} is no attribute list
    split = split_attachments(text)
    assert [(a.label, a.title) for a in split.attachments] == [("附录", "突发环境事件分级标准")]


def test_a_page_keeps_the_heading_that_titles_its_article_which_readability_leaves_out(tmp_path):
    # 绍兴市第一中学's pages: <h2 class="title"> above the article's <div>; readability takes it for the page's
    # title and drops it, and the document was titled by its file name
    article = "".join(f"<p>（{n}）市级遴选推荐。市级按照规定名额遴选推荐精品课，并报送省教育技术中心。</p>" for n in range(8))
    page = ("<!DOCTYPE html><html><head><title>关于开展“基础教育精品课” 市级遴选工作的通知-绍兴市第一中学</title></head>"
            f"<body><div class='nav'><ul>{NAVIGATION}</ul></div><div class='mainBox'><h3>教科室</h3>"
            "<div class='printArea'><h2 class='title'>关于开展“基础教育精品课” 市级遴选工作的通知</h2>"
            "<div class='property'><span>发布时间：2022年10月24日</span></div>"
            f"<div class='conTxt'><p>各位老师：</p>{article}</div></div></div>"
            "<div class='footer'>绍兴市第一中学 版权所有</div></body></html>")
    (tmp_path / "page.html").write_text(page, encoding="utf-8")
    parsed = parse_file(tmp_path / "page.html", LIMIT)
    assert parsed.text.split("\n")[0].lstrip("# ") == "关于开展“基础教育精品课” 市级遴选工作的通知"
    assert "教科室" not in parsed.text
    # a page whose <title> names no heading gains none
    assert not html_to_text("p.html", page.replace("关于开展“基础教育精品课” 市级遴选工作的通知-", "首页-"),
                            whole=True).startswith("#")
