#!/bin/sh
# Golden CLI tests.  usage: tests/golden.sh [--show|--update] COALSIM
#   (default) run every case of traces/examples.list and tests/cli/cases.list and
#             compare stdout, stderr and exit status exactly with the expected files
#   --show    only run the examples and print their reports (make examples)
#   --update  rewrite the expected files from what coalsim prints now
# A list line is: NAME ARGS...  (ARGS split on spaces; '<FILE' as the last
# word feeds FILE on stdin).  Expected: DIR/expected/NAME.out, NAME.err (absent =
# empty) and NAME.status (absent = 0).
mode=check
case "$1" in --show|--update) mode=${1#--}; shift ;; esac
bin=${1:?usage: golden.sh [--show|--update] COALSIM}
cd "$(dirname "$0")/.." || exit 2
tmp=${TMPDIR:-/tmp}/coalsim-golden.$$
mkdir -p "$tmp" || exit 2
trap 'rm -rf "$tmp"' EXIT
jsoncheck=$tmp/jsoncheck.py
cat >"$jsoncheck" <<'PY'
import json, sys
s, i, d = open(sys.argv[1]).read(), 0, json.JSONDecoder()
while s[i:].strip():
    i += len(s[i:]) - len(s[i:].lstrip())
    _, i = d.raw_decode(s, i)
PY
pass=0 fail=0
run_list() {
    list=$1 dir=$2
    while read -r name args; do
        case "$name" in ''|'#'*) continue ;; esac
        input=/dev/null
        case "$args" in *' <'*) input=${args##* <}; args=${args% <*} ;; esac
        # shellcheck disable=SC2086
        "$bin" $args <"$input" >"$tmp/out" 2>"$tmp/err"
        echo $? >"$tmp/status"
        if [ "$mode" = show ]; then
            printf '$ coalsim %s\n' "$args"; cat "$tmp/out" "$tmp/err"; echo
            continue
        fi
        exp=$dir/expected/$name
        if [ "$mode" = update ]; then
            cp "$tmp/out" "$exp.out"
            if [ -s "$tmp/err" ]; then cp "$tmp/err" "$exp.err"; else rm -f "$exp.err"; fi
            if [ "$(cat "$tmp/status")" != 0 ]; then cp "$tmp/status" "$exp.status"; else rm -f "$exp.status"; fi
            continue
        fi
        [ -f "$exp.err" ] && cp "$exp.err" "$tmp/experr" || : >"$tmp/experr"
        [ -f "$exp.status" ] && cp "$exp.status" "$tmp/expstatus" || echo 0 >"$tmp/expstatus"
        case " $args " in
        *' --json '*)   # JSON output must parse (one object per trace)
            if [ "$(cat "$tmp/status")" = 0 ] && ! python3 "$jsoncheck" "$tmp/out"; then
                fail=$((fail + 1)); echo "FAIL $name: not JSON: coalsim $args"; continue
            fi ;;
        esac
        if cmp -s "$tmp/out" "$exp.out" && cmp -s "$tmp/err" "$tmp/experr" && cmp -s "$tmp/status" "$tmp/expstatus"; then
            pass=$((pass + 1))
        else
            fail=$((fail + 1))
            echo "FAIL $name: coalsim $args"
            diff "$exp.out" "$tmp/out" | head -10
            diff "$tmp/experr" "$tmp/err" | head -5
            diff "$tmp/expstatus" "$tmp/status"
        fi
    done <"$list"
}
run_list traces/examples.list traces
[ "$mode" = show ] && exit 0
run_list tests/cli/cases.list tests/cli
[ "$mode" = update ] && { echo "expected files updated"; exit 0; }
echo "golden: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
