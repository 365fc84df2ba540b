"""Reasoning kept apart from the answer: extraction reads only the answer.

A reasoning model's thoughts come in a field of the message (``reasoning_content``, as vLLM's reasoning parsers
and DeepSeek send; ``reasoning``, as some other servers do) or in the content itself, before a ``</think>`` (in a
``<think>...</think>`` block, or after an opening ``<think>`` the chat template put in the prompt). The answer is
the content after the first ``</think>``, or all of it when there is none; a content that opens ``<think>`` and
never closes it (a reply cut while thinking) is all reasoning and has no answer.
"""

from __future__ import annotations

import re
from typing import Any

REASONING_FIELDS = ("reasoning_content", "reasoning")
_THINK = re.compile(r"\A\s*(?:<think>)?(?P<reasoning>.*?)</think>\s*", re.DOTALL)
_OPEN_ONLY = re.compile(r"\A\s*<think>(?P<reasoning>.*)\Z", re.DOTALL)


def split_reasoning(message: dict[str, Any]) -> tuple[str | None, str | None]:
    """``(reasoning, answer)`` of a chat-completion message; either is None when there is none."""
    parts = [str(message[name]) for name in REASONING_FIELDS if message.get(name)]
    content = message.get("content")
    if content:
        think = _THINK.match(content) or _OPEN_ONLY.match(content)
        if think is not None:
            parts.append(think.group("reasoning").strip())
            content = content[think.end() :]
    return "\n\n".join(parts) or None, content or None
