"""A notice's attachment that carries attachments of its own, numbered again from 1: a notice issues a plan as one of
its 附件1-3, and the plan lists and carries its own 附件1-3. Both numberings survive: the plan's own are parts of the
plan (each begins a chunk), the notice's keep their labels, and a mention names the attachment of the part it is
written in."""
from __future__ import annotations

import pytest

from kb.ingest.assemble import build_document
from kb.model import ParsedFile

COVER = """关于印发《某县防汛应急预案》的通知

各乡镇人民政府，县直各单位：
现将《某县防汛应急预案》印发给你们，请认真贯彻执行。值班报名表见附件{sign}，联系人见附件{contact}。

附件：{listing}

某县人民政府办公室
2023年5月6日
"""
PLAN = """附件{n}

某县防汛应急预案

1 总则
本预案适用于全县防汛工作。指挥部成员单位见附件1，物资储备见附件3。

2 组织机构
县防汛抗旱指挥部负责全县防汛工作，各成员单位联系方式见附件2。

附件：1．指挥部成员单位
2．防汛联系方式
3．物资储备清单

附件1

指挥部成员单位
县水利局、县应急局、县气象局。

附件2

防汛联系方式
县防汛办 0571-1234567。

附件3

物资储备清单
编织袋 5000条，救生衣 300件。
"""
SIGN = "附件{n}\n\n防汛值班报名表\n姓名、单位、值班日期。\n"
CONTACT = "附件{n}\n\n联系人名单\n张三 13800000000。\n"


def _notice(plan_at: int) -> str:
    """The notice with the plan as its 附件1 (then the form and the contacts) or as its last, 附件3."""
    if plan_at == 1:
        cover = COVER.format(sign=2, contact=3, listing="1．某县防汛应急预案\n2．防汛值班报名表\n3．联系人名单")
        return "\n".join([cover, PLAN.format(n=1), SIGN.format(n=2), CONTACT.format(n=3)])
    cover = COVER.format(sign=1, contact=2, listing="1．防汛值班报名表\n2．联系人名单\n3．某县防汛应急预案")
    return "\n".join([cover, SIGN.format(n=1), CONTACT.format(n=2), PLAN.format(n=3)])


@pytest.mark.parametrize("plan_at", [1, 3])
def test_the_plans_own_attachments_are_its_parts_and_the_notices_survive(plan_at):
    text = _notice(plan_at)
    doc = build_document("t", ParsedFile("n.txt", "n.txt", text, "h"))
    plan = f"附件{plan_at}"
    by_label = {a.label: a for a in doc.attachments}
    assert sorted(by_label) == ["附件1", "附件2", "附件3"]
    assert by_label[plan].title == "某县防汛应急预案"
    sign, contact = ("附件2", "附件3") if plan_at == 1 else ("附件1", "附件2")
    assert (by_label[sign].title, by_label[contact].title) == ("防汛值班报名表", "联系人名单")
    held = text[by_label[plan].start:by_label[plan].end]
    for own in ("县水利局、县应急局", "县防汛办 0571-1234567", "编织袋 5000条"):
        assert own in held  # the plan holds its own attachments …
    assert "姓名、单位、值班日期" not in held and "张三" not in held  # … and nothing of the notice's
    # each of the plan's own begins a chunk of the plan, titled by its header
    firsts = [c.text.split("\n\n")[1].split("\n")[0] for c in doc.chunks if c.attachment == plan]
    assert firsts[1:] == ["指挥部成员单位", "防汛联系方式", "物资储备清单"]
    # the body's pointers lead to the notice's attachments; the plan's 见附件2 / 见附件3 are its own, not the notice's
    body = {r.mention: r.target for r in doc.references if r.source == ""}
    assert body[f"见附件{sign[-1]}"] == sign and body[f"见附件{contact[-1]}"] == contact
    assert [r for r in doc.references if r.source == plan and r.target in (sign, contact)] == []


def test_without_its_own_list_the_notices_next_attachment_is_known_by_the_title_its_list_gives():
    text = (COVER.format(sign=2, contact=3, listing="1．某县防汛应急预案\n2．防汛值班报名表\n3．联系人名单")
            + "\n附件1\n\n某县防汛应急预案\n\n1 总则\n本预案适用于全县防汛工作。\n\n附件1\n\n指挥部成员单位\n县水利局。\n\n"
            + SIGN.format(n=2) + "\n" + CONTACT.format(n=3))
    doc = build_document("t", ParsedFile("n.txt", "n.txt", text, "h"))
    assert [(a.label, a.title) for a in doc.attachments] == [
        ("附件1", "某县防汛应急预案"), ("附件2", "防汛值班报名表"), ("附件3", "联系人名单")]
    assert "县水利局" in text[doc.attachments[0].start:doc.attachments[0].end]


