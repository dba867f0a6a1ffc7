"""The agent's whole answer, bounded like the plain answerer's stream: ANNEX_LLM_ANSWER_SECONDS over every model call
of the turn, and ANNEX_LLM_MAX_TOKENS (ANSWER_CHARS_PER_TOKEN characters a token) over everything the model wrote.

Each call of the tool loop had only the per-read ANNEX_LLM_TIMEOUT: six rounds of a slow or stalling server, or a
server ignoring max_tokens, kept a visitor's turn (and a worker) for as long as the server liked.
"""
from __future__ import annotations

import time
from typing import Callable

from kb.answer.llm import ANSWER_CHARS_PER_TOKEN
from kb.errors import LLMError
from kb.agent.tool_calls import ToolReply

# A call that failed this close to the deadline failed because of it (its timeout was what was left).
DEADLINE_SLACK_SECONDS = 0.05


class AnswerBudget:
    """What is left of one agent turn's time and length; LLMError in Chinese, naming the setting, once spent."""

    def __init__(self, seconds: float, max_tokens: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.seconds = seconds  # 0: no time limit
        self.max_tokens = max_tokens
        self.clock = clock
        self.started = clock()
        self.written = 0

    def call(self, complete: Callable[[float], ToolReply]) -> ToolReply:
        """complete(seconds left, 0: no limit), refused once the time is spent; its reply counted against the length."""
        left = self._left()
        try:
            reply = complete(left)
        except LLMError as exc:
            if self.seconds and self.clock() - self.started >= self.seconds - DEADLINE_SLACK_SECONDS:
                raise self._time_up() from exc
            raise
        self.written += len(reply.content) + len(reply.thinking) + sum(len(c.arguments) for c in reply.tool_calls)
        cap = self.max_tokens * ANSWER_CHARS_PER_TOKEN
        if self.written > cap:
            raise LLMError(f"智能体模式的模型已写了 {self.written:,} 个字符，远超回答上限（ANNEX_LLM_MAX_TOKENS="
                           f"{self.max_tokens} tokens，约 {cap:,} 字符）：模型服务没有遵守 max_tokens，回答已停止。"
                           "请检查模型服务的设置。")
        return reply

    def _left(self) -> float:
        if not self.seconds:
            return 0.0
        left = self.seconds - (self.clock() - self.started)
        if left <= DEADLINE_SLACK_SECONDS:
            raise self._time_up()
        return left

    def _time_up(self) -> LLMError:
        return LLMError(f"智能体模式的回答超过 {self.seconds:g} 秒（ANNEX_LLM_ANSWER_SECONDS，一次回答的总时限）仍未完成，"
                        "已停止。请再问一次，或为较慢的模型调高 ANNEX_LLM_ANSWER_SECONDS。")
