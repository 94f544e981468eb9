#!/usr/bin/env python3
"""The JSON report is byte-identical whether one or two threads read (issue 22).

For each input, `analyze --format json --threads 1` runs once and `--threads 2` five times;
every run must print the same bytes and exit with the same code. The inputs: each given
directory, its .tar.zst (members sorted), the first file of the first directory on standard
input, and a generated bundle of several MiB (bench/gen_bundle.py: files many 256 KiB chunks
long, as directory and .tar.zst). The limits that make the reader stop early run too:
--max-entries (the sink stops the walk), --max-entry-bytes (the sink leaves a member
half-read) and --max-total-bytes.

Usage: threads.py --bin ascend-triage --work TMPDIR --gen bench/gen_bundle.py INPUT_DIR...
Exit 0 when all agree, 1 otherwise (with the first differing lines); 77 without zstd.
"""
import argparse
import difflib
import io
import os
import shutil
import subprocess
import sys
import tarfile

RUNS_WITH_TWO = 5
LIMITS = [[], ["--max-entries", "7"], ["--max-entry-bytes", "300k"], ["--max-total-bytes", "1M"]]


def tar_zst(src, path):
    buf = io.BytesIO()
    top = os.path.basename(src.rstrip("/"))
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.GNU_FORMAT) as tar:
        tar.add(src, arcname=top, recursive=False)
        for root, dirs, files in os.walk(src):
            dirs.sort()
            for name in sorted(dirs) + sorted(files):
                full = os.path.join(root, name)
                tar.add(full, arcname=os.path.join(top, os.path.relpath(full, src)), recursive=False)
    subprocess.run(["zstd", "-q", "-f", "-o", path], input=buf.getvalue(), check=True)


def run(binary, args, stdin_path=None):
    stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
    try:
        r = subprocess.run([binary, "analyze", "--format", "json", *args], stdin=stdin,
                           capture_output=True, timeout=300)
    finally:
        if stdin_path:
            stdin.close()
    if r.returncode not in (0, 1, 2):
        sys.exit(f"{args}: exit {r.returncode}: {r.stderr.decode(errors='replace')[:300]}")
    return r.returncode, r.stdout


def first_file(directory):
    for root, dirs, files in sorted(os.walk(directory)):
        dirs.sort()
        for f in sorted(files):
            return os.path.join(root, f)
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--gen", required=True, help="bench/gen_bundle.py")
    ap.add_argument("inputs", nargs="+")
    a = ap.parse_args()
    if not shutil.which("zstd"):
        print("zstd is missing: skipped")
        return 77
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)
    subprocess.run([sys.executable, a.gen, "--size", "6M", "--out", a.work, "--seed", "3"],
                   check=True, capture_output=True)
    generated = [os.path.join(a.work, d) for d in sorted(os.listdir(a.work))
                 if os.path.isdir(os.path.join(a.work, d))]

    cases = []  # (label, args, stdin file)
    for d in a.inputs + generated:
        archive = os.path.join(a.work, os.path.basename(d.rstrip("/")) + ".given.tar.zst")
        if d in generated:
            archive = d + ".tar.zst"  # the generator packs it as the collector does
        else:
            tar_zst(d, archive)
        for form in (d, archive):
            cases.append((form, [form], None))
    for limit in LIMITS[1:]:
        for g in generated:
            cases.append((f"{g} {' '.join(limit)}", [*limit, g], None))
            cases.append((f"{g}.tar.zst {' '.join(limit)}", [*limit, g + ".tar.zst"], None))
    paste = first_file(a.inputs[0])
    cases.append((f"stdin < {paste}", ["-"], paste))

    failures = 0
    for label, args, stdin in cases:
        code1, out1 = run(a.bin, ["--threads", "1", *args], stdin)
        for n in range(RUNS_WITH_TWO):
            code2, out2 = run(a.bin, ["--threads", "2", *args], stdin)
            if (code2, out2) != (code1, out1):
                failures += 1
                print(f"FAIL {label}: --threads 2 run {n + 1} differs (exit {code2} vs {code1})")
                diff = difflib.unified_diff(out1.decode(errors="replace").splitlines(),
                                            out2.decode(errors="replace").splitlines(),
                                            "threads-1", "threads-2", lineterm="", n=1)
                for line in list(diff)[:20]:
                    print("  " + line)
                break
    print(f"{len(cases) - failures}/{len(cases)} inputs: --threads 1 and 5 runs of --threads 2 "
          f"give the same JSON bytes and exit code")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
