"""Lines that share a question's words and give none of what it asks: a careful reader declines (the document does
not say) — a blank template asked how a value is made, a rule left to be made elsewhere, a count in another measure,
a sample the text says it attaches and does not carry."""
from __future__ import annotations

from kb.answer.asked_measure import asked_measure
from kb.answer.offline import ExtractiveAnswerer
from kb.turn import Source

RULES = "\n".join([
    "第五条 申请人应当如实填写用地登记表，并对所填内容的真实性负责。",
    "第六条 登记机关应当自受理之日起10个工作日内完成审核。",
    "第七条 登记证由登记机关按本规定所附样式统一印制。",
    "具体的电子申报格式和报送要求由自然资源主管部门另行规定。",
    "第八条 报名时间另行通知。",
    "第九条 各代表队须在赛前签到，迟到的代表队，跳绳、接力两个项目取消成绩。",
])
FORM = "\n".join([
    "附件",
    "用地登记表",
    "登记表编号：  登记机关：",
    "申请人姓名 |  | 联系电话 | ",
    "用地位置 | ",
    "用地面积 | ",
    "审核意见 | ",
])


def source(n: int, label: str, title: str, text: str, doc: str = "d1") -> Source:
    return Source(n, doc, "用地登记办法", "lib", label, title, text, ((0, len(text)),), (f"c{n}",), 1.0)


def quoted(question: str, sources: list[Source]) -> list[str]:
    return [c.text for c in ExtractiveAnswerer().select_parts(question, sources)]


WITH_FORM = [source(1, "", "", RULES), source(2, "附件", "用地登记表", FORM)]
BODY_ONLY = [source(1, "", "", RULES)]


def test_a_blank_templates_labels_do_not_say_how_its_number_is_made():
    assert quoted("用地登记表的编号是怎么编的？", WITH_FORM) == []
    assert any("联系电话" in line for line in quoted("用地登记表要填哪些内容？", WITH_FORM))  # what to fill in


def test_a_matter_left_to_a_rule_made_elsewhere_is_not_set_here():
    assert quoted("电子申报要按什么格式报送？", BODY_ONLY) == []
    assert quoted("什么时候报名？", BODY_ONLY) == ["第八条 报名时间另行通知。"]  # when: to be announced, as it says


def test_a_sample_the_text_says_it_attaches_is_not_there_when_nothing_is_attached():
    assert quoted("登记证的样式是怎样的？", BODY_ONLY) == []
    held = quoted("登记证的样式是怎样的？", [*BODY_ONLY, source(3, "附件2", "登记证样式", "附件2\n登记证样式\n编号：\n持证人：")])
    assert held, held  # the document carries an attachment: the pointer leads to it


def test_a_count_of_people_is_not_answered_by_a_count_of_events():
    assert asked_measure("接力赛每队可以派几个人参加？") == "人"
    assert quoted("接力赛每队可以派几个人参加？", BODY_ONLY) == []


def test_the_list_of_attachments_copies_the_notices_own_list_not_the_attached_files_names():
    from graph.resolve import AttachmentCatalog
    from graph.store import AttachmentInfo
    from kb.answer.attachment_list import attachment_list_answer

    body = "特此通知。\n\n附件：1、现场报到须知\n2、参会回执样表\n\n某某协会秘书处"
    notice = Source(1, "n1", "关于召开年会的通知", "lib", "", "", body, ((0, len(body)),), ("c1",), 1.0)
    files = AttachmentCatalog([AttachmentInfo("n1", "关于召开年会的通知", "lib", "附件1", "现场报到须知"),
                               AttachmentInfo("n1", "关于召开年会的通知", "lib", "附件2", "参会回执")])
    answer = attachment_list_answer("年会通知有哪些附件？", [notice], files)
    assert "附件2：参会回执样表" in answer and "附件1：现场报到须知" in answer, answer


def test_an_items_later_sentence_goes_on_about_what_its_first_names():
    from kb.answer.units import read_units
    text = "\n".join(["3、需提交的材料：", "（1）《课题申请表》须用黑色签字笔手写。共交5份，正反面打印。", "（2）成果样书2册。"])
    units = read_units(text)
    later = next(u for u in units if u.text.startswith("共交5份"))
    assert later.lead == "（1）《课题申请表》须用黑色签字笔手写。", later  # the item's first sentence, not the list's lead-in
    notice = Source(1, "n1", "关于做好课题申报工作的通知", "lib", "", "", text, ((0, len(text)),), ("c1",), 1.0)
    answer = quoted("课题申请表一共交几份？", [notice])
    assert "共交5份，正反面打印。" in answer, answer


def test_a_count_the_body_gives_answers_though_the_form_it_counts_is_not_attached():
    from kb.answer.gaps import counted_beside
    answer = "（离线抽取模式）\n\n- （1）《课题申请表》须用黑色签字笔手写。 [1]\n- 共交5份，正反面打印。 [1]\n"
    assert counted_beside("课题申请表一共交几份？", answer)
    assert not counted_beside("附件2申请表一共交几份？", answer)  # asked by its label: the attachment is what is asked
    assert not counted_beside("课题申请表要填哪些内容？", answer)
