#!/usr/bin/env bash
# Stop the daemons that start_slurm.sh DIR started (by the pids it recorded).
# usage: stop_slurm.sh DIR
set -uo pipefail
dir=${1:?usage: stop_slurm.sh DIR}
[ -f "$dir/pids" ] || exit 0
# Reverse order: slurmd, slurmctld, then munged.
pids=$(awk '{print $2}' "$dir/pids" | tac)
for pid in $pids; do kill -TERM "$pid" 2>/dev/null || true; done
for _ in $(seq 50); do
    alive=""
    for pid in $pids; do kill -0 "$pid" 2>/dev/null && alive="$alive $pid"; done
    [ -z "$alive" ] && break
    sleep 0.2
done
for pid in $alive; do kill -KILL "$pid" 2>/dev/null || true; done
rm -f "$dir/pids"
# Remove the default-path link start_slurm.sh made, if it is still ours.
if [ -f "$dir/linked" ]; then
    link=$(cat "$dir/linked")
    [ "$(readlink "$link" 2>/dev/null)" = "$dir/slurm.conf" ] && rm -f "$link"
    rm -f "$dir/linked"
fi
echo "stop_slurm: stopped$(for p in $pids; do printf ' %s' "$p"; done)" >&2
