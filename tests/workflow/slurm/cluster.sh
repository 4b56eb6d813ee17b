#!/usr/bin/env bash
# A real single-node SLURM cluster on this machine, for the SLURM-profile test
# (tests/workflow/test_slurm_cluster.py). Recipe: /work/shared/notes/slurm-local-cluster.md.
#
#   cluster.sh start    install the packages if missing (apt-get), write /etc/slurm/slurm.conf
#                       for this node, start munged, slurmctld and slurmd, wait until the node
#                       is idle. A cluster that already answers (sinfo) is used as it is.
#                       Prints "started: <the daemons this call started>" on stdout.
#   cluster.sh stop [DAEMON...]
#                       stop, by PID file, the named daemons (default: every daemon that a
#                       `start` of this script started and no `stop` stopped yet); never one
#                       this script did not start.
#   cluster.sh status   sinfo of the running cluster.
#
# Exit status of `start`: 0 = a cluster answers; 77 = no cluster can be started here (not
# root, no apt-get, packages not installable): the caller should skip, the reason is the last
# line on stderr; anything else = a start that should have worked failed (logs on stderr).
#
# Ports 6817/6818 and /etc/slurm are machine-global, and the jobstep plugin strips SLURM_CONF
# inside jobs, so the configuration must be the default /etc/slurm/slurm.conf: one cluster per
# machine. The node has NO generic resources (GRES): a job asking for a GPU is rejected by
# sbatch, which the test relies on.
set -euo pipefail

STATE=/run/geobayes-slurm          # daemons started by this script, one name per line
STARTED="$STATE/started"
CONF=/etc/slurm/slurm.conf
PACKAGES=(slurmctld slurmd slurm-client munge)
declare -A PIDFILE=(
  [munged]=/run/munge/munged.pid
  [slurmctld]=/run/slurm/slurmctld.pid
  [slurmd]=/run/slurm/slurmd.pid
)

log() { echo "cluster.sh: $*" >&2; }
cannot() { log "cannot start a SLURM cluster: $*"; exit 77; }

# True if the daemon's PID file names a live process.
running() {
  local pidfile="${PIDFILE[$1]}"
  [ -s "$pidfile" ] && kill -0 "$(cat "$pidfile")" 2>/dev/null
}

# True if slurmctld answers, the node is usable and its slurmd listens (slurmctld notices a
# dead slurmd only after SlurmdTimeout).
answers() {
  command -v sinfo >/dev/null || return 1
  timeout 2 bash -c ': >/dev/tcp/127.0.0.1/6818' 2>/dev/null || return 1
  local state
  state="$(timeout 10 sinfo -h -o %t 2>/dev/null | head -n 1)" || return 1
  [[ "$state" =~ ^(idle|mix|alloc|comp)$ ]]
}

install_packages() {
  local missing=()
  for p in "${PACKAGES[@]}"; do
    dpkg-query -W -f '${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  command -v apt-get >/dev/null || cannot "packages ${missing[*]} are missing and there is no apt-get"
  log "installing ${missing[*]} (apt-get)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2 || cannot "apt-get update failed (no package registry reachable?)"
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2 \
    || cannot "apt-get install ${missing[*]} failed"
}

write_conf() {
  local node cpus mem
  node="$(hostname -s)"
  cpus="$(nproc)"
  mem="$(awk '/^MemTotal:/ {printf "%d", $2 / 1024 * 0.9}' /proc/meminfo)"
  mkdir -p /etc/slurm
  cat >"$CONF" <<EOF
# Written by geobayes tests/workflow/slurm/cluster.sh: a single-node test cluster.
ClusterName=geobayes
SlurmctldHost=localhost
AuthType=auth/munge
CredType=cred/munge
SlurmUser=slurm
SlurmdUser=root
SlurmctldPort=6817
SlurmdPort=6818
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=${PIDFILE[slurmctld]}
SlurmdPidFile=${PIDFILE[slurmd]}
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/affinity
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
DefMemPerCPU=1000
ReturnToService=2
MpiDefault=none
SwitchType=switch/none
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
# Finished jobs stay visible to squeue (the status command without slurmdbd) for an hour.
MinJobAge=3600
KillWait=5
Waittime=0
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
}

# Start one daemon unless it already runs; remember it if this script started it.
start_daemon() {
  local name="$1"; shift
  if running "$name"; then
    log "$name already running (pid $(cat "${PIDFILE[$name]}"))"
    return 0
  fi
  "$@" || { log "$name failed to start"; return 1; }
  local i
  for i in $(seq 50); do
    running "$name" && { echo "$name" >>"$STARTED"; STARTED_NOW+=("$name"); return 0; }
    sleep 0.2
  done
  log "$name did not write ${PIDFILE[$name]}"
  return 1
}

STARTED_NOW=()

start() {
  [ "$(id -u)" -eq 0 ] || cannot "needs root (packages in /usr, daemons, /etc/slurm); running as $(id -un)"
  if answers; then
    log "a cluster already answers; using it"
    echo "started:"
    return 0
  fi
  install_packages
  mkdir -p "$STATE" /run/munge /run/slurm /var/spool/slurmctld /var/spool/slurmd /var/log/slurm
  chown munge:munge /run/munge
  chown slurm:slurm /run/slurm /var/spool/slurmctld /var/log/slurm
  [ -s /etc/munge/munge.key ] || mungekey --create --keyfile=/etc/munge/munge.key
  running slurmctld || write_conf
  start_daemon munged runuser -u munge -- /usr/sbin/munged
  munge -n | unmunge >/dev/null || { log "munge credential check failed"; return 1; }
  start_daemon slurmctld /usr/sbin/slurmctld
  start_daemon slurmd /usr/sbin/slurmd
  local i
  for i in $(seq 150); do
    if answers; then
      log "cluster up: $(sinfo -h -o '%P %t %N cpus=%c mem=%m gres=%G' | head -n 1)"
      echo "started: ${STARTED_NOW[*]}"
      return 0
    fi
    sleep 0.2
  done
  log "the node did not become idle within 30 s"
  sinfo -N -l >&2 || true
  tail -n 20 /var/log/slurm/slurmctld.log /var/log/slurm/slurmd.log >&2 || true
  return 1
}

stop() {
  [ -s "$STARTED" ] || { log "no daemons started by this script"; return 0; }
  local name pid i
  for name in slurmd slurmctld munged; do
    grep -qx "$name" "$STARTED" || continue
    [ $# -eq 0 ] || [[ " $* " == *" $name "* ]] || continue
    if running "$name"; then
      pid="$(cat "${PIDFILE[$name]}")"
      kill "$pid"
      for i in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
      if kill -0 "$pid" 2>/dev/null; then
        log "$name (pid $pid) ignored SIGTERM; SIGKILL"
        kill -9 "$pid" 2>/dev/null || true
      fi
      log "stopped $name (pid $pid)"
    fi
    sed -i "/^$name\$/d" "$STARTED"
  done
}

case "${1:-}" in
  start) start ;;
  stop) shift; stop "$@" ;;
  status) sinfo ;;
  *) echo "usage: $0 start|stop|status" >&2; exit 2 ;;
esac
