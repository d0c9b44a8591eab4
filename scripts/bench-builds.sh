#!/bin/sh
# Compare two builds of morale-lab: their benches run alternately, round by round, so that a
# change in the machine's load falls on both; then the new build compares the rounds, pooled
# (speed new/old per case with its 95% interval, and each case's ratio to its hand-written
# loop). Both builds must have `bench --save` (from the build that added it on).
#
# usage: scripts/bench-builds.sh OLD_BINARY NEW_BINARY [ROUNDS] [bench arguments…]
#   e.g. scripts/bench-builds.sh /tmp/old/morale-lab target/release/morale-lab 5 --seconds 1 "rally RF" "line LW"
set -eu
if [ $# -lt 2 ]; then
    sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
old=$1
new=$2
shift 2
rounds=5
case "${1:-}" in
    ''|*[!0-9]*) ;;
    *) rounds=$1; shift ;;
esac
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
i=1
while [ "$i" -le "$rounds" ]; do
    echo "round $i of $rounds" >&2
    "$old" bench --save "$dir/old-$i.json" "$@" >/dev/null
    "$new" bench --save "$dir/new-$i.json" "$@" >/dev/null
    i=$((i + 1))
done
olds=""
news=""
i=1
while [ "$i" -le "$rounds" ]; do
    olds="$olds $dir/old-$i.json"
    news="$news $dir/new-$i.json"
    i=$((i + 1))
done
# shellcheck disable=SC2086
"$new" bench --compare $olds --to $news
