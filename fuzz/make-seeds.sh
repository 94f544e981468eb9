#!/usr/bin/env bash
# Builds the seed corpora of the fuzz targets from the samples and the real-text corpus:
#   fuzz/make-seeds.sh OUT   -> OUT/<target>/ for archive, paste, parser, segments, knowledge
# Seeds are cut to 32 KiB (fuzzing wants small inputs; the head is where the shapes are).
# The committed, minimised corpora (fuzz/corpus/) were merged from these; CI replays those.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: make-seeds.sh OUT}
rm -rf "$out"
mkdir -p "$out"/{archive,paste,parser,segments,knowledge}
max=32768
n=0
seed() {  # seed TARGET PREFIX FILE: PREFIX, then the head of FILE
  n=$((n + 1))
  { printf '%s' "$2"; head -c "$max" "$3"; } >"$out/$1/seed-$n"
}

# paste and segments: every file of the real-text corpus, and the samples' loose files.
while IFS= read -r -d '' f; do
  seed paste "" "$f"
  seed segments $'\x01' "$f"
done < <(find "$root/tests/data/real" "$root/samples/incident-loose-files" -type f \
           ! -name '*.md' -print0 | sort -z)

# parser: every sample entry whose kind has a parser; the first line names the kind.
while IFS=$'\t' read -r sample path kind; do
  [ "$sample" = sample ] && continue
  f="$root/samples/$sample/$path"
  [ -f "$f" ] && seed parser "$kind"$'\n' "$f"
done <"$root/samples/expected-kinds.tsv"

# knowledge: every knowledge file under its own name (the first line).
while IFS= read -r -d '' f; do
  seed knowledge "${f#"$root/knowledge/"}"$'\n' "$f"
done < <(find "$root/knowledge" \( -name '*.json' -o -name '*.tsv' \) -print0 | sort -z)

# archive: small bundles and two corpus excerpts packed in every form analyze reads, and a
# compressed loose log.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for d in tests/data/minimal-bundle tests/data/device-logs-bundle tests/data/summary-bundle \
         tests/data/real/ascend-pytorch-144-ez3002-transdata-soc104 \
         tests/data/real/mind-cluster-faultdiag-testdata-hisi-logs-device-1-lockup; do
  name=$(basename "$d")
  tar -C "$root/$(dirname "$d")" -cf "$tmp/$name.tar" "$name"
  gzip -9 -c "$tmp/$name.tar" >"$out/archive/$name.tar.gz"
  zstd -q -19 -c "$tmp/$name.tar" >"$out/archive/$name.tar.zst"
  (cd "$root/$(dirname "$d")" && zip -q -r -9 "$out/archive/$name.zip" "$name")
  mv "$tmp/$name.tar" "$out/archive/"
done
log=$root/tests/data/real/vllm-ascend-9447-hccp-ra-socket-batch-close
for f in "$log"/*; do
  [ "${f##*.}" = md ] && continue
  gzip -9 -c "$f" >"$out/archive/$(basename "$f").gz"
  zstd -q -19 -c "$f" >"$out/archive/$(basename "$f").zst"
done
for t in archive paste parser segments knowledge; do
  echo "$t: $(find "$out/$t" -type f | wc -l) seeds, $(du -sh "$out/$t" | cut -f1)"
done
