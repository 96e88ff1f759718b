#!/usr/bin/env python3
"""docs.check: the README and docs/ say nothing that has stopped being true of their links and flags.

1. Every relative link of README.md and docs/*.md (`[text](target)`, `![alt](target)` and
   `[ref]: target`, outside code) names a file that exists, relative to the linking file; a
   `#anchor` into a .md file (the same or another) is one of its headings' GitHub slugs
   (lowercase, spaces to '-', punctuation other than '-' and '_' removed; a repeated heading gets
   -1, -2, ...).
2. Every `--flag` of a `cantonlite` command shown in a fenced code block (a line starting with
   `cantonlite ` or `path/cantonlite `, after optional whitespace or a `$ ` prompt, with its `\\`
   continuation lines) is in `BIN --help`, which lists every subcommand's flags. So is every
   `--flag` that starts a table cell, backticked, in the docs of cantonlite's own flags
   (docs/configuration.md, docs/fork.md).

One line per problem (`file:line: ...`), exit 1 if any; else a summary line, exit 0.

Usage: docs_check.py BIN SOURCE_DIR
"""
import glob
import os
import re
import subprocess
import sys

FLAG_TABLE_DOCS = ("docs/configuration.md", "docs/fork.md")

FENCE = re.compile(r"^\s*(```|~~~)")
HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
INLINE_LINK = re.compile(r"!?\[((?:[^\[\]]|\[[^\]]*\])*)\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
REF_DEFINITION = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)")
CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.S)
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
FLAG = re.compile(r"(?<![\w-])--[A-Za-z0-9][A-Za-z0-9-]*")
COMMAND_LINE = re.compile(r"^\s*(?:\$\s+)?(?:[\w.~/-]*/)?cantonlite\s")
SEPARATOR = re.compile(r"&&|\|\||[|;]|\s&\s")
TABLE_FLAG_CELL = re.compile(r"^`(--[A-Za-z0-9][A-Za-z0-9-]*)")


