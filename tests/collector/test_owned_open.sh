#!/bin/bash
# The check of a file taken on a process's word is made on what is opened (owned.sh, the
# script sourced): a plog replaced by a link to a root-only file between the component walk
# and the open is refused (refused_changed), never copied; the same file left alone is
# opened and readable from the descriptor; the credentials come from the Uid/Gid/Groups
# lines of a /proc status, and both the real and the effective uid must be allowed.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=../../collector-script/ascend-collect.sh
. "$COLLECTOR"
export LC_ALL=C
WORKDIR=$(mktemp -d)
H=$WORKDIR
ROOT=$WORKDIR/root
STEP_BASE=$WORKDIR/step
mkdir -p "$ROOT/proc/10" "$ROOT/proc/11" "$ROOT/proc/12" "$ROOT/logs" "$ROOT/secret"
printf 'Name:\tpy\nUid:\t1000\t1000\t1000\t1000\nGid:\t1000\t1000\t1000\t1000\nGroups:\t1000 27 \n' > "$ROOT/proc/10/status"
# A set-uid root program started by uid 1000: real 1000, effective 0.
printf 'Name:\tsu\nUid:\t1000\t0\t0\t0\nGid:\t1000\t1000\t1000\t1000\nGroups:\t1000\n' > "$ROOT/proc/11/status"
printf 'Name:\tpy\nState:\tS\n' > "$ROOT/proc/12/status"
printf 'MYPLOG\n' > "$ROOT/logs/plog-1_1.log"
printf 'ROOTSECRET\n' > "$ROOT/secret/key"
chmod 644 "$ROOT/logs/plog-1_1.log" "$ROOT/secret/key"
chmod 700 "$ROOT/secret"

# expect_eq WHAT GOT WANT
expect_eq() { [ "$2" = "$3" ] || fail "$1: got [$2], want [$3]"; }

# Credentials.
proc_creds 10; expect_eq "uid" "${PC_UID[*]}" "1000 1000"
expect_eq "groups" "$PC_GROUPS" " 1000 27  "
cred_may 0 27 640 4 || fail "group 27 may read a 0640 file of group 27"
cred_may 0 0 600 4 && fail "uid 1000 may read a 0600 root file"
proc_creds 12 && fail "a status without Uid lines gives credentials"
proc_creds 11; cred_may 0 0 600 4 && fail "a set-uid process is allowed on its effective uid alone"

# The file left alone: opened, and its content read from the descriptor.
rm -f "$STEP_BASE".*
out=$( need_creds 10; owned_open "$ROOT" /logs/plog-1_1.log host; cat /proc/self/fd/9 ); rc=$?
expect_eq "plain open" "$rc:$out" "0:MYPLOG"
# A directory the process cannot search.
rm -f "$STEP_BASE".*
( need_creds 10; owned_open "$ROOT" /secret/key host ) 2>/dev/null; rc=$?
expect_eq "unsearchable directory" "$rc:$(cat "$STEP_BASE.refused" 2>/dev/null)" "66:refused_process_cannot_read"

# Swapped between the walk and the open: find (the walk's lstat) is wrapped to replace the
# plog by a link to the secret right after the walk has seen the regular file.
rm -f "$STEP_BASE".*
chmod 755 "$ROOT/secret"
out=$(
  find() {
    command find "$@"
    if [ ! -e "$WORKDIR/swapped" ]; then
      : > "$WORKDIR/swapped"
      rm -f "$ROOT/logs/plog-1_1.log"
      ln -s "$ROOT/secret/key" "$ROOT/logs/plog-1_1.log"
    fi
  }
  need_creds 10; owned_open "$ROOT" /logs/plog-1_1.log host 2>/dev/null; cat /proc/self/fd/9
); rc=$?
[ -e "$WORKDIR/swapped" ] || fail "the swap did not happen"
expect_eq "swapped for a link" "$rc:$(cat "$STEP_BASE.refused" 2>/dev/null)" "66:refused_changed"
[[ $out == *ROOTSECRET* ]] && fail "the swapped-in file was read"
rm -rf "$WORKDIR"
finish
