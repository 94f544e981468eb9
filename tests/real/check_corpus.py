#!/usr/bin/env python3
"""Checks the real-paste corpus (tests/data/real/*/SOURCE.md) against its own contract.

Each excerpt directory holds the files as pasted plus a SOURCE.md whose `- key: value` header
lines and `expect: key=value` lines the finding tests read. This check keeps those lines
machine-readable: header keys present once with allowed values, every expect key known and
every expect value found verbatim in one of the excerpt's files (so an expectation can never
name a fact the input does not contain). It prints the corpus counts and exits 1 on any
problem, naming file and line. Standard library only.

usage: check_corpus.py [CORPUS_DIR]   (default: tests/data/real next to this script)
"""
import os
import re
import sys
from collections import Counter

FORMS = ("job-output", "launcher-prefixed", "grep-output", "mixed-console", "dmesg",
         "journalctl", "device-log-tree", "npu-smi-table", "env-dump", "plog", "acl-sample")
PRODUCTS = ("910B", "910_93", "910", "310P", "unknown")
CAUSE_CLASSES = ("host-driver-installation", "cann-wheel-mismatch", "environment-paths",
                 "mount-shadowing", "stale-process-mappings", "device-hardware",
                 "collective-communication", "application-code", "device-memory",
                 "device-access", "none")
EXPECT_KEYS = ("code", "pid", "rank", "device", "time", "operator", "library", "symbol",
               "stream", "task", "component", "version")
HEADER_KEYS = ("source", "where", "form", "product", "cause-class", "healthy")
ALLOWED = {"form": FORMS, "product": PRODUCTS, "cause-class": CAUSE_CLASSES,
           "healthy": ("yes", "no")}

# Optional: what the analyzer said of the excerpt before any code was changed for it (issue 36).
OPTIONAL_KEYS = ("first-sight",)
FIRST_SIGHT_RE = re.compile(r"^(held|missed: \S.*)$")

HEADER_RE = re.compile(r"^- (%s): (.*)$"
                       % "|".join(re.escape(k) for k in HEADER_KEYS + OPTIONAL_KEYS))
EXPECT_RE = re.compile(r"^expect: ([a-z-]+)=(.*)$")
LISTED_FILE_RE = re.compile(r"^- `([^`]+)`")
DIR_NAME_RE = re.compile(r"^[a-z0-9][a-z0-9.-]*$")


class Problems:
    def __init__(self):
        self.items = []

    def add(self, path, line, message):
        where = "%s:%d" % (path, line) if line else path
        self.items.append("%s: %s" % (where, message))


def excerpt_files(directory):
    """Every file of the excerpt except SOURCE.md, as (relative path, bytes)."""
    found = []
    for root, _dirs, names in os.walk(directory):
        for name in sorted(names):
            full = os.path.join(root, name)
            rel = os.path.relpath(full, directory)
            if rel == "SOURCE.md":
                continue
            with open(full, "rb") as handle:
                found.append((rel, handle.read()))
    return found


