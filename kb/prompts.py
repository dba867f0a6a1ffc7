"""Every prompt and fixed answer text, in the language the users speak."""
from __future__ import annotations

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
USER_PROMPT = """参考资料：
{references}

问题：{question}"""
NO_REFERENCES = "（知识库中没有检索到相关内容）"

# The offline extractive answerer's fixed texts.
OFFLINE_LABEL = "（离线抽取模式：以下句子摘自知识库原文，未经大模型改写。）"
NO_ANSWER = "知识库中没有找到与该问题相关的内容。"
EMPTY_KB = "知识库还是空的：请先在“知识库”页上传文档（.docx / .md / .txt）。"
FALLBACK_NOTICE = "⚠️ 模型服务调用失败（{error}），以下为离线抽取模式的回答。"

# The post-answer attachment hop's block.
ATTACHMENT_SECTION = "**相关附件**"
ATTACHMENT_BLOCK_HEADER = "**相关附件内容：**"
ATTACHMENT_ITEM = "**{label}-{title}**（《{doc_title}》）[{cite}]"
ATTACHMENT_MISSING = "{label}内容未检索到确证"
