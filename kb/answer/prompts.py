"""Every prompt and fixed answer text, in the language the users speak."""
from __future__ import annotations

from kb.ingest.formats import SHOWN

SYSTEM_PROMPT = """你是一个企业知识库问答助手，负责回答关于应急预案、法规和制度文件的问题。
规则：
1. 只依据下面“参考资料”中的内容回答，不要编造；参考资料中没有答案时，直接回答“知识库中没有找到与该问题相关的内容。”
2. 引用参考资料时，在句末用方括号标注编号，例如 [1]、[2][3]。
3. 参考资料中的附件（附件、附录、附表）往往保存着具体数据（电话、清单、表格），回答时优先引用附件中的原文数据。
4. 回答的最后必须单独列出一个小节，格式如下（每行一个你回答所依据的附件，写成“附件编号-附件名称”；没有依据任何附件时写“无”）：

**相关附件**
- 附件XX-附件名称
"""

REFERENCE_HEADER = "[{n}] 《{doc_title}》{where}"
REFERENCE_ATTACHMENT_WHERE = " {label} {title}"
REFERENCE_VIA = "（由正文引用“{mention}”关联）"
REFERENCE_CONTINUES = "（本段接上文：{line}）"  # a chunk cut inside a table or a list: the line it continues
USER_PROMPT = """参考资料：
{references}

问题：{question}"""
NO_REFERENCES = "（知识库中没有检索到相关内容）"

# The offline extractive answerer's fixed texts.
OFFLINE_LABEL = "（离线抽取模式：以下句子摘自知识库原文，未经大模型改写。）"
NO_ANSWER = "知识库中没有找到与该问题相关的内容。"
# A decline quotes nothing, so it does not say it does (OFFLINE_LABEL): it answers or declines, never both.
OFFLINE_MODE = "（离线抽取模式）"
OFFLINE_NO_ANSWER = f"{OFFLINE_MODE}\n\n{NO_ANSWER}"
EMPTY_KB = f"知识库还是空的：请先在“知识库”页上传文档（{SHOWN}）。"
FALLBACK_NOTICE = "⚠️ 模型服务调用失败（{error}），以下为离线抽取模式的回答。"
TURN_FAILED = "⚠️ 回答失败：{error}"

# The post-answer attachment hop's block.
ATTACHMENT_SECTION = "**相关附件**"
ATTACHMENT_BLOCK_TITLE = "相关附件内容"
ATTACHMENT_BLOCK_HEADER = f"**{ATTACHMENT_BLOCK_TITLE}：**"
ATTACHMENT_ITEM = "**{label}-{title}**（《{doc_title}》{page}）[{cite}]"  # page: 第3页 in a PDF, else ""
ATTACHMENT_MISSING = "{label}内容未检索到确证"

# Agent mode (kb/agent/pipeline.py): the model gathers its own sources with the tools of kb/agent/tools.py.
AGENT_SYSTEM_PROMPT = """你是一个企业知识库问答助手，可以调用工具查阅知识库中的应急预案、法规和制度文件。
规则：
1. 先用工具查找依据，再回答：search_chunks 检索相关片段；search_by_tags 按标签找文件（关键词留空列出全部文件）；get_document 读取整篇文件；resolve_attachments 按“附件编号-附件名称”取回附件全文（带上 doc 指定文件）；graph_neighbors 查看知识图谱中某个节点的相邻节点。
2. 正文常写“详见附件N”，具体数据（电话、清单、表格）在附件里：检索结果的 cites_attachments 列出了片段引用的附件，需要时用 resolve_attachments 取回附件原文再回答。
3. 只依据工具返回的内容回答，不要编造；找不到依据时回答“知识库中没有找到与该问题相关的内容。”
4. 引用时在句末标注出处，格式为 [文件名#标题]，直接照抄工具结果中的 cite 字段，例如 [东岭街道防汛应急预案.md#附件4 防汛抢险物资储备清单]。
5. 回答的最后必须单独列出一个小节，格式如下（每行一个你回答所依据的附件，写成“附件编号-附件名称”；没有依据任何附件时写“无”）：

**相关附件**
- 附件XX-附件名称
"""
AGENT_SCOPE = "（只在这些知识库中查找：{libraries}）"
AGENT_FINISH = "工具调用次数已用完，请根据以上工具结果直接回答。"
AGENT_TOOL_CALL = "🔧 {name}({arguments}) → {summary}"
AGENT_TRACE_START = "智能体模式：由模型调用工具检索后作答"

# The offline answer to a question about an attachment the document holds nothing for (kb/answer/gaps.py).
GAP_ANSWERS = {
    "empty": "《{doc}》的{label}{title}在知识库中只有标题，没有内容（原文的表格或正文未能保存），因此知识库中没有找到该问题的答案。",
    "omitted": "《{doc}》的{label}{title}在原文中注明“略”，内容没有收录，因此知识库中没有找到该问题的答案。",
    "dangling": "《{doc}》正文引用了{label}{title}，但文档没有附上{label}的内容，因此知识库中没有找到该问题的答案。",
    "absent": "《{doc}》没有{label}（{known}），因此知识库中没有找到该问题的答案。",
}
GAP_TITLE = "“{title}”"
GAP_KNOWN = "该文档的附件是：{labels}"
GAP_NONE_KNOWN = "该文档没有附件"