def check_excerpt(directory, problems):
    """Returns the header dict of one excerpt (empty when SOURCE.md is missing)."""
    source_md = os.path.join(directory, "SOURCE.md")
    name = os.path.basename(directory)
    if not DIR_NAME_RE.match(name):
        problems.add(directory, 0, "directory name must be lower-case ascii letters, digits, '-'")
    if not os.path.isfile(source_md):
        problems.add(directory, 0, "no SOURCE.md")
        return {}
    files = excerpt_files(directory)
    if not files:
        problems.add(directory, 0, "no excerpt file besides SOURCE.md")
    try:
        with open(source_md, encoding="utf-8") as handle:
            lines = handle.read().splitlines()
    except UnicodeDecodeError as err:
        problems.add(source_md, 0, "not UTF-8 (%s)" % err)
        return {}

    header = {}
    in_files_section = False
    if not lines or not lines[0].startswith("# "):
        problems.add(source_md, 1, "first line must be '# <short title>'")
    for number, line in enumerate(lines, start=1):
        if line.startswith("## "):
            in_files_section = line.strip() == "## Files"
            continue
        match = HEADER_RE.match(line)
        if match and not in_files_section:
            key, value = match.group(1), match.group(2).strip()
            if key in header:
                problems.add(source_md, number, "header key '%s' given twice" % key)
            header[key] = value
            if key in ALLOWED and value not in ALLOWED[key]:
                problems.add(source_md, number, "%s '%s' is not one of: %s"
                             % (key, value, ", ".join(ALLOWED[key])))
            if key == "source" and not re.match(r"^https?://\S+$", value):
                problems.add(source_md, number, "source must be one http(s) URL")
            if key == "first-sight" and not FIRST_SIGHT_RE.match(value):
                problems.add(source_md, number, "first-sight must be 'held' or 'missed: <what>'")
            if key == "where" and not value:
                problems.add(source_md, number, "where is empty")
            continue
        if line.startswith("expect"):
            match = EXPECT_RE.match(line)
            if not match:
                problems.add(source_md, number, "malformed expect line (want 'expect: key=value')")
                continue
            key, value = match.group(1), match.group(2)
            if key not in EXPECT_KEYS:
                problems.add(source_md, number, "expect key '%s' is not one of: %s"
                             % (key, ", ".join(EXPECT_KEYS)))
            if not value.strip() or value != value.strip():
                problems.add(source_md, number, "expect value for '%s' is empty or has outer blanks" % key)
                continue
            needle = value.encode("utf-8")
            if not any(needle in data for _rel, data in files):
                problems.add(source_md, number, "expect %s=%s occurs in no file of the excerpt"
                             % (key, value))
            continue
        if in_files_section:
            listed = LISTED_FILE_RE.match(line)
            if listed and not os.path.exists(os.path.join(directory, listed.group(1))):
                problems.add(source_md, number, "listed file '%s' does not exist" % listed.group(1))
    for key in HEADER_KEYS:
        if key not in header:
            problems.add(source_md, 0, "header key '- %s:' missing" % key)
    if header.get("healthy") == "yes" and header.get("cause-class") not in (None, "none"):
        problems.add(source_md, 0, "a healthy excerpt has cause-class none")
    return header


def main(argv):
    if len(argv) > 2 or (len(argv) == 2 and argv[1].startswith("-")):
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    here = os.path.dirname(os.path.abspath(__file__))
    corpus = argv[1] if len(argv) == 2 else os.path.join(here, "..", "data", "real")
    if not os.path.isdir(corpus):
        print("%s: not a directory" % corpus, file=sys.stderr)
        return 2
    problems = Problems()
    headers = []
    for name in sorted(os.listdir(corpus)):
        path = os.path.join(corpus, name)
        if os.path.isdir(path):
            headers.append(check_excerpt(path, problems))

    forms = Counter(h.get("form", "?") for h in headers)
    causes = Counter(h.get("cause-class", "?") for h in headers)
    with_cause = sum(1 for h in headers if h.get("cause-class") not in (None, "none"))
    healthy = sum(1 for h in headers if h.get("healthy") == "yes")
    print("excerpts: %d  with thread-stated cause: %d  healthy: %d"
          % (len(headers), with_cause, healthy))
    print("per form: " + ", ".join("%s=%d" % kv for kv in sorted(forms.items())))
    print("per cause-class: " + ", ".join("%s=%d" % kv for kv in sorted(causes.items())))
    sights = [h["first-sight"] for h in headers if "first-sight" in h]
    print("first sight recorded: %d  held: %d" % (len(sights), sights.count("held")))
    for item in problems.items:
        print(item)
    if problems.items:
        print("FAILED: %d problem(s)" % len(problems.items))
        return 1
    if not headers:
        print("FAILED: no excerpt directories in %s" % corpus)
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