def test_attachments_written_once_each_are_no_restart():
    text = (COVER.format(sign=2, contact=3, listing="1．某县防汛应急预案\n2．防汛值班报名表\n3．联系人名单")
            + "\n附件1\n\n某县防汛应急预案\n本预案适用于全县。\n\n" + SIGN.format(n=2) + "\n" + CONTACT.format(n=3))
    doc = build_document("t", ParsedFile("n.txt", "n.txt", text, "h"))
    assert [a.label for a in doc.attachments] == ["附件1", "附件2", "附件3"]
    assert [c.attachment for c in doc.chunks] == ["", "附件1", "附件2", "附件3"]


def test_a_label_written_again_on_each_page_of_its_attachment_starts_no_run():
    # a PDF's 附件1 repeated at the top of each of its pages, then the notice's 附件2: no list of its own, no run
    text = ("关于公布防汛物资储备的通知\n\n各乡镇：储备情况见附件1，责任人见附件2。\n\n某县应急管理局\n2023年5月6日\n\n"
            "附件1\n防汛物资储备表\n| 序号 | 物资 |\n| 1 | 编织袋 |\n附件1\n| 2 | 救生衣 |\n\n附件2\n防汛责任人名单\n张三 县长\n")
    doc = build_document("t", ParsedFile("n.txt", "n.txt", text, "h"))
    assert [(a.label, a.title) for a in doc.attachments] == [("附件1", "防汛物资储备表"), ("附件2", "防汛责任人名单")]
    assert "| 2 | 救生衣 |" in text[doc.attachments[0].start:doc.attachments[0].end]


def test_a_plan_first_without_its_own_list_keeps_its_attachments_the_notices_list_titles_otherwise():
    # the plan is the notice's 附件1 and carries its 附件1-3 with no list of its own; the notice lists 2．防汛值班报名表,
    # so the plan's 附件2 防汛联系方式 is the plan's, and the notice's 附件2 below is the notice's
    plan = PLAN.format(n=1).replace("附件：1．指挥部成员单位\n2．防汛联系方式\n3．物资储备清单\n", "")
    cover = COVER.format(sign=2, contact=3, listing="1．某县防汛应急预案\n2．防汛值班报名表\n3．联系人名单")
    text = "\n".join([cover, plan, SIGN.format(n=2), CONTACT.format(n=3)])
    doc = build_document("t", ParsedFile("n.txt", "n.txt", text, "h"))
    assert [(a.label, a.title) for a in doc.attachments] == [
        ("附件1", "某县防汛应急预案"), ("附件2", "防汛值班报名表"), ("附件3", "联系人名单")]
    held = text[doc.attachments[0].start:doc.attachments[0].end]
    assert "县防汛办 0571-1234567" in held and "编织袋 5000条" in held and "张三" not in held
    firsts = [c.text.split("\n\n")[1].split("\n")[0] for c in doc.chunks if c.attachment == "附件1"]
    assert firsts[1:] == ["指挥部成员单位", "防汛联系方式", "物资储备清单"]
    # the plan's 见附件2 (its 防汛联系方式) does not lead to the notice's 报名表
    assert [r for r in doc.references if r.source == "附件1" and r.target in ("附件2", "附件3")] == []


def test_a_plan_first_without_its_own_list_keeps_the_attachments_the_notices_list_does_not_name():
    # the notice lists 1．预案 2．报名表 and carries them; the plan's 附件3 物资储备清单 is in no list of the notice: the plan's
    plan = PLAN.format(n=1).replace("附件：1．指挥部成员单位\n2．防汛联系方式\n3．物资储备清单\n", "")
    cover = COVER.format(sign=2, contact=2, listing="1．某县防汛应急预案\n2．防汛值班报名表")
    doc = build_document("t", ParsedFile("n.txt", "n.txt", "\n".join([cover, plan, SIGN.format(n=2)]), "h"))
    assert [(a.label, a.title) for a in doc.attachments] == [("附件1", "某县防汛应急预案"), ("附件2", "防汛值班报名表")]
    firsts = [c.text.split("\n\n")[1].split("\n")[0] for c in doc.chunks if c.attachment == "附件1"]
    assert firsts[1:] == ["指挥部成员单位", "防汛联系方式", "物资储备清单"]
