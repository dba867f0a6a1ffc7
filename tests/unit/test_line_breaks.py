"""A text whose line breaks were lost reads as the lines a reader sees; a text with its lines is left as it is."""
from __future__ import annotations

from kb.ingest.assemble import build_document
from kb.ingest.line_breaks import restore_line_breaks
from kb.ingest.parsing import parse_file

# 济南柴油机's notice as a Java string held it: one line, sections, points, the list and both attachments glued.
ONE_LINE = (
    "济南柴油机股份有限公司关于召开2014年年度股东大会的提示性公告现将有关会议事项提示公告如下：一、召开会议基本情况"
    "（一）会议召集人：济南柴油机股份有限公司董事会（二）现场会议召开时间：2015年6月12日下午14：00时。（三）网络投票"
    "时间：1、通过深圳证券交易所交易系统投票的时间为2015年6月12日上午9:30－11:30；2、通过互联网投票系统投票时间为"
    "2015年6月11日15:00至2015年6月12日15:00。（四）现场会议召开地点：山东省济南市经十西路11966号公司办公楼319会议室"
    "二、会议审议事项1、审议公司《2014年度董事会报告》。2、审议公司《2014年度监事会报告》。3、审议公司《2014年度财务"
    "报告》。三、现场股东大会登记方法（一）登记方法：到公司证券办公室办理登记手续。（二）登记地点及联系方式1、登记地点："
    "证券办公室；2、邮编：250306；3、联系人：余良刚、王云岗四、网络投票的安排网络投票的投票程序及要求详见本通知附件一。"
    "特此公告。附件：1、网络投票程序及要求2、授权委托书格式济南柴油机股份有限公司董事会二〇一五年六月六日"
    "附件一：网络投票程序及要求一、采用深交易系统投票的投票程序1、投票代码：360617；投票简称：济柴投票2、买卖方向为"
    "买入投票。二、采用互联网投票的投票程序1、股东根据服务密码登录投票。附件二：授权委托书兹全权委托先生（女士）代表"
    "我单位（个人）出席济南柴油机股份有限公司2014年年度股东大会。注：1、每个项目只能选一项，并打√。2、以上委托书复印"
    "及剪报均为有效。"
)


def test_a_notice_on_one_line_reads_as_its_sections_points_list_and_attachments():
    lines = restore_line_breaks(ONE_LINE).split("\n")
    assert restore_line_breaks(ONE_LINE).replace("\n", "") == ONE_LINE  # breaks put back, nothing else changed
    for line in ["一、召开会议基本情况", "（一）会议召集人：济南柴油机股份有限公司董事会",
                 "（四）现场会议召开地点：山东省济南市经十西路11966号公司办公楼319会议室", "二、会议审议事项",
                 "1、审议公司《2014年度董事会报告》。", "三、现场股东大会登记方法", "（一）登记方法：到公司证券办公室办理登记手续。",
                 "（二）登记地点及联系方式", "3、联系人：余良刚、王云岗", "附件：", "2、授权委托书格式",
                 "附件一：网络投票程序及要求", "一、采用深交易系统投票的投票程序", "2、买卖方向为买入投票。",
                 "附件二：授权委托书", "2、以上委托书复印及剪报均为有效。"]:
        assert line in lines


def test_a_one_line_file_is_read_into_its_body_list_and_attachments(tmp_path):
    path = tmp_path / "提示性公告.txt"
    path.write_text(ONE_LINE, encoding="utf-8")
    doc = build_document("t", parse_file(path, 1 << 20))
    assert [(a.label, a.title) for a in doc.attachments] == [("附件1", "网络投票程序及要求"), ("附件2", "授权委托书")]
    assert doc.text[doc.attachments[0].start:].startswith("附件一：网络投票程序及要求\n一、采用")
    assert [(r.label, r.target) for r in doc.references] == [("附件1", "附件1")]  # 详见本通知附件一; the list is no mention
    body = [c for c in doc.chunks if c.attachment == ""]
    assert body and all("投票代码" not in c.text for c in body)


def test_lines_that_run_no_sections_together_are_left_as_they_are():
    for text in [
        "有下列情形之一的，责令改正：（一）未按规定报告的；（二）拒绝检查的；（三）伪造记录的。\n第二条 本办法自公布之日起施行。",
        "应急响应分为一、二、三级，一级为最高级别。",
        "附件一 辅助指挥、联络的符号和信号（略） 附件二 飞行高度层配备标准示意图（略）",
        "一、总则\n（一）目的：规范管理。1、适用范围；2、工作原则。\n二、组织机构",
        "时间为2015年6月12日上午9:30－11:30，1.00元代表议案1，2.00元代表议案2。",
    ]:
        assert restore_line_breaks(text) == text
