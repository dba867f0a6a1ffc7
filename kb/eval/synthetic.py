"""A synthetic corpus at any scale: plan-like Chinese documents whose attachments are cited in every form.

Each document has numbered attachments under the header forms real plans use (附件1：…, 附件2-…, 附件 3 …, a
bare 附件4 above its title, 附件3-1, 附录A …), a table of contents in some, and a body that cites them as
详见附件N, 见附件N, （附件N）, 按附件十二执行, 附件一和附件二, 附件五、六, 附件3-1, 附录 B and 本预案所附《标题》,
plus a dangling mention and the 压力容器安全附件 trap. Some attachments cite the next one (chains such as
body → 附件4 → 附件5). Every tenth document arrives pre-split (a folder with 附件N-标题.md files), every
twenty-fifth as .docx, every seventh as .txt. The facts live in attachment tables, so each document yields a
question whose answer only an attachment holds.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

CITIES = "临江 青禾 秦川 江城 示范 东陵 南浦 西岭 北塬 清河 云溪 石门 桐华 兰亭 松山 白沙 金水 玉泉 长宁 安平".split()
ORGS = (
    "化工园区 人民医院 物流园 街道办事处 工业园区 污水处理厂 燃气公司 水务集团 高铁站 港区 第一中学 商业综合体 "
    "地铁运营公司 热电厂 粮食储备库 数据中心 体育中心 客运站 自来水厂 垃圾焚烧厂"
).split()
EVENTS = "突发环境事件 火灾事故 防汛 危险化学品泄漏 地震灾害 大面积停电 公共卫生事件 特种设备事故 燃气泄漏 人员踩踏事件".split()
TITLES = (
    "应急指挥部成员及联系方式 应急物资清单 应急救援队伍名单 环境风险物质清单 重点单位风险单元一览表 应急响应流程 "
    "环境敏感目标分布 突发事件信息报告表 事故废水三级防控体系 人员疏散路线及集合点 外部救援力量联系方式 应急监测方案 "
    "事故应急池一览表 应急救援互助协议清单 应急培训与演练年度计划 避难场所一览表 重点防护目标清单 应急车辆配置表 "
    "医疗救护力量分布 通信保障方案 值班值守制度 后勤保障方案 应急专家组名单 预案修订记录"
).split()
ITEMS = (
    "围油栏 吸附棉 冲锋舟 救生衣 编织袋 移动排水泵 柴油发电机 正压式空气呼吸器 重型防化服 便携式气体检测仪 担架 "
    "防爆对讲机 应急照明灯 灭火器 消防水带 堵漏工具箱 洗消帐篷 应急沙袋 活性炭 警戒带 急救箱 应急广播 救生圈 帐篷"
).split()
UNITS = {"围油栏": "米", "吸附棉": "千克", "编织袋": "条", "活性炭": "吨", "应急沙袋": "个", "警戒带": "卷"}
ROLES = "总指挥 副总指挥 办公室主任 综合协调组组长 抢险救援组组长 医疗救护组组长 治安疏散组组长 后勤保障组组长 宣传组组长".split()
SURNAMES = "王李张刘陈杨赵黄周吴徐孙胡朱高林何郭马罗梁宋郑谢韩唐冯于董萧程曹袁邓许傅沈曾彭吕苏卢蒋蔡贾丁魏薛叶阎"
GIVEN = "国伟建军立华明海涛静丽敏强磊洋勇艳杰娟涛超秀英霞平刚桂芳文斌志宇晨浩然思远雅琴振东"
FILLER = (
    "各有关单位应当按照职责分工，做好本单位突发事件的预防和应急准备工作",
    "应急管理工作坚持以人为本、预防为主、统一领导、分级负责的原则",
    "发生突发事件后，事发单位应当立即采取措施控制事态发展，并按规定报告",
    "指挥部办公室负责日常值守、信息汇总和综合协调，实行二十四小时值班制度",
    "各工作组接到指令后应当迅速集结，按照职责分工开展先期处置",
    "应急响应终止后，指挥部组织开展善后处置和总结评估，提出改进措施",
    "各单位应当定期开展隐患排查，建立台账，落实整改责任和整改时限",
    "预警信息应当包括事件类别、预警级别、起始时间、可能影响范围和应采取的措施",
    "需要疏散人员时，按照先近后远、先重点后一般的顺序组织有序撤离",
    "应急物资实行分类储存、专人管理，定期检查维护，发现缺失和过期的及时补充",
    "事态超出本单位处置能力时，应当及时请求上级部门和外部救援力量支援",
    "各单位每年至少组织一次综合应急演练，演练结束后及时开展评估",
    "信息发布应当及时、准确、客观，统一由宣传组组织发布",
    "现场处置应当根据事件类型和发展态势，采取隔离、封堵、稀释、收集等措施",
    "生产装置因设备老化、压力容器安全附件失效等原因导致泄漏的，应当立即停车处置",
)
CHAPTERS = "总则 基本情况与风险分析 组织机构及职责 预防与预警 应急响应 后期处置 应急保障 附则".split()
_CN = "零一二三四五六七八九"


@dataclass(frozen=True)
class Fact:
    """A question whose answer only one attachment holds."""

    question: str
    answer: str
    label: str


@dataclass(frozen=True)
class SyntheticDoc:
    """One generated document: its main file, title, attachments (label, title) and a fact to ask about."""

    name: str
    title: str
    attachments: tuple[tuple[str, str], ...]
    fact: Fact


def chinese_number(n: int) -> str:
    """1..99 as a Chinese numeral (十二, 二十三)."""
    tens, ones = divmod(n, 10)
    return (("" if tens == 1 else _CN[tens]) + "十" if tens else "") + (_CN[ones] if ones or not tens else "")


def labels_for(count: int) -> list[str]:
    """`count` labels: 附件1…, with 附件3-1 after 附件3 from 5 on, and 附录A/附录B at the end from 8 on."""
    extras = (1 if count >= 5 else 0) + (2 if count >= 8 else 0)
    labels = [f"附件{n}" for n in range(1, count - extras + 1)]
    if count >= 5:
        labels.insert(3, "附件3-1")
    if count >= 8:
        labels += ["附录A", "附录B"]
    return labels


def generate(root: Path, docs: int, attachments_per_doc: int, seed: int = 0) -> list[SyntheticDoc]:
    """Write the corpus under root and describe what was written."""
    root.mkdir(parents=True, exist_ok=True)
    return [_write(root, i, max(1, attachments_per_doc), random.Random(seed * 1_000_003 + i)) for i in range(docs)]


def _title(i: int) -> tuple[str, str]:
    city, org = CITIES[i % 20], ORGS[(i // 20) % 20]
    event = EVENTS[(i // 400) % 10]
    suffix = f"（第{i // 4000 + 1}版）" if i >= 4000 else ""
    return f"{city}{org}", f"{city}{org}{event}应急预案{suffix}"


def _person(rng: random.Random) -> str:
    return rng.choice(SURNAMES) + "".join(rng.choice(GIVEN) for _ in range(rng.randint(1, 2)))


def _phone(rng: random.Random) -> str:
    return f"0{rng.randint(100, 999)}-{rng.randint(8000_0000, 8999_9999)}"


def _write(root: Path, i: int, count: int, rng: random.Random) -> SyntheticDoc:
    owner, title = _title(i)
    labels = labels_for(count)
    titles = [TITLES[(i + k) % len(TITLES)] for k in range(len(labels))]
    bodies = {label: _attachment_body(rng, labels, k) for k, label in enumerate(labels)}
    fact_label = labels[min(1, len(labels) - 1)]
    item, quantity, place = _stock_row(rng)
    bodies[fact_label] = f"{owner}应急物资库{item}储备{quantity}，存放于{place}。\n" + bodies[fact_label]
    fact = Fact(f"{owner}的{item}储备有多少？", quantity, fact_label)
    headers = [_header(label, t, k) for k, (label, t) in enumerate(zip(labels, titles))]
    body = _body(rng, owner, title, labels, titles, toc=i % 3 == 0)
    name = f"{title}.md"
    if i % 10 == 9:  # pre-split: the attachments arrive as their own files beside the main document
        folder = root / f"{title}"
        folder.mkdir(exist_ok=True)
        (folder / name).write_text(body, encoding="utf-8")
        for label, t, header in zip(labels, titles, headers):
            (folder / f"{label}-{t}.md").write_text(f"{header}\n\n{bodies[label]}", encoding="utf-8")
    else:
        text = body + "".join(f"\n\n{header}\n\n{bodies[label]}" for label, header in zip(labels, headers))
        if i % 25 == 24:
            name = f"{title}.docx"
            _write_docx(root / name, text)
        elif i % 7 == 6:
            name = f"{title}.txt"
            (root / name).write_text(text.replace("# ", ""), encoding="utf-8")
        else:
            (root / name).write_text(text, encoding="utf-8")
    return SyntheticDoc(name, title, tuple(zip(labels, titles)), fact)


def _header(label: str, title: str, k: int) -> str:
    """The header forms of real documents, in turn."""
    if "-" in label or label.startswith("附录"):
        return f"{label}：{title}" if "-" in label else f"{label} {title}"
    number = label[2:]
    return (f"附件{number}：{title}", f"附件{number}-{title}", f"附件 {number} {title}", f"附件{number}\n{title}")[k % 4]


def _stock_row(rng: random.Random) -> tuple[str, str, str]:
    item = rng.choice(ITEMS)
    unit = UNITS.get(item, "套")
    return item, f"{rng.randint(2, 900)}{unit}", f"{rng.choice('东西南北')}区{rng.randint(1, 9)}号仓库"


def _attachment_body(rng: random.Random, labels: list[str], k: int) -> str:
    """A table of about 600 characters; some attachments cite the next one (a chain)."""
    lines = ["序号 | 名称 | 数量 | 存放地点 | 负责人 | 联系电话"]
    for n in range(1, 10):
        item, quantity, place = _stock_row(rng)
        lines.append(f"{n} | {item} | {quantity} | {place} | {_person(rng)} | {_phone(rng)}")
    note = [f"注：本表由{rng.choice(ROLES)}负责每季度更新一次。"]
    if k % 3 == 1 and k + 1 < len(labels):
        note.append(f"各岗位负责人的联系方式见{labels[k + 1]}。")
    if labels[k] == "附件3" and "附件3-1" in labels:
        note.append("各单位风险单元的具体分布见附件3-1。")
    return "\n".join(lines + note)


def _body(rng: random.Random, owner: str, title: str, labels: list[str], titles: list[str], toc: bool) -> str:
    """The body: chapters of plan prose with every attachment cited, in a different form each time."""
    mentions = []
    plain = [(label, t) for label, t in zip(labels, titles) if label[2:].isdigit()]
    forms = (
        "{t}的具体内容详见{label}。", "{t}见{label}。", "{t}（{label}）由指挥部办公室每年更新一次。",
        "{t}按附件{cn}执行。", "各单位应当对照本预案所附《{t}》每月检查一次。",
    )
    for n, (label, t) in enumerate(plain):
        mentions.append(forms[n % len(forms)].format(t=t, label=label, cn=chinese_number(int(label[2:]))))
    if len(plain) >= 2:
        mentions.append("本预案正文与附件一和附件二共同构成应急工作的基础资料。")
    if len(plain) >= 6:
        mentions.append("响应流程和敏感目标的核查分别见附件五、六。")
    if "附件3-1" in labels:
        mentions.append("重点单位风险单元的分布情况见附件3-1。")
    if "附录A" in labels:
        mentions += ["历次修订情况记录于附录 B。", "专家组成员名单见附录A。"]
    mentions.append(f"应急通信网络拓扑详见附件{len(plain) + 5}。")  # dangling: no such attachment
    rng.shuffle(mentions)
    lines = [f"# {title}", "", owner, f"2024年{rng.randint(1, 12)}月", ""]
    if toc:
        lines += ["目  录"] + [f"{label}：{t}\t{40 + 3 * n}" for n, (label, t) in enumerate(zip(labels, titles))] + [""]
    per_chapter = -(-len(mentions) // len(CHAPTERS))
    for c, chapter in enumerate(CHAPTERS):
        lines.append(f"## 第{chinese_number(c + 1)}章 {chapter}")
        sentences = rng.sample(FILLER, 6) + mentions[c * per_chapter : (c + 1) * per_chapter]
        rng.shuffle(sentences)
        lines.append("。".join(s.rstrip("。") for s in sentences) + "。")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def _write_docx(path: Path, text: str) -> None:
    import docx

    document = docx.Document()
    for line in text.split("\n"):
        if line.startswith("# "):
            document.add_heading(line[2:], level=1)
        elif line.startswith("## "):
            document.add_heading(line[3:], level=2)
        else:
            document.add_paragraph(line)
    document.save(str(path))
