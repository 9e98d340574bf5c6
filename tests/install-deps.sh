#!/bin/sh
# Install what the tests need, from Debian's packages, unless it is there:
# Check and pkg-config (unit tests; pkg-config also for make installcheck),
# clang with libFuzzer (make fuzz), python3 (make hwcheck, make pycheck),
# zlib's header (gzip input), groff (the man page's check), chromium (make
# htmlcheck).  Uses sudo when not root.  Works on any current Debian: the
# clang runtime package is the one of the installed clang's major version.
need=
command -v pkg-config >/dev/null 2>&1 || need="$need pkg-config"
command -v pkg-config >/dev/null 2>&1 && pkg-config --exists check || need="$need check"
command -v python3 >/dev/null 2>&1 || need="$need python3"
printf '#include <zlib.h>\n' | cc -E - >/dev/null 2>&1 || need="$need zlib1g-dev"
command -v groff >/dev/null 2>&1 || need="$need groff-base"
command -v chromium >/dev/null 2>&1 || need="$need chromium"
command -v clang >/dev/null 2>&1 || need="$need clang"

SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
updated=
get() {
    echo "installing:$* (Debian packages)"
    [ -n "$updated" ] || $SUDO apt-get update -qq || return 1
    updated=yes
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$@" >/dev/null
}
# shellcheck disable=SC2086
[ -z "$need" ] || get $need || exit 1

# libFuzzer lives in libclang-rt-N-dev, N the major version of the clang
# installed (Debian 12: 14; Debian 13: 19)
tmp=${TMPDIR:-/tmp}/coalsim-deps.$$
printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' >"$tmp.c"
if ! clang -fsanitize=fuzzer,address -o "$tmp" "$tmp.c" >/dev/null 2>&1; then
    major=$(clang --version 2>/dev/null | sed -n 's/.*clang version \([0-9][0-9]*\).*/\1/p' | head -1)
    if [ -z "$major" ]; then
        echo "install-deps: cannot tell clang's version" >&2
    else
        get "libclang-rt-$major-dev" ||
            echo "install-deps: libclang-rt-$major-dev did not install (make fuzz needs libFuzzer)" >&2
    fi
fi
rm -f "$tmp" "$tmp.c"
pkg-config --exists check || { echo "install-deps: Check is still missing" >&2; exit 1; }
