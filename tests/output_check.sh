#!/bin/sh
# Output that cannot be written is an error: coalsim's reports, --html, the
# subcommands' output to a full disk (/dev/full), to a closed stdout and into
# a closed pipe must each end with a message on stderr and exit status 1.
# usage: tests/output_check.sh COALSIM
bin=${1:?usage: output_check.sh COALSIM}
cd "$(dirname "$0")/.." || exit 2
tmp=${TMPDIR:-/tmp}/coalsim-output.$$
mkdir -p "$tmp" || exit 2
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
full="coalsim: cannot write to stdout: No space left on device"
closed="coalsim: cannot write to stdout: Bad file descriptor"

# check NAME STATUS EXPECTED-STDERR: the last command's status and stderr ($tmp/err)
check() {
    if [ "$2" = 1 ] && [ "$(cat "$tmp/err")" = "$3" ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL $1: status $2 (want 1), stderr:"; cat "$tmp/err"; echo "want: $3"
    fi
}

# to /dev/full and to a closed stdout, for every output form
while read -r name args; do
    case "$name" in ''|'#'*) continue ;; esac
    # shellcheck disable=SC2086
    "$bin" $args >/dev/full 2>"$tmp/err"; check "$name >/dev/full" $? "$full"
    # shellcheck disable=SC2086
    "$bin" $args >&- 2>"$tmp/err"; check "$name >&-" $? "$closed"
done <<'LIST'
text           traces/add.trace
json           --json traces/add.trace
csv            --csv traces/add.trace
per_request    --per-request traces/add_offset.trace
json_requests  --json --per-request traces/rowcol_sum.trace
picture        --picture tests/cli/shared_picture.trace
hier           --hier traces/add.trace
two_traces     traces/add.trace traces/add_offset.trace
help           --help
version        --version
advise         advise --tile 16x32
convert_help   convert --help
sketch         sketch examples/sketches/row_sum.sketch
sketch_report  examples/sketches/transposeSmem.sketch
to_text        convert --warp-size 4 tests/cli/rowcol_sum.bin -
LIST

# output files that cannot be written
"$bin" --html /dev/full traces/add.trace >"$tmp/out" 2>"$tmp/err"
check "--html /dev/full" $? "coalsim: /dev/full: cannot write the HTML report"
"$bin" convert traces/add.trace /dev/full 2>"$tmp/err"
check "convert to /dev/full" $? "coalsim: /dev/full: cannot write: No space left on device"
if [ -c /dev/full ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL convert removed /dev/full"; fi

# a pipe closed by its reader: more output than the pipe holds
"$bin" sketch examples/sketches/transpose1.sketch --set N=256 >"$tmp/big.trace" &&
    "$bin" convert "$tmp/big.trace" "$tmp/big.bin" || { echo "FAIL: cannot make the large trace"; exit 1; }
while read -r name args; do
    # shellcheck disable=SC2086
    { "$bin" $args 2>"$tmp/err"; echo $? >"$tmp/status"; } | head -c 1 >/dev/null
    if [ "$(cat "$tmp/status")" = 1 ] && grep -q ': Broken pipe$' "$tmp/err" && [ "$(wc -l <"$tmp/err")" = 1 ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1)); echo "FAIL $name | head -c 1: status $(cat "$tmp/status"), stderr:"; cat "$tmp/err"
    fi
done <<LIST
picture        --picture traces/smem_square.trace
per_request    --per-request $tmp/big.trace
sketch         sketch examples/sketches/transpose1.sketch --set N=256
to_text        convert $tmp/big.bin -
LIST

# and output that can be written still exits 0
"$bin" --json traces/add.trace >"$tmp/out" 2>"$tmp/err"
if [ $? = 0 ] && [ -s "$tmp/out" ] && [ ! -s "$tmp/err" ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: a good run"; fi

echo "output: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
