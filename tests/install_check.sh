#!/bin/sh
# make install / make uninstall into temporary prefixes, and the library as a
# user meets it: examples/c/analyse.c built with `pkg-config --cflags --libs
# coalsim` against the install, run with LD_LIBRARY_PATH (and once linked
# statically with the .pc's Libs.private).  Also: the man page renders
# without warnings and names every option `coalsim --help` lists.
# usage: tests/install_check.sh [MAKE [BUILD]]
# shellcheck disable=SC2015  # ok always succeeds: A && ok || bad is if-then-else here
make=${1:-make}
build=${2:-build}
cd "$(dirname "$0")/.." || exit 2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/coalsim-install.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
version=$(sed -n 's/^#define COALSIM_VERSION "\(.*\)"/\1/p' include/coalsim.h)
major=${version%%.*}

# 1. install into a prefix: every file, the links, the soname, the .pc
prefix=$tmp/prefix
if $make -s install BUILD="$build" PREFIX="$prefix" >"$tmp/log" 2>&1; then ok; else bad "make install"; cat "$tmp/log"; fi
for f in bin/coalsim lib/libcoalsim.a "lib/libcoalsim.so.$version" "lib/libcoalsim.so.$major" lib/libcoalsim.so \
         include/coalsim.h share/man/man1/coalsim.1 lib/pkgconfig/coalsim.pc lib/coalsim/libcuda.so.1 \
         share/coalsim/profiles/h100.txt share/coalsim/profiles/h200.txt; do
    if [ -e "$prefix/$f" ]; then ok; else bad "make install did not put $f"; fi
done
[ "$(readlink "$prefix/lib/libcoalsim.so")" = "libcoalsim.so.$major" ] &&
    [ "$(readlink "$prefix/lib/libcoalsim.so.$major")" = "libcoalsim.so.$version" ] && ok || bad "library links"
if LC_ALL=C readelf -d "$prefix/lib/libcoalsim.so.$version" | grep -q "SONAME.*\[libcoalsim.so.$major\]"; then ok
else bad "soname is not libcoalsim.so.$major"; fi
if "$prefix/bin/coalsim" --version | grep -qx "coalsim $version"; then ok; else bad "installed coalsim --version"; fi
# the installed command finds its profiles by name, and --hier takes the H100's unasked
(cd "$tmp" && "$prefix/bin/coalsim" --hier --profile h200 "$OLDPWD/traces/add.trace" | grep -q "predicted time") && ok ||
    bad "the installed coalsim --profile h200"
(cd "$tmp" && "$prefix/bin/coalsim" --hier "$OLDPWD/traces/add.trace" | grep -q "profile h100: the default") && ok ||
    bad "the installed coalsim --hier's default profile"

# 2. the example, built through pkg-config against the install
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
[ "$(pkg-config --modversion coalsim)" = "$version" ] && ok || bad "pkg-config --modversion coalsim"
grep -qx "prefix=$prefix" "$prefix/lib/pkgconfig/coalsim.pc" && ok || bad "coalsim.pc does not name the prefix"
# shellcheck disable=SC2046
if cc -std=c11 -Wall -Wextra -Werror -o "$tmp/analyse" examples/c/analyse.c $(pkg-config --cflags --libs coalsim) \
    2>"$tmp/err"; then ok; else bad "examples/c/analyse.c does not build with pkg-config"; cat "$tmp/err"; fi
if LD_LIBRARY_PATH="$prefix/lib" ldd "$tmp/analyse" | grep -q "libcoalsim.so.$major => $prefix/lib/"; then ok
else bad "the example does not load the installed libcoalsim.so.$major"; fi
cat >"$tmp/expected" <<'EOF'
x                ld   global  4 bytes     128 requests      640 sectors (ideal 512)
y                ld   global  4 bytes     128 requests      640 sectors (ideal 512)
z                st   global  4 bytes     128 requests      640 sectors (ideal 512)
total: 3 accesses, 384 requests, 1920 sectors (ideal 1536), 0 wavefronts (ideal 0)
LDG.E@0x50       ld   global  4 bytes       4 requests       16 sectors (ideal 16)
LDG.E.64@0x70    ld   global  8 bytes       4 requests       64 sectors (ideal 32)
LDG.E@0x90       ld   global  4 bytes       4 requests       16 sectors (ideal 16)
STS@0xa0         st   shared  4 bytes       4 requests      128 wavefronts (ideal 4)
LDS@0xd0         ld   shared  4 bytes       4 requests      120 wavefronts (ideal 4)
STG.E@0xf0       st   global  4 bytes       4 requests       15 sectors (ideal 15)
total: 6 accesses, 24 requests, 111 sectors (ideal 79), 248 wavefronts (ideal 8)
EOF
{ LD_LIBRARY_PATH="$prefix/lib" "$tmp/analyse" traces/add_offset.trace &&
  LD_LIBRARY_PATH="$prefix/lib" "$tmp/analyse" traces/accelsim_example.traceg; } >"$tmp/out" 2>&1
