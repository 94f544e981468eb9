# Sourced by the layer checks: how a check ends. With an expected count (the control tree),
# exactly that many violations pass; otherwise none may be found.
#   finish VIOLATIONS EXPECTED FAIL_MESSAGE OK_MESSAGE
finish() {
  local violations=$1 expect=$2
  if [ -n "$expect" ]; then
    if [ "$violations" -ne "$expect" ]; then
      echo "control: expected $expect violation(s), found $violations"
      exit 1
    fi
    echo "control: the $violations expected violation(s) were found"
    exit 0
  fi
  if [ "$violations" -ne 0 ]; then
    echo "$violations $3"
    exit 1
  fi
  echo "$4"
  exit 0
}
