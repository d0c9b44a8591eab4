#!/usr/bin/env bash
# Prove docs/cluster.md on real tools: run its Slurm job array on a one-node Slurm cluster
# started here, and its Kubernetes indexed Job's command for every index (after validating the
# Job against the Kubernetes API schema), merge the parts, and compare every file of the merge
# with a run of the same experiment on one machine.
#
#   scripts/cluster-check.sh [slurm|kubernetes|all]      (default: all)
#
# The job script, the submit commands and the Job are taken from docs/cluster.md (the blocks
# after `<!-- slurm: ... -->` and `<!-- kubernetes: ... -->`), so the page cannot drift from
# what is checked.
#
# Needs: Debian's slurm-wlm and munge (`apt-get install slurm-wlm munge`), run as root (slurmd
# starts jobs as their user); for Kubernetes, `kubernetes-validate` (PyPI) on PATH or named by
# $KUBERNETES_VALIDATE, and a Python with PyYAML (the one kubernetes-validate is installed in).
# The morale-lab binary is $MORALE_LAB_BIN, else built here (`cargo build --release`).
# Everything the cluster writes (munge key and socket, slurm.conf, state, logs) is in a fresh
# temporary folder; no system file is touched, and the daemons are stopped by their process ids
# when the script ends, also on failure. KEEP=1 keeps the folder.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
doc="$repo/docs/cluster.md"
what=${1:-all}
case "$what" in
slurm | kubernetes | all) ;;
*)
    echo "usage: $0 [slurm|kubernetes|all]" >&2
    exit 2
    ;;
esac

fail() {
    echo "cluster-check: FAILED: $*" >&2
    exit 1
}

# The morale-lab binary, on PATH as `morale-lab` for the doc's commands.
if [ -z "${MORALE_LAB_BIN:-}" ]; then
    (cd "$repo" && cargo build --release --quiet)
    MORALE_LAB_BIN="${CARGO_TARGET_DIR:-$repo/target}/release/morale-lab"
fi
[ -x "$MORALE_LAB_BIN" ] || fail "no morale-lab binary at $MORALE_LAB_BIN"

work=$(mktemp -d /tmp/morale-lab-cluster.XXXXXX)
chmod 700 "$work"
mkdir -p "$work/bin"
ln -s "$(cd "$(dirname "$MORALE_LAB_BIN")" && pwd)/$(basename "$MORALE_LAB_BIN")" "$work/bin/morale-lab"
export PATH="$work/bin:$PATH"