if cmp -s "$tmp/out" "$tmp/expected"; then ok; else bad "the example's output"; diff "$tmp/expected" "$tmp/out"; fi
LD_LIBRARY_PATH="$prefix/lib" "$tmp/analyse" tests/cli/truncated.trace.gz >"$tmp/out" 2>&1
[ $? = 1 ] && [ "$(cat "$tmp/out")" = "analyse: tests/cli/truncated.trace.gz:29: read error: gzip stream is truncated" ] &&
    ok || { bad "the example on a bad trace"; cat "$tmp/out"; }
# statically, with what Libs.private adds (zlib for gzip input, libm, threads)
# shellcheck disable=SC2046
if cc -std=c11 -o "$tmp/analyse_static" examples/c/analyse.c $(pkg-config --cflags coalsim) "$prefix/lib/libcoalsim.a" \
    $(pkg-config --static --libs coalsim | sed 's/-lcoalsim//') 2>"$tmp/err" &&
    "$tmp/analyse_static" traces/add_offset.trace | tail -1 | grep -q '^total: 3 accesses'; then ok
else bad "the example linked with libcoalsim.a and Libs.private"; cat "$tmp/err"; fi

# 3. uninstall removes exactly what install put
$make -s uninstall BUILD="$build" PREFIX="$prefix" >"$tmp/log" 2>&1 || bad "make uninstall"
left=$(find "$prefix" ! -type d)
[ -z "$left" ] && ok || bad "make uninstall left: $left"

# 4. DESTDIR: a staged install for /usr, the .pc naming /usr
stage=$tmp/stage
$make -s install BUILD="$build" PREFIX=/usr DESTDIR="$stage" >"$tmp/log" 2>&1 || bad "make install DESTDIR"
[ -x "$stage/usr/bin/coalsim" ] && grep -qx 'prefix=/usr' "$stage/usr/lib/pkgconfig/coalsim.pc" && ok ||
    bad "DESTDIR install"
$make -s uninstall BUILD="$build" PREFIX=/usr DESTDIR="$stage" >"$tmp/log" 2>&1 || bad "make uninstall DESTDIR"
left=$(find "$stage" ! -type d)
[ -z "$left" ] && ok || bad "make uninstall DESTDIR left: $left"

# 4b. pip install ./python with no network (its build backend is in the folder), into a venv:
# the module loads the library it carries and coalsim.run finds the command and driver it carries
if [ "$build" = build ] && python3 -m venv "$tmp/venv" >/dev/null 2>&1; then
    if "$tmp/venv/bin/pip" install --no-index ./python >"$tmp/pip.log" 2>&1; then ok; else bad "pip install ./python"; cat "$tmp/pip.log"; fi
    (cd "$tmp" && "$tmp/venv/bin/python" -c '
import coalsim, os
assert os.path.dirname(coalsim.load()._name) == os.path.dirname(coalsim.__file__), coalsim.load()._name
assert coalsim._command().startswith(os.path.dirname(coalsim.__file__))
assert coalsim.analyse_request("ld", "global", 4, [4 * i for i in range(32)])["accesses"][0]["sectors"] == 4
') && ok || bad "the pip-installed module"
fi

# 5. the man page: renders cleanly, and every option of --help is in it
if command -v groff >/dev/null 2>&1; then
    warn=$(groff -man -Tutf8 -ww -z docs/coalsim.1 2>&1)
    [ -z "$warn" ] && ok || bad "groff warns about docs/coalsim.1: $warn"
fi
for opt in -h $("$build/coalsim" --help | grep -o -- '--[a-z-]*'; "$build/coalsim" advise --help | grep -o -- '--[a-z-]*';
                "$build/coalsim" convert --help | grep -o -- '--[a-z-]*'); do
    pat=$(printf '%s' "$opt" | sed 's/-/\\\\-/g')
    if grep -q -- "$pat" docs/coalsim.1; then ok; else bad "docs/coalsim.1 does not document $opt"; fi
done

echo "install: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
