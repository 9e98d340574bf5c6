#!/bin/sh
# The HTML report in a real browser: Debian's chromium, headless, loads
# coalsim's report with no console errors, and a screenshot shows the
# figures (many coloured pixels); with --profile, the time chart.  usage: tests/html_check.sh COALSIM
set -e
bin=${1:?usage: html_check.sh COALSIM}
cd "$(dirname "$0")/.."
tmp=${TMPDIR:-/tmp}/coalsim-html.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || { echo "html_check: chromium is not installed (tests/install-deps.sh installs it)" >&2; exit 1; }
status=0
# A screenshot of $tmp/r.html into $tmp/shot.png, the browser's log into $tmp/log.  A headless chromium
# that starts on a fresh profile now and then exits without one (seen on a new machine's first run),
# so a missing screenshot is tried once more before it counts.
shoot() {
    for try in 1 2; do
        rm -f "$tmp/shot.png"
        timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
            --disable-background-networking --disable-component-update --disable-sync \
            --user-data-dir="$tmp/profile" --enable-logging=stderr --v=0 --hide-scrollbars \
            --window-size=1200,1400 --screenshot="$tmp/shot.png" "file://$tmp/r.html" > "$tmp/log" 2>&1 || true
        [ -s "$tmp/shot.png" ] && return 0
        [ $try = 1 ] && echo "html_check: no screenshot, trying again"
    done
    return 0
}
# the third with a predicted time: its terms drawn as bars (timechart.c)
for t in traces/add_offset.trace traces/smem_rect.trace "--hier --profile gpu/profiles/h100.txt traces/transpose1.trace"; do
    # shellcheck disable=SC2086  # the third's options split on purpose
    "$bin" --html "$tmp/r.html" $t > /dev/null
    case $t in --hier*) grep -q 'class="timechart"' "$tmp/r.html" || { echo "html_check: $t: no time chart"; status=1; } ;; esac
    shoot
    if grep -E "CONSOLE|Uncaught" "$tmp/log" > "$tmp/console"; then
        echo "html_check: $t: console messages:"; cat "$tmp/console"; status=1
    fi
    if [ ! -s "$tmp/shot.png" ]; then
        echo "html_check: $t: no screenshot"; tail -5 "$tmp/log"; status=1; continue
    fi
    python3 tests/png_colour.py "$tmp/shot.png" 5000 "$t" || status=1
done
[ $status -eq 0 ] && echo "html_check: 3 reports load without console errors and show their figures"
exit $status
