#!/bin/bash
# Issue 33: a path a process names is looked up only in a timed child, never by the main
# process. The target's HOME is /home/nfs, whose ascend directory is a link; reading that
# link blocks like a lookup on a dead NFS server (a readlink on PATH that ignores TERM and
# sleeps 100 s). The listing of HOME/ascend/log must be stopped by --timeout and recorded
# timed_out, and the run must end by --deadline: had the main process resolved the path
# itself, it would sit in that readlink for 100 s and no deadline could fire.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

fake_host_new
a=5400
plant "/proc/$a/cmdline" 'python3\0train.py\0'
plant "/proc/$a/environ" 'HOME=/home/nfs\0'
plant "/proc/$a/status" "Name:\tpython3\nState:\tS (sleeping)\nPid:\t$a\nUid:\t0\t0\t0\t0\nGid:\t0\t0\t0\t0\nGroups:\t\n"
plant "/proc/$a/stat" "$a (python3) S 1 $a 1 0 -1 4194304 1 0 0 0 52 4 0 0 20 0 57 0 7745000 0 0\n"
plant "/proc/$a/maps" 'ffff8c000000-ffff8c400000 r-xp 00000000 fd:00 99 /usr/lib/libascendcl.so\n'
fake_process_extras "$a" 4026531840 ../..
mkdir -p "$SYSROOT/home/nfs/real/log"
ln -s real "$SYSROOT/home/nfs/ascend"

real=$(type -P readlink)
rm -f "$H/bin/readlink"
cat > "$H/bin/readlink" <<STUB
#!/bin/bash
case "\$*" in
  */home/nfs/*)
    trap '' TERM INT HUP
    echo "\$\$" >> "$H/state/pids"
    echo "\$PPID" >> "$H/state/nfs-lookups"
    for ((i = 0; i < 100; i++)); do sleep 1; done ;;
esac
exec "$real" "\$@"
STUB
chmod 755 "$H/bin/readlink"

run_collect -p "$a" --timeout 3 --deadline 40 --safe-mode
unpack_archive
check_bundle
((ELAPSED < 75)) || fail "the run took ${ELAPSED}s: the main process waited on the hung lookup (deadline 40 s)"
[ -s "$H/state/nfs-lookups" ] || fail "the link under HOME was never read (the test hangs nothing)"
expect_item logs/host/home/nfs/ascend/log timed_out
expect_item processes/$a/status ok
finish
