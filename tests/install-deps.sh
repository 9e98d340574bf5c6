#!/bin/sh
# Install what the tests need, from Debian's packages, unless it is there:
# Check and pkg-config (unit tests), clang with libFuzzer (make fuzz), python3
# (make hwcheck), zlib's header (gzip input), chromium (make htmlcheck).  Uses sudo when not root.
need=
if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists check; then need="$need check pkg-config"; fi
command -v python3 >/dev/null 2>&1 || need="$need python3"
printf '#include <zlib.h>\n' | cc -E - >/dev/null 2>&1 || need="$need zlib1g-dev"
command -v chromium >/dev/null 2>&1 || need="$need chromium"
tmp=${TMPDIR:-/tmp}/coalsim-deps.$$
printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' >"$tmp.c"
if ! clang -fsanitize=fuzzer,address -o "$tmp" "$tmp.c" >/dev/null 2>&1; then need="$need clang libclang-rt-14-dev"; fi
rm -f "$tmp" "$tmp.c"
[ -z "$need" ] && exit 0
echo "installing:$need (Debian packages)"
SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $need >/dev/null
pkg-config --exists check || { echo "install-deps: Check is still missing" >&2; exit 1; }