pids=()
child=""
cleanup() {
    local status=$?
    if [ -n "$child" ]; then
        kill -- "$child" 2>/dev/null || true
    fi
    # Jobs still running are cancelled while slurmd is there to end their steps.
    if [ -n "${SLURM_CONF:-}" ] && [ -n "$(squeue -h -o %A 2>/dev/null)" ]; then
        # shellcheck disable=SC2046 # one job id a word
        scancel --full $(squeue -h -o %A) 2>/dev/null || true
        for _ in $(seq 1 100); do
            [ -z "$(squeue -h -o %A 2>/dev/null)" ] && break
            sleep 0.1
        done
    fi
    for pid in "${pids[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
    for pid in "${pids[@]}"; do
        for _ in $(seq 1 50); do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.1
        done
        kill -9 "$pid" 2>/dev/null || true
    done
    if [ "${#pids[@]}" -gt 0 ]; then
        echo "== stopped the daemons (process ids ${pids[*]})"
    fi
    if [ "${KEEP:-0}" = 1 ]; then
        echo "kept $work"
    else
        rm -rf "$work"
    fi
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Run a long command in the background and wait for it, so that a signal to this script is
# handled at once (bash runs a trap only when the foreground command ends); its output goes to
# the file $1.
waiting() {
    local log=$1
    shift
    "$@" >"$log" 2>&1 &
    child=$!
    local rc=0
    wait "$child" || rc=$?
    child=""
    return "$rc"
}

# The code block after `<!-- $1 -->` in docs/cluster.md.
block() {
    local text
    text=$(awk -v m="<!-- $1 -->" '
        $0 == m { found = 1; next }
        found == 1 && /^```/ { found = 2; next }
        found == 2 && /^```/ { exit }
        found == 2 { print }' "$doc")
    [ -n "$text" ] || fail "docs/cluster.md has no block marked <!-- $1 -->"
    printf '%s\n' "$text"
}

# A folder with what the shards need: the experiments and the files they name.
project() {
    mkdir -p "$1"
    cp -r "$repo/experiments" "$repo/rulesets" "$repo/mechanics" "$1/"
}

# Every file of the merged report ($1) is the single run's ($2) byte for byte, but timing.json,
# whose every entry says it is the sum of $3 shards' times.
compare() {
    local merged=$1 single=$2 shards=$3
    local files
    files=$(find "$single" -type f | wc -l)
    [ "$files" -gt 10 ] || fail "the single run wrote only $files files"
    diff -r --exclude=timing.json "$merged" "$single" >/dev/null ||
        fail "$merged and $single differ: $(diff -rq --exclude=timing.json "$merged" "$single" | head -5)"
    local runs summed
    runs=$(grep -c '"variant"' "$single/timing.json")
    summed=$(grep -c "\"elapsed_is\": \"the sum of $shards shards' times\"" "$merged/timing.json" || true)
    [ "$runs" = "$summed" ] || fail "timing.json of the merge says the sum of $shards shards' times in $summed of $runs runs"
    if grep -q '"elapsed_s": 0.0,' "$merged/timing.json"; then
        fail "timing.json of the merge has a run of 0 seconds"
    fi
    echo "identical: the merge of $shards shards and the single run, $((files - 1)) files byte for byte; timing.json sums the shards' times ($runs runs)"
}

# `merge` with parts missing or cut short exits 2 naming what is wrong; $1 is a folder of parts.
refusals() {
    local parts=$1 n=$2 out
    mkdir -p "$work/refused"
    cp "$parts"/part-*.json "$work/refused/"
    rm "$work/refused/part-2.json"
    set +e
    out=$(morale-lab merge "$work/refused"/part-*.json --out "$work/refused/report" 2>&1)
    local rc=$?
    set -e
    [ "$rc" = 2 ] || fail "a merge with part 2 missing exited $rc: $out"
    [[ "$out" == *"shard 2/$n is missing"* ]] || fail "a merge with part 2 missing said: $out"
    echo "refused, exit 2: $out"
    head -c 2000 "$parts/part-2.json" >"$work/refused/part-2.json"
    set +e
    out=$(morale-lab merge "$work/refused"/part-*.json --out "$work/refused/report" 2>&1)
    rc=$?
    set -e
    [ "$rc" = 2 ] || fail "a merge with a part cut short exited $rc: $out"
    [[ "$out" == *"refused/part-2.json: is not a shard file"* ]] || fail "a merge with a part cut short said: $out"
    echo "refused, exit 2: $out"
    [ ! -e "$work/refused/report" ] || fail "a refused merge wrote $work/refused/report"
    rm -rf "$work/refused"
}

slurm() {
    echo "== Slurm: a one-node cluster from Debian's slurm-wlm and munge"
    for c in munged slurmctld slurmd sbatch sinfo scontrol; do
        command -v "$c" >/dev/null || fail "$c is not installed (apt-get install slurm-wlm munge)"
    done
    [ "$(id -u)" = 0 ] || fail "run as root: slurmd starts the jobs"
    slurmd -V

    local s="$work/slurm"
    mkdir -p "$s/munge" "$s/state" "$s/spool" "$s/log"
    chmod 700 "$s/munge"
    # A key of our own and munged on a socket of our own: the system's munge is left alone.
    dd if=/dev/urandom of="$s/munge/munge.key" bs=1024 count=1 status=none
    chmod 400 "$s/munge/munge.key"
    munged --foreground --force --key-file="$s/munge/munge.key" \
        --socket="$s/munge/munge.socket" --pid-file="$s/munge/munged.pid" \
        --log-file="$s/munge/munged.log" --seed-file="$s/munge/munged.seed" \
        >"$s/log/munged.out" 2>&1 &
    pids+=($!)
    for _ in $(seq 1 100); do
        [ -S "$s/munge/munge.socket" ] && break
        sleep 0.1
    done
    [ -S "$s/munge/munge.socket" ] || fail "munged did not start: $(cat "$s/munge/munged.log" 2>/dev/null)"
    munge --socket="$s/munge/munge.socket" -n | unmunge --socket="$s/munge/munge.socket" >/dev/null ||
        fail "munge does not decode its own credential"

    # This host as it is (slurmd -C), its CPUs and memory, reached on loopback (no name lookup);
    # ports away from a system Slurm's.
    local node host cpus
    node=$(slurmd -C | head -n 1)
    host=$(printf '%s\n' "$node" | sed -n 's/^NodeName=\([^ ]*\).*/\1/p')
    cpus=$(printf '%s\n' "$node" | sed -n 's/.* CPUs=\([0-9]*\).*/\1/p')
    cat >"$s/slurm.conf" <<EOF
ClusterName=morale-lab-check
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=16817
SlurmdPort=16818
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$s/munge/munge.socket
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$s/state
SlurmdSpoolDir=$s/spool
SlurmctldPidFile=$s/slurmctld.pid
SlurmdPidFile=$s/slurmd.pid
SlurmctldLogFile=$s/log/slurmctld.log
SlurmdLogFile=$s/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
$node NodeAddr=127.0.0.1
PartitionName=check Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
    export SLURM_CONF="$s/slurm.conf"
    slurmctld -D -i >"$s/log/slurmctld.out" 2>&1 &
    pids+=($!)
    slurmd -D >"$s/log/slurmd.out" 2>&1 &
    pids+=($!)
    local state=""
    for _ in $(seq 1 120); do
        state=$(sinfo -h -o '%T' 2>/dev/null || true)
        [ "$state" = idle ] && break
        sleep 0.5
    done
    sinfo
    [ "$state" = idle ] || fail "the node is not idle after 60 s (state '$state'): $(tail -n 5 "$s"/log/* 2>/dev/null)"

    echo "== Slurm: the job array of docs/cluster.md"
    local run="$work/slurm-run"
    project "$run"
    block "slurm: shard.sbatch" >"$run/shard.sbatch"
    block "slurm: submit" >"$run/submit.sh"
    cat "$run/shard.sbatch"
    local experiment shards want
    experiment=$(sed -n 's/^EXPERIMENT=\([^ ]*\).*/\1/p' "$run/shard.sbatch")
    shards=$(sed -n 's/^SHARDS=\([0-9]*\).*/\1/p' "$run/shard.sbatch")
    want=$(sed -n 's/^#SBATCH --cpus-per-task=\([0-9]*\).*/\1/p' "$run/shard.sbatch")
    if [ -z "$experiment" ] || [ -z "$shards" ] || [ -z "$want" ]; then
        fail "the job script has no EXPERIMENT=, SHARDS= or --cpus-per-task="
    fi
    [ "$want" -le "$cpus" ] || fail "the job script asks for $want CPUs a task; this node has $cpus"
    local out
    waiting "$run/submit.out" sh -c "cd '$run' && exec timeout 900 bash -euo pipefail submit.sh" ||
        fail "the submit commands failed: $(cat "$run/submit.out") $(tail -n 5 "$s"/log/* "$run"/logs/* 2>/dev/null)"
    out=$(cat "$run/submit.out")
    printf '%s\n' "$out"
    local job
    job=$(printf '%s\n' "$out" | sed -n 's/^Submitted batch job \([0-9]*\).*/\1/p' | head -n 1)
    [ -n "$job" ] || fail "no job id in sbatch's output"
    local completed
    scontrol -o show job "$job" | sed -n 's/.*\(JobId=[0-9]* ArrayJobId=[0-9]* ArrayTaskId=[0-9]*\).*\(JobState=[A-Z]*\).*/\1 \2/p'
    completed=$(scontrol -o show job "$job" | grep -c 'JobState=COMPLETED' || true)
    [ "$completed" = "$shards" ] || fail "$completed of $shards array tasks completed"
    echo "the array's $completed tasks completed"
    local merged
    merged=$(sed -n 's/.*morale-lab merge .* --out \([^ ]*\).*/\1/p' "$run/submit.sh")
    (cd "$run" && morale-lab run "$experiment" --threads "$want" --quiet --out single)
    compare "$run/$merged" "$run/single" "$shards"

    echo "== Slurm: a part lost, and run again as docs/cluster.md says"
    rm "$run/shards/part-3.json"
    set +e
    out=$(cd "$run" && morale-lab merge shards/part-*.json --out again 2>&1)
    local rc=$?
    set -e
    [ "$rc" = 2 ] || fail "a merge with part 3 missing exited $rc: $out"
    [[ "$out" == *"shard 3/$shards is missing"*"sbatch --array=3"* ]] || fail "a merge with part 3 missing said: $out"
    echo "refused, exit 2: $out"
    waiting "$run/again.out" sh -c "cd '$run' && exec timeout 900 sbatch --wait --array=3 shard.sbatch" ||
        fail "the re-run of index 3 failed: $(cat "$run/again.out")"
    cat "$run/again.out"
    (cd "$run" && morale-lab merge shards/part-*.json --out again --quiet)
    compare "$run/again" "$run/single" "$shards"
    refusals "$run/shards" "$shards"

    echo "== Slurm: the same array counted from 0 (--array=0-$((shards - 1)), FIRST=0)"
    local zero="$work/slurm-zero"
    project "$zero"
    sed -e "s/^#SBATCH --array=1-$shards\$/#SBATCH --array=0-$((shards - 1))/" -e 's/^FIRST=1 /FIRST=0 /' \
        "$run/shard.sbatch" >"$zero/shard.sbatch"
    if ! grep -q "^#SBATCH --array=0-$((shards - 1))\$" "$zero/shard.sbatch" || ! grep -q '^FIRST=0 ' "$zero/shard.sbatch"; then
        fail "the job script's --array=1-$shards and FIRST=1 lines were not found to count from 0"
    fi
    cp "$run/submit.sh" "$zero/"
    waiting "$zero/submit.out" sh -c "cd '$zero' && exec timeout 900 bash -euo pipefail submit.sh" ||
        fail "the array counted from 0 failed: $(cat "$zero/submit.out")"
    cat "$zero/submit.out"
    compare "$zero/$merged" "$run/single" "$shards"
}

kubernetes() {
    echo "== Kubernetes: the indexed Job of docs/cluster.md, validated against the API schema"
    local validate=${KUBERNETES_VALIDATE:-kubernetes-validate}
    command -v "$validate" >/dev/null || fail "$validate is not installed (pip install kubernetes-validate)"
    local k="$work/kubernetes"
    mkdir -p "$k"
    block "kubernetes: job.yaml" >"$k/job.yaml"
    block "kubernetes: merge" >"$k/merge.sh"
    "$validate" --version
    "$validate" --strict "$k/job.yaml" || fail "the Job does not validate"
    # The validator's own Python reads the Job: its pods' shell command, the completions, and
    # where the volumes are mounted (each mount becomes a folder here).
    local python
    python=$(head -n 1 "$(command -v "$validate")" | sed 's/^#!//')
    "$python" - "$k/job.yaml" "$k" >"$k/plan" <<'EOF'
import sys, yaml
job = yaml.safe_load(open(sys.argv[1]))
spec = job["spec"]
assert spec["completionMode"] == "Indexed", "the Job is not indexed"
container = spec["template"]["spec"]["containers"][0]
assert container["command"] == ["/bin/sh", "-c"], container["command"]
script = container["args"][0]
mounts = {m["name"]: m["mountPath"] for m in container["volumeMounts"]}
print(spec["completions"])
print(" ".join(f"{path}={sys.argv[2]}/volumes/{name}" for name, path in mounts.items()))
print(script)
EOF
    local completions mounts script merge
    completions=$(sed -n 1p "$k/plan")
    mounts=$(sed -n 2p "$k/plan")
    script=$(sed -n '3,$p' "$k/plan")
    merge=$(cat "$k/merge.sh")
    for m in $mounts; do
        mkdir -p "${m#*=}"
        script=${script//"${m%%=*}/"/"${m#*=}/"}
        merge=${merge//"${m%%=*}/"/"${m#*=}/"}
    done
    local experiments="$k/volumes/experiments" parts="$k/volumes/shards"
    if [ ! -d "$experiments" ] || [ ! -d "$parts" ]; then
        fail "the Job mounts no volumes named experiments and shards"
    fi
    cp "$repo"/experiments/*.toml "$experiments/"
    for i in $(seq 0 $((completions - 1))); do
        JOB_COMPLETION_INDEX=$i /bin/sh -c "$script" || fail "index $i failed: $script"
    done
    (cd "$k" && /bin/sh -c "$merge --quiet") || fail "the merge failed: $merge"
    local experiment threads merged
    experiment=$(printf '%s\n' "$script" | sed -n 's/.*morale-lab run \([^ ]*\).*/\1/p')
    threads=$(printf '%s\n' "$script" | sed -n 's/.*--threads \([0-9]*\).*/\1/p')
    merged=$(printf '%s\n' "$merge" | sed -n 's/.* --out \([^ ]*\).*/\1/p')
    morale-lab run "$experiment" --threads "$threads" --quiet --out "$k/single"
    compare "$merged" "$k/single" "$completions"
    refusals "$parts" "$completions"
}

case "$what" in
slurm) slurm ;;
kubernetes) kubernetes ;;
all)
    slurm
    kubernetes
    ;;
esac
echo "cluster-check: the recipes of docs/cluster.md work ($what)"
