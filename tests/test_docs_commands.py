"""The docs run what they show: each command of README.md and docs/*.md that a fenced block marks runnable is run
in its quick form, every relative link (and the heading it names) resolves, every page is reachable from the
README, and the README stays a front door of at most 12,000 characters. The markers are documented in
docs/testing.md, "Commands in the docs are tested"."""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
import subprocess
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest
from openai_server import OpenAIServer

from simcodebench.cli import build_parser

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
PAGES = [README, *sorted((ROOT / "docs").glob("*.md"))]
LINKED = [*PAGES, ROOT / "BENCHMARKS.md", *sorted((ROOT / "benchmarks" / "results").glob("*.md"))]
"""Pages whose relative links are checked: the docs, and the benchmarks' index and results."""
README_LIMIT = 12_000
MARKERS = {"bash runnable": "run", "bash runnable=parse": "parse"}
"""Info strings of the fenced blocks whose commands the test checks, and how."""
FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```[ \t]*$", re.M | re.S)
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
SUBCOMMAND = re.compile(r"[a-z][a-z0-9-]*")
TIMEOUT_S = 120


@dataclass(frozen=True)
class DocCommand:
    """One command of a runnable block: where it is written, how it is checked, and its words."""

    page: str
    line: int
    mode: str
    words: tuple[str, ...]

    @property
    def where(self) -> str:
        """``page:line``, for messages and test ids."""
        return f"{self.page}:{self.line}"


def fenced_blocks(text: str) -> list[tuple[str, str, int]]:
    """The fenced code blocks of a markdown text: (info string, body, line number of the first body line)."""
    return [(m.group(1).strip(), m.group(2), text.count("\n", 0, m.start(2)) + 1) for m in FENCE.finditer(text)]


def block_commands(body: str, first_line: int) -> list[tuple[int, tuple[str, ...]]]:
    """The commands of a block body: continuation lines joined, ``#`` comments and optional ``[...]`` parts
    dropped; each with the line it starts on."""
    commands: list[tuple[int, tuple[str, ...]]] = []
    pending, start = "", first_line
    for number, line in enumerate(body.splitlines(), first_line):
        if not pending:
            start = number
        stripped = line.rstrip()
        if stripped.endswith("\\"):
            pending += stripped[:-1] + " "
            continue
        text = re.sub(r"\s\[[^\]]*\]", "", pending + stripped)
        words = tuple(shlex.split(text, comments=True))
        if words:
            commands.append((start, words))
        pending = ""
    return commands


def doc_commands(pages: list[Path] = PAGES) -> list[DocCommand]:
    """Every command of every runnable block of the pages."""
    found = []
    for page in pages:
        for info, body, line in fenced_blocks(page.read_text()):
            if info in MARKERS:
                name = str(page.relative_to(ROOT)) if page.is_relative_to(ROOT) else str(page)
                found += [DocCommand(name, start, MARKERS[info], words) for start, words in block_commands(body, line)]
    return found


def strip_code(text: str) -> str:
    """The text without fenced blocks and inline code spans, where a bracket is not a link."""
    return re.sub(r"`[^`\n]*`", "", FENCE.sub("", text))


def heading_anchors(path: Path) -> set[str]:
    """The anchors GitHub gives the headings of a markdown page (lower case, punctuation dropped, spaces as
    hyphens, a repeated anchor numbered)."""
    anchors: set[str] = set()
    for heading in re.findall(r"^#+\s+(.+?)\s*#*$", FENCE.sub("", path.read_text()), re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        anchor, n = slug, 0
        while anchor in anchors:
            n += 1
            anchor = f"{slug}-{n}"
        anchors.add(anchor)
    return anchors


def relative_links(page: Path) -> list[str]:
    """The link targets of a page that point inside the repository (not URLs)."""
    targets = LINK.findall(strip_code(page.read_text()))
    return [t for t in targets if not re.match(r"[a-z][a-z0-9+.-]*:", t)]


def resolve(page: Path, target: str) -> tuple[Path, str]:
    """A link target as (file, anchor); a bare ``#anchor`` names the page itself."""
    path, _, anchor = target.partition("#")
    return ((page.parent / path).resolve() if path else page), anchor


@cache
def make_targets() -> frozenset[str]:
    """The targets make knows, from its database (``make -pq`` of a target that does not exist builds nothing)."""
    listing = subprocess.run(
        ["make", "-C", str(ROOT), "-pq", "__no_such_target__"], capture_output=True, text=True, timeout=60
    ).stdout
    targets, not_a_target = set(), False
    for line in listing.splitlines():
        match = re.match(r"([^\s#:=][^\s:=]*):(?!=)", line)
        if match and not not_a_target:
            targets.add(match.group(1))
        not_a_target = line.startswith("# Not a target")
    return frozenset(targets)


def check_make(command: DocCommand) -> None:
    """A make command names targets of the Makefile and only variables the Makefile reads."""
    makefile = (ROOT / "Makefile").read_text()
    for word in command.words[1:]:
        if "=" in word:
            name = word.split("=", 1)[0]
            assert re.search(rf"\$[({{]{name}[)}}]", makefile), f"{command.where}: the Makefile never reads {name}"
        else:
            assert word in make_targets(), f"{command.where}: make has no target '{word}'"


def program(word: str) -> str:
    """A command's program as run here: ``.venv/bin/x`` (or a bare ``snakemake``) from the repository's venv."""
    name = word.removeprefix(".venv/bin/")
    venv = ROOT / ".venv" / "bin" / name
    assert venv.exists() or name == word, f"{word} is not in .venv/bin"
    return str(venv) if venv.exists() else word


def run(command: list[str], where: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    """Run a command; its output in the failure message."""
    paths = [str(ROOT / "src"), *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=TIMEOUT_S)
    output = f"{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    assert done.returncode == 0, f"{where}: {shlex.join(command)} exited {done.returncode}\n{output}"
    return done


def scratch_directory(tmp_path: Path) -> Path:
    """A working directory for a dry run: nothing lands in the repository, and the default config is found."""
    (tmp_path / "config").symlink_to(ROOT / "config")
    return tmp_path


def eval_dry_run(command: DocCommand, tmp_path: Path) -> None:
    """``simcodebench eval``: dry run in a scratch folder, against a scripted server that serves the model."""
    words = list(command.words)
    model = words[words.index("--model") + 1]
    with OpenAIServer(windows={model: 32768}) as server:
        words[words.index("--base-url") + 1] = server.url
        run([program(words[0]), *words[1:], "--dry-run", "--run-dir", str(tmp_path)], command.where)
        assert server.count == 1, f"{command.where}: the preflight's chat request did not reach the server"


def check_runnable(command: DocCommand, tmp_path: Path) -> None:
    """Run a command of a ``bash runnable`` block in its quick form (docs/testing.md)."""
    first, rest = command.words[0], list(command.words[1:])
    if first == "make":
        check_make(command)
    elif first.endswith("snakemake"):
        scratch = scratch_directory(tmp_path)
        run([program(first), *rest, "--dry-run", "--directory", str(scratch)], command.where)
    elif first.endswith("simcodebench") and rest[:1] == ["eval"]:
        eval_dry_run(command, tmp_path)
    elif first.endswith("simcodebench"):
        run([program(first), *rest], command.where)
    else:
        pytest.fail(f"{command.where}: no quick form for '{first}': mark its block runnable=parse or plain bash")


def check_parse(command: DocCommand) -> None:
    """A command of a ``bash runnable=parse`` block is parsed, not run: simcodebench's own parser must accept it
    (subcommands, options, choices, argument counts); make is checked as in a runnable block; for another
    program, its subcommand's ``--help`` must list every option the command writes."""
    words = list(command.words)
    if words[0] == "make":
        check_make(command)
        return
    if words[0].endswith("simcodebench"):
        stderr = io.StringIO()
        with contextlib.redirect_stderr(stderr):
            try:
                build_parser().parse_args(words[1:])
            except SystemExit as exc:
                pytest.fail(
                    f"{command.where}: simcodebench refuses {shlex.join(words[1:])} ({exc}): {stderr.getvalue()}"
                )
        return
    subcommand = []
    for word in words[1:]:
        if not SUBCOMMAND.fullmatch(word):
            break
        subcommand.append(word)
    text = run([program(words[0]), *subcommand, "--help"], command.where).stdout
    for option in (w.split("=", 1)[0] for w in words if w.startswith("--")):
        assert re.search(rf"{re.escape(option)}\b", text), f"{command.where}: {option} is not an option of {subcommand}"


COMMANDS = doc_commands()


@pytest.mark.parametrize("command", COMMANDS, ids=[f"{c.where}:{c.words[0].split('/')[-1]}" for c in COMMANDS])
def test_doc_command_runs(command: DocCommand, tmp_path: Path) -> None:
    """Each runnable command works in its quick form, so a renamed target, option or subcommand breaks here."""
    if command.mode == "parse":
        check_parse(command)
    else:
        check_runnable(command, tmp_path)


def test_every_kind_of_command_is_found() -> None:
    """The extraction finds the commands the docs show, in both modes and of every program checked."""
    programs = {(c.mode, Path(c.words[0]).name) for c in COMMANDS}
    assert {("run", "make"), ("run", "snakemake"), ("run", "simcodebench"), ("parse", "simcodebench")} <= programs
    assert any(c.words[:2] == (".venv/bin/simcodebench", "eval") for c in COMMANDS)


def test_block_commands_join_lines_and_drop_comments_and_options(tmp_path: Path) -> None:
    """Continuations join, comments and ``[...]`` go, and a block with another info string is not taken."""
    page = tmp_path / "page.md"
    page.write_text(
        "```bash runnable\nmake rerun CASE=re4/sod   # locally\n.venv/bin/x a \\\n    --b c [--d e]\n```\n\n"
        "```bash\nmake run\n```\n\n```bash runnable=parse\n.venv/bin/y z --w\n```\n"
    )
    assert [(c.line, c.mode, c.words) for c in doc_commands([page])] == [
        (2, "run", ("make", "rerun", "CASE=re4/sod")),
        (3, "run", (".venv/bin/x", "a", "--b", "c")),
        (12, "parse", (".venv/bin/y", "z", "--w")),
    ]


def test_markers_are_spelled_right() -> None:
    """A block whose info string mentions ``runnable`` uses one of the two markers, so none is skipped by a typo."""
    for page in PAGES:
        for info, _, line in fenced_blocks(page.read_text()):
            if "runnable" in info or "runable" in info:
                assert info in MARKERS, f"{page.relative_to(ROOT)}:{line}: unknown marker '{info}' ({sorted(MARKERS)})"


@pytest.mark.parametrize("page", LINKED, ids=[str(p.relative_to(ROOT)) for p in LINKED])
def test_relative_links_resolve(page: Path) -> None:
    """Every relative link of the page names a file that exists, and a heading of it where it names one."""
    for target in relative_links(page):
        path, anchor = resolve(page, target)
        assert path.exists(), f"{page.relative_to(ROOT)}: link '{target}' names no file"
        if anchor and path.suffix == ".md":
            assert anchor in heading_anchors(path), f"{page.relative_to(ROOT)}: link '{target}' names no heading"


def test_every_docs_page_is_reachable_from_the_readme() -> None:
    """Following links from the README reaches every page of docs/ and every benchmark results page."""
    seen, todo = {README}, [README]
    while todo:
        page = todo.pop()
        for target in relative_links(page):
            path, _ = resolve(page, target)
            if path.suffix == ".md" and path.is_file() and path not in seen and path in LINKED:
                seen.add(path)
                todo.append(path)
    assert set(LINKED) <= seen, f"not reachable from README.md: {sorted(str(p) for p in set(LINKED) - seen)}"


def test_readme_is_a_front_door() -> None:
    """At most 12,000 characters, and its first section and first command block are the two commands."""
    text = README.read_text()
    assert len(text) <= README_LIMIT, f"README.md has {len(text)} characters, more than {README_LIMIT}"
    sections = re.findall(r"^## (.+)$", text, re.M)
    assert sections[0] == "The two commands", sections[:1]
    info, body, line = fenced_blocks(text)[0]
    assert [words for _, words in block_commands(body, line)] == [("make", "run"), ("make", "test")]
