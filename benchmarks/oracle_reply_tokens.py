"""Per suite: the longest oracle reply, in characters and in tokens (SmolLM2's tokenizer when given)."""
import sys
from simcodebench.core.cases import load_suite_cases, suite_folders
from simcodebench.core.project import cases_root
from simcodebench.agents.backends.oracle import oracle_reply

tok = None
if len(sys.argv) > 1:
    import llama_cpp
    llm = llama_cpp.Llama(model_path=sys.argv[1], vocab_only=True, verbose=False)
    tok = lambda t: len(llm.tokenize(t.encode(), add_bos=False, special=False))
for folder in suite_folders(cases_root()):
    sizes = []
    for case in load_suite_cases(folder):
        try:
            text = oracle_reply(case)
        except Exception as exc:  # noqa
            print(folder.name, case.id, "no oracle", exc, file=sys.stderr); continue
        sizes.append(((tok(text) if tok else len(text)), len(text), case.id))
    sizes.sort()
    n = len(sizes)
    print(folder.name, n, "cases; longest:", sizes[-1], "median:", sizes[n // 2])
