#!/usr/bin/env bash
# `knowledge check` must reject exactly the planted bad signatures of bad-outcomes.json
# (no outcome, unknown finding id, benign above info, no sources) and none of the good ones.
set -u
bin=$1 file=$2
out=$("$bin" knowledge check "$file" 2>&1) && { echo "FAILED: knowledge check accepted $file"; exit 1; }
fail=0
for want in "bad/no-outcome: no outcome" "bad/unknown-finding: outcome 'no-such-finding'" \
            "bad/benign-error: a benign signature must have severity info" "bad/no-sources: no source"; do
  grep -qF -- "$want" <<<"$out" || { echo "FAILED: missing problem: $want"; fail=1; }
done
if grep -q "good/" <<<"$out"; then echo "FAILED: a good signature was rejected"; fail=1; fi
[ $fail = 0 ] && echo "OK: the four planted signatures are rejected" || echo "$out"
exit $fail