def github_slug(text):
    """The anchor GitHub gives a heading of this text (before de-duplication)."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)  # a link counts by its text
    text = re.sub(r"<[^>]+>", "", text)  # inline HTML
    text = text.strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def prose_lines(lines):
    """(line number, text) of the lines outside fenced code blocks."""
    fenced = False
    for number, line in enumerate(lines, 1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            yield number, line


def fenced_lines(lines):
    """(line number, text) of the lines inside fenced code blocks."""
    fenced = False
    for number, line in enumerate(lines, 1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if fenced:
            yield number, line


def anchors_of(lines):
    """Every heading anchor of a markdown file, as GitHub makes them."""
    anchors, seen = set(), {}
    for _, line in prose_lines(lines):
        match = HEADING.match(line)
        if not match:
            continue
        slug = github_slug(match.group(2))
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        anchors.add(slug if count == 0 else f"{slug}-{count}")
    return anchors


class Docs:
    """The markdown files checked, read once, and the anchors of any .md file a link names."""

    def __init__(self, source_dir):
        self.source_dir = os.path.realpath(source_dir)
        paths = [os.path.join(self.source_dir, "README.md")]
        paths += sorted(glob.glob(os.path.join(self.source_dir, "docs", "*.md")))
        self.files = {path: self.read(path) for path in paths if os.path.isfile(path)}
        self.anchor_cache = {}

    @staticmethod
    def read(path):
        with open(path, encoding="utf-8") as f:
            return f.read().split("\n")

    def name(self, path):
        return os.path.relpath(path, self.source_dir)

    def anchors(self, path):
        if path not in self.anchor_cache:
            lines = self.files.get(path) or self.read(path)
            self.anchor_cache[path] = anchors_of(lines)
        return self.anchor_cache[path]


def blank_code_spans(text):
    """`text` with its code spans blanked out, newlines kept: links in code are not links."""
    return CODE_SPAN.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def paragraphs(lines):
    """(first line number, text) of each run of prose lines, so that a link may span lines."""
    run = []
    for number, line in prose_lines(lines):
        if run and (not line.strip() or number != run[-1][0] + 1):
            yield run[0][0], "\n".join(text for _, text in run)
            run = []
        if line.strip():
            run.append((number, line))
    if run:
        yield run[0][0], "\n".join(text for _, text in run)


def link_targets(lines):
    """(line number, target) of each link of a markdown file, leaving code out."""
    for first, text in paragraphs(lines):
        text = blank_code_spans(text)
        for match in INLINE_LINK.finditer(text):
            yield first + text.count("\n", 0, match.start(2)), match.group(2)
        for offset, line in enumerate(text.split("\n")):
            definition = REF_DEFINITION.match(line)
            if definition:
                yield first + offset, definition.group(1)


def check_link(docs, path, target):
    """None when `target`, linked from `path`, resolves; else what is wrong."""
    file_part, _, anchor = target.partition("#")
    if file_part:
        resolved = os.path.normpath(os.path.join(os.path.dirname(path), file_part))
        if not os.path.exists(resolved):
            return f"no file {docs.name(resolved)}"
    else:
        resolved = path
    if anchor and resolved.endswith(".md"):
        if anchor not in docs.anchors(resolved):
            return f"no heading '{anchor}' in {docs.name(resolved)}"
    return None


def check_links(docs, problems):
    count = 0
    for path, lines in docs.files.items():
        for number, target in link_targets(lines):
            if not target or SCHEME.match(target):
                continue
            count += 1
            problem = check_link(docs, path, target)
            if problem:
                problems.append(f"{docs.name(path)}:{number}: link {target}: {problem}")
    return count


def command_lines(lines):
    """(line number, text) of each cantonlite command in fenced code, continuations joined."""
    pending = None
    for number, line in fenced_lines(lines):
        if pending is not None:
            pending = (pending[0], pending[1] + " " + line)
        elif COMMAND_LINE.match(line):
            pending = (number, line)
        else:
            continue
        if pending[1].rstrip().endswith("\\"):
            pending = (pending[0], pending[1].rstrip()[:-1])
            continue
        yield pending
        pending = None
    if pending is not None:
        yield pending


def command_flags(text):
    """The flags of the cantonlite commands of a shell line (not of the commands piped to)."""
    flags = []
    for segment in SEPARATOR.split(text):
        if COMMAND_LINE.match(segment + " "):
            flags += FLAG.findall(segment)
    return flags


def table_flags(line):
    """The flags that start a backticked table cell of a markdown table row."""
    if not line.lstrip().startswith("|"):
        return []
    cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
    return [m.group(1) for m in (TABLE_FLAG_CELL.match(cell) for cell in cells) if m]


def check_flags(docs, help_flags, problems):
    count = 0
    for path, lines in docs.files.items():
        found = [(n, flag) for n, text in command_lines(lines) for flag in command_flags(text)]
        if docs.name(path) in FLAG_TABLE_DOCS:
            found += [(n, flag) for n, line in prose_lines(lines) for flag in table_flags(line)]
        for number, flag in sorted(found):
            count += 1
            if flag not in help_flags:
                problems.append(f"{docs.name(path)}:{number}: flag {flag}: not in cantonlite --help")
    return count


def help_text(binary):
    result = subprocess.run([binary, "--help"], capture_output=True, text=True, timeout=30)
    if result.returncode != 0:
        raise RuntimeError(f"{binary} --help exited {result.returncode}: {result.stderr.strip()}")
    return result.stdout


def main():
    if len(sys.argv) != 3:
        print("usage: docs_check.py BIN SOURCE_DIR", file=sys.stderr)
        return 2
    binary, source_dir = sys.argv[1], sys.argv[2]
    try:
        help_flags = set(FLAG.findall(help_text(binary)))
    except (OSError, RuntimeError, subprocess.TimeoutExpired) as error:
        print(f"docs.check: cannot read {binary} --help: {error}")
        return 1
    docs = Docs(source_dir)
    if not docs.files:
        print(f"docs.check: no README.md or docs/*.md under {source_dir}")
        return 1
    problems = []
    links = check_links(docs, problems)
    flags = check_flags(docs, help_flags, problems)
    for problem in problems:
        print(problem)
    if problems:
        return 1
    print(f"docs.check: {links} links and {flags} flags resolve")
    return 0


if __name__ == "__main__":
    sys.exit(main())
