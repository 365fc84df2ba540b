"""The multi-file reply format: parsing, rendering, and the reasons given for malformed replies."""

from __future__ import annotations

import pytest

from simcodebench.agents.extract import ExtractionError
from simcodebench.agents.multifile import parse_files, read_tree, render_files, write_tree

REPLY = """Here is the case.

```foam path=system/controlDict
application icoFoam;
```

Some words between blocks.

```sh path=Allrun
#!/bin/sh
icoFoam > log.icoFoam 2>&1
```

``` path="0/U"
internalField uniform (0 0 0);
```
"""


def test_parses_paths_in_order_with_or_without_language():
    files = parse_files(REPLY)
    assert list(files) == ["system/controlDict", "Allrun", "0/U"]
    assert files["Allrun"] == "#!/bin/sh\nicoFoam > log.icoFoam 2>&1\n"
    assert files["0/U"] == "internalField uniform (0 0 0);\n"


def test_render_then_parse_round_trips_including_inner_fences():
    files = {
        "README": "a\n```\nb\n```\n",
        "system/fvSchemes": "ddtSchemes { default Euler; }\n",
        "Allrun": "#!/bin/sh\n",
    }
    text = render_files(files, "foam")
    assert "```sh path=Allrun" in text and "````foam path=README" in text
    assert parse_files(text) == files


def test_normalises_dot_segments():
    assert list(parse_files("```foam path=./system//fvSolution\nx\n```")) == ["system/fvSolution"]


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        (None, "the reply is empty"),
        ("   \n", "the reply is empty"),
        ("No code, sorry.", "no fenced file blocks"),
        ("```foam path=0/U\na\n```\n```foam\nb\n```", "block 2 (```foam) names no file"),
        ("```foam path=0/U\na\n```\n```foam path=0/U\nb\n```", "'0/U' is given twice (blocks 1 and 2)"),
        ("```foam path=../escape\na\n```", "escapes the case directory"),
        ("```foam path=/etc/passwd\na\n```", "escapes the case directory"),
        ("```foam path=system/../../x\na\n```", "escapes the case directory"),
        ("```foam path=a\\\\b\na\n```", "must use '/'"),
        ("```foam path=.\na\n```", "names the case directory itself"),
        ("```foam path=run.json\na\n```", "reserved by the harness"),
        ("```foam path=0\na\n```\n```foam path=0/U\nb\n```", "'0' is both a file and a folder"),
        ("```foam path=\na\n```", "has an empty path="),
    ],
)
def test_malformed_replies_are_rejected_with_the_reason(reply, reason):
    with pytest.raises(ExtractionError) as error:
        parse_files(reply)
    assert reason in str(error.value)


def test_write_tree_makes_scripts_executable_and_read_tree_reads_back(tmp_path):
    files = {"Allrun": "#!/bin/sh\necho hi\n", "system/controlDict": "application icoFoam;\n"}
    entries = write_tree(files, tmp_path)
    assert [e["name"] for e in entries] == ["Allrun", "system/controlDict"]
    assert (tmp_path / "Allrun").stat().st_mode & 0o111
    assert not (tmp_path / "system" / "controlDict").stat().st_mode & 0o111
    assert read_tree(tmp_path) == files
