"""A table of labels and their values, read as a person reads it: each row one field, `label：value`.

A procurement notice's 项目编号 | SZ-2025-0371 / 预算金额 | 100000元, a company profile's 单位名称 | … / 法定代表人 | …, a
form filled in: two columns, the first one's cells short names of what the second gives, no header row. Read under
its first row as a header, every row was quoted `项目编号：预算金额；SZ-2025-0371：100000元` and the first row's own value
was never quoted. The first row is a header only when its cells are column names (名称 | 数量, 项目 | 内容, 姓名 | 电话):
then the table is a list of things under them, not of fields.
"""
from __future__ import annotations

import re
from typing import Sequence

MIN_FIELDS = 2  # rows: one row of two cells is a header or a field, which nothing tells apart
FIELD_WIDTHS = (2, 4, 6)  # columns of a table of fields: one pair of label and value a row, or two or three side by side
MAX_LABEL = 16  # characters of a label (本项目是否接受联合体投标, 12); longer, the first column holds text, not names
MAX_COLUMN_NAME = 4  # characters of a column's name (联系电话, 风险等级, 可能后果); 某某采购项目 is a value
# A plan's indicator table names its value column by the year (指标 | 2025年, 2025年目标值); a date is a value
_YEAR_COLUMN = re.compile(r"(?:19|20)[0-9]{2}年(?:底|末)?(?:目标|预期|实际)?值?")
_LABEL_PUNCT = re.compile(r"[。；;，,！？!?|]")  # a label is a name, not a clause
_CJK = re.compile(r"[\u4e00-\u9fff]")
_DIGIT = re.compile(r"[0-9０-９]")
# The words a table's column is named by (its header cell is one, or ends in one: 物资名称, 联系电话, 风险等级): a first
# row whose value cell is such a name heads the columns below it; a field's value (SZ-2025-0371, 某某有限公司, 否) is
# none of them.
COLUMN_WORDS = tuple(
    "名称 数量 备注 内容 说明 事项 项目 类别 类型 种类 指标 数值 标准 要求 金额 单位 时间 日期 地点 地址 电话 方式 姓名 "
    "职务 职责 职位 情况 等级 依据 序号 规格 型号 价格 单价 范围 对象 条件 分值 得分 比例 措施 部门 负责人 联系人 人员 "
    "用途 位置 来源 结果 后果 描述 值 参数 年限 期限 费用 条款 内容及要求 评分标准 分数 目标 任务 责任单位 完成时限 "
    "数 数目 职能 联系方式 手机 邮箱 传真 岗位 分工 成员 级别 面积 容量 规模 危害 影响 原因 问题 建议 意见 做法 举措 "
    "责任人 主体 重点 分类 性质 特征 形式 程序 流程 环节 材料 文件 处罚 罚则 处理".split())


def is_label_table(rows: Sequence[Sequence[str]]) -> bool:
    """The table's rows (its cells, rule lines left out) are fields, label then value: two columns (or four or six,
    a form's pairs side by side: 项目编号 | … | 项目名称 | …), every label cell a short name, each label once, and a
    first row that is no header (none of its value cells names a column)."""
    if rows and len(rows[0]) == 1:
        return False  # a caption row above the table: whether its first row is a header is not known here
    rows = [r for r in rows if len(r) > 1]  # a row of one cell spans the table (二、采购需求): a section, as in a form
    width = len(rows[0]) if rows else 0
    if len(rows) < MIN_FIELDS or width not in FIELD_WIDTHS or any(len(r) != width for r in rows):
        return False
    labels = [c.strip().rstrip("：:") for r in rows for c in r[::2]]
    if not all(_is_label(label) for label in labels) or len(set(labels)) != len(labels):
        return False
    if any(_names_column(c.strip()) for c in rows[0][1::2]):
        return False
    # a name above numbers (地区 | 人口 / 北京 | 2189万): the first row's values hold no digit, every other row's do
    first, rest = rows[0][1::2], [c for r in rows[1:] for c in r[1::2]]
    return not (not any(_DIGIT.search(c) for c in first) and all(_DIGIT.search(c) for c in rest))


def _is_label(cell: str) -> bool:
    return (0 < len(cell) <= MAX_LABEL and bool(_CJK.search(cell)) and not _LABEL_PUNCT.search(cell)
            and not _DIGIT.match(cell))


def _names_column(cell: str) -> bool:
    """The cell is a column's name (数量, 联系电话, 风险等级): a word of COLUMN_WORDS, or a short word ending in one;
    a value that ends in one is longer (某某采购项目, 市应急管理局)."""
    return (cell in COLUMN_WORDS or (len(cell) <= MAX_COLUMN_NAME and cell.endswith(COLUMN_WORDS))
            or bool(_YEAR_COLUMN.fullmatch(cell)))
