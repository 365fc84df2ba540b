from __future__ import annotations

import pytest

from simcodebench.agents.extract import ExtractionError, extract_code, fenced_blocks


def test_picks_the_longest_python_block():
    text = "Plan:\n```python\nx = 1\n```\nthen\n```python\nimport numpy\ny = 2\n```\n```bash\nls\n```\n"
    assert extract_code(text, "python") == "import numpy\ny = 2\n"


def test_aliases_and_untagged_fallback():
    assert extract_code("```py\nprint(1)\n```", "python") == "print(1)\n"
    assert extract_code("here:\n```\nprint(2)\n```\n", "python") == "print(2)\n"


def test_longer_fences_hold_inner_fences():
    text = "````python\ns = '''\n```\n'''\n````\n"
    assert extract_code(text, "python") == "s = '''\n```\n'''\n"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "empty"),
        ("I cannot help with that.", "no fenced code block"),
        ("```bash\nls\n```", "none in python"),
        ("```\na\n```\n```\nb\n```", "none in python"),
    ],
)
def test_unextractable_replies_say_why(text, reason):
    with pytest.raises(ExtractionError, match=reason):
        extract_code(text, "python")


def test_block_languages_are_read_from_the_info_string():
    blocks = fenced_blocks("```C++ title\nint main(){}\n```\n")
    assert blocks[0].language == "c++"
