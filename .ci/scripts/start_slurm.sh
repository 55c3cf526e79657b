#!/usr/bin/env bash
# Start a throw-away single-node SLURM cluster (munged, slurmctld, slurmd) for
# the cluster test, as plain daemons (no systemd), everything under one folder.
#
# usage: start_slurm.sh DIR
#
# DIR receives slurm.conf, the munge key and socket, state, logs, and `pids`
# (one "name pid" per line; stop_slurm.sh DIR stops exactly those processes).
# Point clients at the cluster with `export SLURM_CONF=DIR/slurm.conf`.
#
# Installs Debian's slurmctld, slurmd, slurm-client and munge when missing
# (needs root and apt-get). Exit codes: 0 running; 3 SLURM unavailable here
# (not root / no apt, packages missing) with the reason on stderr; 1 failure.
set -euo pipefail

dir=${1:?usage: start_slurm.sh DIR}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
log() { echo "start_slurm: $*" >&2; }
unavailable() { log "SLURM unavailable: $*"; exit 3; }

# ------------------------------------------------------------------ packages
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null \
    || ! command -v sinfo >/dev/null || ! command -v munged >/dev/null; then
    [ "$(id -u)" -eq 0 ] || unavailable "slurmctld/slurmd/munge not installed and not root"
    command -v apt-get >/dev/null || unavailable "slurmctld/slurmd/munge not installed and no apt-get"
    log "installing slurmctld slurmd slurm-client munge"
    export DEBIAN_FRONTEND=noninteractive
    if ! apt-get install -y -q --no-install-recommends \
            slurmctld slurmd slurm-client munge >"$dir/apt.log" 2>&1; then
        apt-get update -q >>"$dir/apt.log" 2>&1 || true
        apt-get install -y -q --no-install-recommends \
            slurmctld slurmd slurm-client munge >>"$dir/apt.log" 2>&1 \
            || unavailable "apt-get install failed (see $dir/apt.log)"
    fi
fi
# Daemons run as the current user; slurmd must be root to start jobs as their
# owners.
[ "$(id -u)" -eq 0 ] || unavailable "slurmd has to run as root"

# --------------------------------------------------------------------- munge
mkdir -p "$dir/munge" "$dir/state" "$dir/spool" "$dir/log"
chmod 700 "$dir/munge"
key="$dir/munge/munge.key"
head -c 1024 /dev/urandom >"$key"
chmod 400 "$key"
socket="$dir/munge/munge.socket"

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
ctld_port=$(free_port)
slurmd_port=$(free_port)
while [ "$slurmd_port" = "$ctld_port" ]; do slurmd_port=$(free_port); done

# ---------------------------------------------------------------- slurm.conf
node=$(hostname -s)
cpus=$(nproc)
# Leave 10% of the memory to the system; jobs ask for mem_mb out of the rest.
mem_mb=$(awk '/^MemTotal:/ {printf "%d", $2 / 1024 * 0.9}' /proc/meminfo)
cat >"$dir/slurm.conf" <<CONF
# Single-node test cluster written by start_slurm.sh
ClusterName=mlfsci
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=$(id -un)
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool/slurmd-%n
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$dir/log/jobcomp.txt
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
DefMemPerCPU=500
MinJobAge=600
ReturnToService=2
MpiDefault=none
SwitchType=switch/none
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem_mb State=UNKNOWN
PartitionName=debug Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$dir/slurm.conf"

# The executor plugin's job step drops every SLURM_* variable (SLURM_CONF too)
# before its nested `srun`, which then looks for the default config path.
# Link ours there, unless a real cluster's config or another live test
# cluster owns it.
default_conf=/etc/slurm/slurm.conf
if [ -e "$default_conf" ] || [ -L "$default_conf" ]; then
    if [ ! -L "$default_conf" ]; then
        unavailable "$default_conf belongs to another SLURM installation"
    fi
    other=$(dirname "$(readlink "$default_conf")")
    if [ -f "$other/pids" ] && [ "$other" != "$dir" ]; then
        for pid in $(awk '{print $2}' "$other/pids"); do
            kill -0 "$pid" 2>/dev/null \
                && unavailable "another test cluster ($other) is running"
        done
    fi
fi
mkdir -p "$(dirname "$default_conf")"
ln -sfn "$dir/slurm.conf" "$default_conf"
echo "$default_conf" >"$dir/linked"

# ------------------------------------------------------------------- daemons
: >"$dir/pids"
start() {  # name command...: start in the foreground mode, detached, record pid
    local name=$1
    shift
    setsid "$@" </dev/null >"$dir/log/$name.out" 2>&1 &
    echo "$name $!" >>"$dir/pids"
}
start munged munged --foreground --force --key-file="$key" --socket="$socket" \
    --pid-file="$dir/munge/munged.pid" --log-file="$dir/log/munged.log" \
    --seed-file="$dir/munge/munged.seed"
for _ in $(seq 50); do [ -S "$socket" ] && break; sleep 0.1; done
[ -S "$socket" ] || { log "munged did not start:"; cat "$dir/log/munged.out" "$dir/log/munged.log" >&2; exit 1; }
start slurmctld slurmctld -D -i -f "$dir/slurm.conf"
start slurmd slurmd -D -f "$dir/slurm.conf"

# Wait until the node is idle (the scheduler accepts and runs jobs).
for _ in $(seq 120); do
    state=$(sinfo -h -N -o %t 2>/dev/null | head -n1 || true)
    if [ "$state" = idle ]; then
        log "SLURM up: node $node idle ($cpus CPUs, ${mem_mb} MB); SLURM_CONF=$dir/slurm.conf"
        exit 0
    fi
    sleep 0.5
done
log "node not idle after 60 s (state: ${state:-none}); logs in $dir/log"
tail -n 20 "$dir"/log/*.log >&2 || true
exit 1
