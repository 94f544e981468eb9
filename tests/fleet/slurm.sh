#!/usr/bin/env bash
# The map step of fleet triage as a Slurm job array, for real (docs/fleet.md): starts munged
# and a single-node Slurm (slurmctld + slurmd) on this machine with their own key, socket,
# ports and state in a temporary directory (proctrack/linuxproc, task/none, no cgroup
# plug-ins, no systemd), submits `analyze --format summary` over the fleet's bundles as an
# array, waits, runs `fleet` on what the array wrote, and stops the daemons it started by pid.
# Usage: slurm.sh BIN REPO_ROOT [VARIANT]. Exit 77 (skipped) when not root or when Slurm or
# munge is missing, unless CI=true (then that is a failure).
set -euo pipefail
bin=$(readlink -f "$1") root=$(readlink -f "$2") variant=${3:-fleet-4node}
skip() {
  if [ "${CI:-}" = true ]; then echo "FAIL (CI=true): $*" >&2; exit 1; fi
  echo "SKIP: $*"; exit 77
}
[ "$(id -u)" = 0 ] || skip "not root: slurmd runs jobs as their user and needs root here"
for c in munged slurmctld slurmd sbatch squeue scontrol sinfo; do
  command -v "$c" >/dev/null || skip "$c not installed (Debian: slurm-wlm, munge)"
done

tmp=$(mktemp -d /tmp/triage-slurm.XXXXXX)
chmod 700 "$tmp"
pids=()
cleanup() {
  local p
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do
    for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$p" 2>/dev/null || true
  done
  rm -rf "$tmp"
}
trap cleanup EXIT
fail() {
  echo "FAIL: $*" >&2
  for f in "$tmp"/*.log "$tmp"/out/*.out; do [ -f "$f" ] && { echo "== $f"; tail -n 20 "$f"; } >&2; done
  exit 1
}

# munge: its own key and socket.
dd if=/dev/urandom of="$tmp/munge.key" bs=1024 count=1 status=none
chmod 400 "$tmp/munge.key"
munged --foreground --force --key-file="$tmp/munge.key" --socket="$tmp/munge.sock" \
  --pid-file="$tmp/munged.pid" --log-file="$tmp/munged.log" --seed-file="$tmp/munged.seed" \
  >>"$tmp/munged.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do [ -S "$tmp/munge.sock" ] && break; sleep 0.1; done
[ -S "$tmp/munge.sock" ] || fail "munged did not create its socket"

# Ports off the defaults (6817/6818) and from this process's id, so two runs do not collide.
port=$((20000 + ($$ % 20000) * 2))
node=$(hostname -s)
mkdir -p "$tmp/state" "$tmp/spool" "$tmp/out"
cat >"$tmp/slurm.conf" <<CONF
ClusterName=triage
SlurmctldHost=$node
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$tmp/munge.sock
CredType=cred/munge
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
NodeName=$node CPUs=$(nproc) State=UNKNOWN
PartitionName=triage Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$tmp/slurm.conf
slurmctld -D -c -i -f "$SLURM_CONF" >>"$tmp/slurmctld.log" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" -N "$node" >>"$tmp/slurmd.log" 2>&1 &
pids+=($!)
ready=""
for _ in $(seq 150); do
  if sinfo -h -N -o '%T' 2>/dev/null | grep -Eq '^(idle|mixed|allocated)'; then ready=1; break; fi
  sleep 0.2
done
[ -n "$ready" ] || fail "the Slurm node did not come up ($(sinfo -h -N -o '%T %E' 2>&1))"

# The map: one array task per bundle; exit 1 (findings) is success for the map.
ls -d "$root/samples/$variant"/node* >"$tmp/bundles.txt"
n=$(wc -l <"$tmp/bundles.txt")
cat >"$tmp/map.sh" <<'JOB'
#!/usr/bin/env bash
bundle=$(sed -n "$((SLURM_ARRAY_TASK_ID + 1))p" "$BUNDLES")
rc=0
"$TRIAGE" --quiet analyze --format summary "$bundle" -o "$OUT/$(basename "$bundle").json" || rc=$?
[ "$rc" -le 1 ]
JOB
chmod +x "$tmp/map.sh"
TRIAGE=$bin BUNDLES=$tmp/bundles.txt OUT=$tmp/out timeout 240 \
  sbatch --wait --parsable --array="0-$((n - 1))" --cpus-per-task=1 --job-name=triage-map \
  --output="$tmp/out/%A_%a.out" "$tmp/map.sh" >"$tmp/jobid" || fail "the array job failed (sbatch exit)"
count=$(ls "$tmp"/out/*.json 2>/dev/null | wc -l)
[ "$count" = "$n" ] || fail "the array wrote $count summaries, want $n"

# The reduce on what the array wrote.
rc=0
"$bin" fleet "$tmp/out" >"$tmp/fleet.txt" || rc=$?
[ "$rc" = 1 ] || fail "fleet exited $rc, want 1"
cat "$tmp/fleet.txt"
grep -q '^  1\. origin  node3' "$tmp/fleet.txt" || fail "fleet does not name node3 first"
echo "slurm: array job $(cat "$tmp/jobid") mapped $n bundles; fleet names node3 first"
