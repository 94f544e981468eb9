#!/usr/bin/env python3
"""The report of a bundle does not depend on its input form or on member order (issue 23).

For each input directory, `analyze --format json` is rendered from the directory itself,
from a .tar.zst whose members are in sorted, reversed and shuffled (fixed seed) order, from
a .tar.gz and from a .zip; each archive holds the directory under one top directory, as a
customer's `tar -C parent -c name` would. The JSON must be the same byte for byte once the
input's own path prefix is replaced in every string: the directory (`DIR/`) or the archive
(`ARCHIVE!top/`), then the bare input path. Nothing else is excluded.

Known differences still open are listed in --expected (`input<TAB>form<TAB>why`, form as in
FORMS below); a listed form that agrees fails the test too, so the list only shrinks.

Usage: input_forms.py --bin ascend-triage --work TMPDIR [--expected TSV] INPUT_DIR...
Exit 0 when every form agrees (or differs as listed), 1 otherwise, with the first
differing lines; 77 (skipped) without zstd.
"""
import argparse
import difflib
import io
import os
import random
import shutil
import subprocess
import sys
import tarfile
import time
import zipfile

SEED = 23  # the shuffled order is fixed: a failure must reproduce


def members_of(src):
    """Every directory and file under src, relative, in sorted walk order."""
    out = []
    for root, dirs, files in os.walk(src):
        dirs.sort()
        rel = os.path.relpath(root, src)
        if rel != ".":
            out.append(rel)
        for f in sorted(files):
            out.append(f if rel == "." else os.path.join(rel, f))
    return out


def write_tar(src, top, order, fileobj, mode):
    with tarfile.open(fileobj=fileobj, mode=mode, format=tarfile.GNU_FORMAT) as tar:
        tar.add(src, arcname=top, recursive=False)
        for rel in order:
            tar.add(os.path.join(src, rel), arcname=f"{top}/{rel}", recursive=False)


def write_tar_zst(src, top, order, path):
    buf = io.BytesIO()
    write_tar(src, top, order, buf, "w")
    subprocess.run(["zstd", "-q", "-f", "-o", path], input=buf.getvalue(), check=True)


def write_tar_gz(src, top, order, path):
    with open(path, "wb") as f:
        write_tar(src, top, order, f, "w:gz")


def write_zip(src, top, order, path):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.write(src, f"{top}/")
        for rel in order:
            full = os.path.join(src, rel)
            z.write(full, f"{top}/{rel}/" if os.path.isdir(full) else f"{top}/{rel}")


def read_expected(path):
    expected = {}
    if not path:
        return expected
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if not line.strip() or line.startswith("#"):
                continue
            parts = line.rstrip("\n").split("\t")
            if len(parts) != 3 or not parts[2].strip():
                raise SystemExit(f"{path}:{number}: want input<TAB>form<TAB>why")
            expected[(parts[0], parts[1])] = parts[2]
    return expected


def analyze(binary, path, prefixes):
    r = subprocess.run([binary, "analyze", "--format", "json", path], capture_output=True)
    if r.returncode not in (0, 1, 2) or not r.stdout:
        raise RuntimeError(f"{path}: analyze exited {r.returncode}: {r.stderr.decode(errors='replace')[:500]}")
    text = r.stdout.decode("utf-8")
    for prefix, replacement in prefixes:
        text = text.replace(prefix, replacement)
    return r.returncode, text


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--expected")
    ap.add_argument("inputs", nargs="+")
    args = ap.parse_args()
    if shutil.which("zstd") is None:
        print("SKIP: zstd not found: the .tar.zst forms cannot be written")
        return 77  # ctest: skipped (the prerequisites test fails on it under CI=true)
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    listed = read_expected(args.expected)
    failures = 0
    started = time.monotonic()
    for src in args.inputs:
        src = os.path.abspath(src.rstrip("/"))
        top = os.path.basename(src)
        # The directory form reads a copy under the work directory, so that its path is as
        # free of the repository's own path as the archives' are.
        as_dir = os.path.join(args.work, "dir", top)
        shutil.copytree(src, as_dir)
        order = members_of(src)
        shuffled = list(order)
        random.Random(SEED).shuffle(shuffled)
        # FORMS: (form, writer, member order)
        forms = [
            ("sorted.tar.zst", write_tar_zst, order),
            ("reversed.tar.zst", write_tar_zst, list(reversed(order))),
            ("shuffled.tar.zst", write_tar_zst, shuffled),  # seed SEED
            ("tar.gz", write_tar_gz, order),
            ("zip", write_zip, order),
        ]
        rc, expected = analyze(args.bin, as_dir, [(as_dir + "/", "<INPUT>/"), (as_dir, "<INPUT>")])
        bad = []
        for name, writer, members in forms:
            path = os.path.join(args.work, f"{top}.{name}")
            writer(src, top, members, path)
            got_rc, got = analyze(args.bin, path, [(f"{path}!{top}/", "<INPUT>/"), (path, "<INPUT>")])
            same = got_rc == rc and got == expected
            why = listed.pop((top, name), None)
            if same and why is not None:
                bad.append(name)
                print(f"FAIL {top}: {name} agrees with the directory but is listed as differing "
                      f"({why}): remove it from the list")
            elif not same and why is not None:
                print(f"     {top}: {name} differs, as listed: {why}")
            elif not same:
                diff = list(difflib.unified_diff(expected.splitlines(), got.splitlines(),
                                                 "directory", name, n=0, lineterm=""))
                changed = sum(1 for d in diff if d[:1] in "+-" and d[:3] not in ("+++", "---"))
                bad.append(name)
                print(f"FAIL {top}: {name} differs from the directory "
                      f"(exit {got_rc} vs {rc}, {changed} JSON lines differ)")
                for line in diff[:40]:
                    print("    " + line[:200])
            os.remove(path)
        failures += len(bad)
        print(f"{'ok  ' if not bad else 'FAIL'} {top}: {len(order)} members, "
              f"{len(forms)} forms, {len(bad)} unexpected outcome(s)")
    for (top, name), why in sorted(listed.items()):
        failures += 1
        print(f"FAIL {top}: {name} is listed but was not tried: remove it from the list")
    print(f"{len(args.inputs)} inputs, {failures} unexpected outcome(s), "
          f"{time.monotonic() - started:.1f} s")
    shutil.rmtree(args.work, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
