// launch: run a kernel of a compiled .cu file on the GPU from the same
// one-line description coalsim takes (gpu/outside/README.md has the grammar).
//
//   launch [--repeat N] [--dump DIR] [--dump-max BYTES] [--dump-changed] [--check]
//          [--name NAME] CUBIN PTX --kernel K --grid X[,Y[,Z]] --block X[,Y[,Z]] --args LIST
//          [--dynamic-shared BYTES] [--define NAME[=VALUE]]...
//   launch [--repeat N] [--dump DIR] [--dump-max BYTES] [--dump-changed] [--check]
//          [--keep-going] --list LAUNCHES --build DIR [--set count|time] [--skip N] [--count N]
//   launch --units LAUNCHES
//
// The PTX names the kernel's entry and its parameters (types and sizes), so
// the arguments are checked against the kernel before anything runs; --check
// stops there, without one CUDA call, so the launch list can be checked on a
// machine with no GPU.  Otherwise the driver API loads CUBIN, fills every
// buffer on the host (fill.h) and copies it over, launches once, and with
// --dump writes every buffer (up to --dump-max bytes; with --dump-changed only
// those the launch changed) to DIR/NAME.bin, or DIR/LAUNCH/NAME.bin for a
// list.  With --repeat N it then refills the buffers, launches 3 times to warm
// up, times N launches back to back (one event pair around all) and N more
// with an event between each two, and prints
//   time LAUNCH median_us=.. mean_us=.. min_us=.. batch_us_per_launch=.. launches=N
// (median, mean, min of the second N; batch from the first).  Every launch
// also prints "attr LAUNCH regs=.. static_smem=.. local=.. max_threads=.."
// from cuFuncGetAttribute.
//
// --list runs the lines of a launch list (launches.list: "NAME SET FILE
// <options>") in one process, so one CUDA context and one ncu session cover
// them all; the kernels were compiled into DIR/UNIT.cubin and DIR/UNIT.ptx,
// one UNIT per FILE and --define set, as --units prints them ("UNIT FILE
// -DNAME=VALUE ...").  --set keeps one set's lines, --skip and --count a
// slice of those (ncu runs the list in chunks).  Every launch prints "BEGIN
// NAME" when it starts and "LAUNCH NAME kernel=MANGLED" just before its first
// launch; a failed one prints "FAILED NAME" (and why on stderr).
//
// The driver is opened with dlopen when first needed, so --check runs where
// no libcuda.so.1 exists.  Build: nvcc -std=c++17 -O2 -o launch launch.cu -ldl
//
// Exit status: 0 all launches ran (or checked); 1 a launch was invalid or
// failed; 2 usage error.

#include <cuda.h>
#include <cxxabi.h>
#include <dlfcn.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <climits>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <sys/stat.h>
#include <thread>
#include <vector>

#include "fill.h"

enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2 };

// A failed check or CUDA call: what() is the whole message, naming the launch
// and the argument or the call.
struct Failure : std::runtime_error {
    using std::runtime_error::runtime_error;
};

static std::string fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
static std::string fmt(const char *f, ...)
{
    char buf[4096];
    va_list ap;
    va_start(ap, f);
    vsnprintf(buf, sizeof buf, f, ap);
    va_end(ap);
    return buf;
}

static std::string strip_spaces(const std::string &s)
{
    std::string r;
    for (char c : s)
        if (c != ' ') r += c;
    return r;
}

static std::vector<std::string> split(const std::string &s, char sep)
{
    std::vector<std::string> out;
    std::string cur;
    for (char c : s) {
        if (c == sep) {
            out.push_back(cur);
            cur.clear();
        } else {
            cur += c;
        }
    }
    out.push_back(cur);
    return out;
}

// ---------------------------------------------------------------------------
// PTX: entries and their parameters

struct Param {
    std::string name;   // the PTX name, e.g. _Z4copyPfS_ii_param_0
    std::string type;   // "u32", "f32", "b8", ...
    int bytes = 0;      // of one element
    bool is_float = false;
    bool is_ptr = false;     // declared .ptr (nvcc before 12 marked pointers so)
    long array = -1;         // [N] of an aggregate (.b8 name[N]), else -1
};

struct Entry {
    std::string mangled, demangled, templ, qual, plain;
    std::vector<Param> params;
    unsigned maxntid[3] = {0, 0, 0}, reqntid[3] = {0, 0, 0};
    bool uses_dynamic_shared = false;
};

static bool is_ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '$' || c == '.';
}

// Splits the demangled name of a kernel into the forms --kernel accepts:
// "void ns::k<32>(int, float*)" gives templ "ns::k<32>", qual "ns::k", plain
// "k".  A name that is not mangled (extern "C") is all four.
static void name_forms(Entry &e)
{
    int status = 0;
    char *d = abi::__cxa_demangle(e.mangled.c_str(), nullptr, nullptr, &status);
    if (status != 0 || !d) {
        e.demangled = e.templ = e.qual = e.plain = e.mangled;
        free(d);
        return;
    }
    e.demangled = d;
    free(d);
    std::string s = e.demangled;
    // the parameter list: the last balanced (...) of the name
    size_t end = s.size();
    if (end && s[end - 1] == ')') {
        int depth = 0;
        for (size_t i = end; i-- > 0;) {
            if (s[i] == ')') depth++;
            else if (s[i] == '(' && --depth == 0) {
                end = i;
                break;
            }
        }
    }
    s = s.substr(0, end);
    // a return type ("void " before a template's name) ends at the last space
    // outside <...> and (...)
    int depth = 0;
    size_t start = 0;
    for (size_t i = 0; i < s.size(); i++) {
        if (s[i] == '<' || s[i] == '(') depth++;
        else if (s[i] == '>' || s[i] == ')') depth--;
        else if (s[i] == ' ' && depth == 0) start = i + 1;
    }
    e.templ = s.substr(start);
    e.qual = e.templ;
    if (!e.qual.empty() && e.qual.back() == '>') {
        int dd = 0;
        for (size_t i = e.qual.size(); i-- > 0;) {
            if (e.qual[i] == '>') dd++;
            else if (e.qual[i] == '<' && --dd == 0) {
                e.qual = e.qual.substr(0, i);
                break;
            }
        }
    }
    size_t colons = e.qual.rfind("::");
    e.plain = colons == std::string::npos ? e.qual : e.qual.substr(colons + 2);
}

static Param parse_param(const std::string &text, const std::string &where)
{
    static const struct { const char *t; int bytes; bool f; } types[] = {
        {"u8", 1, false},  {"s8", 1, false},  {"b8", 1, false},  {"u16", 2, false}, {"s16", 2, false},
        {"b16", 2, false}, {"u32", 4, false}, {"s32", 4, false}, {"b32", 4, false}, {"u64", 8, false},
        {"s64", 8, false}, {"b64", 8, false}, {"f32", 4, true},  {"f64", 8, true},
    };
    std::istringstream in(text);
    std::vector<std::string> tok;
    for (std::string t; in >> t;) tok.push_back(t);
    if (tok.size() < 3 || tok[0] != ".param") throw Failure(fmt("%s: cannot read parameter '%s'", where.c_str(), text.c_str()));
    Param p;
    for (size_t i = 1; i + 1 < tok.size(); i++) {
        const std::string &t = tok[i];
        if (t == ".align") {
            i++;
            continue;
        }
        if (t == ".ptr") {
            p.is_ptr = true;
            continue;
        }
        for (const auto &ty : types)
            if (t == std::string(".") + ty.t) p.type = ty.t, p.bytes = ty.bytes, p.is_float = ty.f;
    }
    p.name = tok.back();
    size_t br = p.name.find('[');
    if (br != std::string::npos) {
        p.array = strtol(p.name.c_str() + br + 1, nullptr, 10);
        p.name = p.name.substr(0, br);
    }
    if (p.type.empty()) throw Failure(fmt("%s: parameter '%s' has no type I know", where.c_str(), text.c_str()));
    return p;
}

// Reads every .entry of a PTX file.
static std::vector<Entry> parse_ptx(const std::string &path)
{
    std::ifstream f(path, std::ios::binary);
    if (!f) throw Failure(fmt("cannot open PTX '%s': %s", path.c_str(), strerror(errno)));
    std::stringstream ss;
    ss << f.rdbuf();
    const std::string s = ss.str();

    // module-level dynamic shared arrays: ".extern .shared .align 16 .b8 __smem[];"
    std::vector<std::string> extern_shared;
    for (size_t at = s.find(".extern .shared"); at != std::string::npos; at = s.find(".extern .shared", at + 1)) {
        size_t eol = s.find('\n', at);
        std::string line = s.substr(at, eol - at);
        size_t br = line.find('[');
        if (br == std::string::npos) continue;
        size_t b = br;
        while (b > 0 && is_ident_char(line[b - 1])) b--;
        extern_shared.push_back(line.substr(b, br - b));
    }

    std::vector<Entry> entries;
    for (size_t at = s.find(".entry"); at != std::string::npos; at = s.find(".entry", at + 1)) {
        if (at > 0 && is_ident_char(s[at - 1])) continue;
        size_t p = at + 6;
        if (p >= s.size() || !isspace((unsigned char)s[p])) continue;
        while (p < s.size() && isspace((unsigned char)s[p])) p++;
        size_t n0 = p;
        while (p < s.size() && is_ident_char(s[p])) p++;
        Entry e;
        e.mangled = s.substr(n0, p - n0);
        std::string where = fmt("%s: entry %s", path.c_str(), e.mangled.c_str());
        while (p < s.size() && isspace((unsigned char)s[p])) p++;
        if (p < s.size() && s[p] == '(') {
            size_t close = s.find(')', p);
            if (close == std::string::npos) throw Failure(where + ": unterminated parameter list");
            std::string list = s.substr(p + 1, close - p - 1);
            for (std::string one : split(list, ',')) {
                if (one.find_first_not_of(" \t\r\n") == std::string::npos) continue;
                e.params.push_back(parse_param(one, where));
            }
            p = close + 1;
        }
        size_t body = s.find('{', p);
        if (body == std::string::npos) throw Failure(where + ": no body");
        // performance directives between the parameters and the body
        std::istringstream dirs(s.substr(p, body - p));
        for (std::string d; dirs >> d;) {
            unsigned *dst = d == ".maxntid" ? e.maxntid : d == ".reqntid" ? e.reqntid : nullptr;
            if (!dst) continue;
            std::string rest;
            std::getline(dirs, rest);
            std::vector<std::string> v = split(rest, ',');
            for (size_t k = 0; k < 3; k++) dst[k] = k < v.size() ? (unsigned)strtoul(v[k].c_str(), nullptr, 10) : 1;
        }
        int depth = 0;
        size_t q = body;
        for (; q < s.size(); q++) {
            if (s[q] == '{') depth++;
            else if (s[q] == '}' && --depth == 0) break;
        }
        const std::string text = s.substr(body, q - body);
        for (const std::string &sym : extern_shared) {
            for (size_t k = text.find(sym); k != std::string::npos; k = text.find(sym, k + 1)) {
                bool left = k == 0 || !is_ident_char(text[k - 1]);
                bool right = k + sym.size() >= text.size() || !is_ident_char(text[k + sym.size()]);
                if (left && right) e.uses_dynamic_shared = true;
            }
        }
        name_forms(e);
        entries.push_back(e);
        at = q;
    }
    if (entries.empty()) throw Failure(fmt("%s: no .entry in this PTX", path.c_str()));
    return entries;
}

// Finds the entry --kernel names: its mangled name, its demangled name, that
// without the parameter list ("k<32>"), the qualified name ("ns::k") or the
// plain name ("k"); spaces do not count.  The most exact form that matches
// wins; two entries matching at that level are an error.
static const Entry &find_entry(const std::vector<Entry> &es, const std::string &want, const std::string &ptx)
{
    const std::string w = strip_spaces(want);
    for (int level = 0; level < 5; level++) {
        std::vector<const Entry *> hit;
        for (const Entry &e : es) {
            const std::string &form = level == 0 ? e.mangled : level == 1 ? e.demangled : level == 2 ? e.templ
                                    : level == 3 ? e.qual : e.plain;
            if (strip_spaces(form) == w) hit.push_back(&e);
        }
        if (hit.size() == 1) return *hit[0];
        if (hit.size() > 1) {
            std::string msg = fmt("kernel '%s' is ambiguous in %s; candidates:", want.c_str(), ptx.c_str());
            for (const Entry *e : hit) msg += fmt("\n  %s  (%s)", e->templ.c_str(), e->mangled.c_str());
            throw Failure(msg);
        }
    }
    std::string msg = fmt("no kernel '%s' in %s; it has:", want.c_str(), ptx.c_str());
    for (const Entry &e : es) msg += fmt("\n  %s  (%s)", e.templ.c_str(), e.mangled.c_str());
    throw Failure(msg);
}

// ---------------------------------------------------------------------------
// One launch: its options, buffers and argument values

struct Buffer {
    std::string name;
    uint64_t size = 0;
    coalsim_fill fill{};
    std::string path;              // file: fills
    std::vector<unsigned char> host;  // initial contents until the dumps; empty for zero fills
    CUdeviceptr dev = 0;
    CUdeviceptr pristine = 0;         // a device copy of the initial contents, to refill for timing
};

struct Arg {
    int buffer = -1;               // index into Launch::buffers, or -1
    uint64_t bits = 0;             // a scalar's bytes, little-endian
};

struct Launch {
    std::string name, cubin, ptx, kernel, args_text;
    unsigned grid[3] = {1, 1, 1}, block[3] = {1, 1, 1};
    uint64_t dynamic_shared = 0;
    bool have_kernel = false, have_grid = false, have_block = false, have_args = false;
    std::vector<std::string> defines;
    const Entry *entry = nullptr;
    std::vector<Entry> entries;
    std::vector<Buffer> buffers;
    std::vector<Arg> args;
};

static bool parse_u64(const std::string &s, uint64_t *v)
{
    if (s.empty() || !isdigit((unsigned char)s[0])) return false;
    errno = 0;
    char *end;
    unsigned long long x = strtoull(s.c_str(), &end, 0);
    if (errno || *end) return false;
    *v = x;
    return true;
}

// SIZE: bytes, with an optional K, M or G (x1024, x1024^2, x1024^3)
static bool parse_size(const std::string &s, uint64_t *v)
{
    if (s.empty()) return false;
    uint64_t mul = 1;
    std::string digits = s;
    char last = s.back();
    if (last == 'K' || last == 'M' || last == 'G') {
        mul = last == 'K' ? 1ull << 10 : last == 'M' ? 1ull << 20 : 1ull << 30;
        digits = s.substr(0, s.size() - 1);
    }
    for (char c : digits)
        if (!isdigit((unsigned char)c)) return false;
    uint64_t x;
    if (!parse_u64(digits, &x) || x > UINT64_MAX / mul) return false;
    *v = x * mul;
    return true;
}

static void parse_dims(const std::string &opt, const std::string &s, unsigned d[3])
{
    std::vector<std::string> v = split(s, ',');
    if (v.size() > 3) throw Failure(fmt("%s '%s': at most 3 dimensions", opt.c_str(), s.c_str()));
    for (size_t i = 0; i < 3; i++) {
        uint64_t x = 1;
        if (i < v.size() && (!parse_u64(v[i], &x) || x == 0 || x > 0x7fffffff))
            throw Failure(fmt("%s '%s': dimension %zu is not a positive integer", opt.c_str(), s.c_str(), i + 1));
        d[i] = (unsigned)x;
    }
}

// FILL of a buffer argument
static void parse_fill(const std::string &text, Buffer &b, const std::string &where)
{
    std::vector<std::string> f = split(text, ':');
    coalsim_fill &fl = b.fill;
    fl = coalsim_fill{};
    const std::string &k = f[0];
    auto bad = [&](const char *why) { return Failure(fmt("%s: fill '%s': %s", where.c_str(), text.c_str(), why)); };
    if (k == "zero" && f.size() == 1) {
        fl.kind = COALSIM_FILL_ZERO;
    } else if (k == "iota" && f.size() <= 2) {
        fl.kind = COALSIM_FILL_IOTA;
        fl.step = 1;
        if (f.size() == 2) {
            char *end;
            errno = 0;
            long long st = strtoll(f[1].c_str(), &end, 0);
            if (f[1].empty() || *end || errno) throw bad("STEP is not an integer");
            fl.step = st;
        }
    } else if (k == "iotaf" && f.size() <= 2) {
        fl.kind = COALSIM_FILL_IOTAF;
        fl.stepf = 1.0f;
        if (f.size() == 2) {
            char *end;
            float st = strtof(f[1].c_str(), &end);
            if (f[1].empty() || *end) throw bad("STEP is not a number");
            fl.stepf = st;
        }
    } else if (k == "random" && f.size() == 2) {
        fl.kind = COALSIM_FILL_RANDOM;
        if (!parse_u64(f[1], &fl.seed)) throw bad("SEED is not an unsigned integer");
    } else if ((k == "randomh" || k == "randombf" || k == "randomd") && f.size() == 2) {
        fl.kind = k == "randomh" ? COALSIM_FILL_RANDOMH : k == "randombf" ? COALSIM_FILL_RANDOMBF : COALSIM_FILL_RANDOMD;
        if (!parse_u64(f[1], &fl.seed)) throw bad("SEED is not an unsigned integer");
    } else if (k == "randint" && f.size() == 3) {
        fl.kind = COALSIM_FILL_RANDINT;
        if (!parse_u64(f[1], &fl.seed)) throw bad("SEED is not an unsigned integer");
        if (!parse_u64(f[2], &fl.n) || fl.n == 0) throw bad("N is not a positive integer");
    } else if (k == "file" && f.size() >= 2) {
        fl.kind = COALSIM_FILL_FILE;
        b.path = text.substr(5);
        if (b.path.empty()) throw bad("no PATH");
    } else {
        throw bad("expected zero, iota[:STEP], iotaf[:STEP], random:SEED, randint:SEED:N, randomh:SEED, randombf:SEED, randomd:SEED or file:PATH");
    }
}

static bool looks_integer(const std::string &s)
{
    size_t i = (s[0] == '-' || s[0] == '+') ? 1 : 0;
    if (i >= s.size()) return false;
    if (s.compare(i, 2, "0x") == 0 || s.compare(i, 2, "0X") == 0) {
        if (i + 2 >= s.size()) return false;
        for (size_t k = i + 2; k < s.size(); k++)
            if (!isxdigit((unsigned char)s[k])) return false;
        return true;
    }
    for (size_t k = i; k < s.size(); k++)
        if (!isdigit((unsigned char)s[k])) return false;
    return true;
}

// A scalar argument for parameter p: its bytes, little-endian in .bits.
static uint64_t scalar_bits(const std::string &t, const Param &p, const std::string &where)
{
    if (looks_integer(t)) {
        bool neg = t[0] == '-';
        std::string mag = (t[0] == '-' || t[0] == '+') ? t.substr(1) : t;
        errno = 0;
        unsigned long long m = strtoull(mag.c_str(), nullptr, 0);
        if (errno) throw Failure(fmt("%s: '%s' does not fit in 64 bits", where.c_str(), t.c_str()));
        if (p.is_float) {
            double v = neg ? -(double)m : (double)m;
            if (p.bytes == 4) {
                float f = (float)v;
                uint32_t w;
                memcpy(&w, &f, 4);
                return w;
            }
            uint64_t w;
            memcpy(&w, &v, 8);
            return w;
        }
        // PTX keeps no signedness for C's int parameters (an int is .u32), so
        // an integer parameter of n bits takes -2^(n-1) .. 2^n - 1
        int bits = p.bytes * 8;
        unsigned long long umax = bits == 64 ? ~0ull : (1ull << bits) - 1;
        unsigned long long nmax = 1ull << (bits - 1);
        if ((!neg && m > umax) || (neg && m > nmax))
            throw Failure(fmt("%s: %s does not fit in .%s", where.c_str(), t.c_str(), p.type.c_str()));
        uint64_t v = neg ? 0 - (uint64_t)m : (uint64_t)m;  // two's complement
        return bits == 64 ? v : v & umax;
    }
    char *end;
    double v = strtod(t.c_str(), &end);
    if (t.empty() || *end || !(isdigit((unsigned char)t[0]) || t[0] == '-' || t[0] == '+' || t[0] == '.'))
        throw Failure(fmt("%s: '%s' is neither a number nor a buffer (NAME[:SIZE][=FILL])", where.c_str(), t.c_str()));
    if (!p.is_float)
        throw Failure(fmt("%s: '%s' is a float but the parameter is .%s (an integer)", where.c_str(), t.c_str(),
                          p.type.c_str()));
    if (p.bytes == 4) {
        float f = (float)v;
        uint32_t w;
        memcpy(&w, &f, 4);
        return w;
    }
    uint64_t w;
    memcpy(&w, &v, 8);
    return w;
}

// Checks a launch's options against its kernel; fills L.entry, L.buffers,
// L.args.  Throws Failure naming the launch and what is wrong.
static void validate(Launch &L)
{
    const std::string who = L.name;
    if (!L.have_kernel || !L.have_grid || !L.have_block || !L.have_args)
        throw Failure(who + ": needs --kernel, --grid, --block and --args");
    try {
        L.entries = parse_ptx(L.ptx);
        L.entry = &find_entry(L.entries, L.kernel, L.ptx);
    } catch (const Failure &f) {
        throw Failure(who + ": " + f.what());
    }
    const Entry &e = *L.entry;
    const std::string kname = who + ": kernel " + e.templ;

    // the launch shape
    uint64_t threads = (uint64_t)L.block[0] * L.block[1] * L.block[2];
    if (threads > 1024 || L.block[0] > 1024 || L.block[1] > 1024 || L.block[2] > 64)
        throw Failure(fmt("%s: block %ux%ux%u exceeds 1024 threads (x, y <= 1024, z <= 64)", who.c_str(), L.block[0],
                          L.block[1], L.block[2]));
    if (L.grid[1] > 65535 || L.grid[2] > 65535)
        throw Failure(fmt("%s: grid y and z must be <= 65535", who.c_str()));
    if (e.maxntid[0] && threads > (uint64_t)e.maxntid[0] * e.maxntid[1] * e.maxntid[2])
        throw Failure(fmt("%s: block of %" PRIu64 " threads, but .maxntid %u, %u, %u (__launch_bounds__)",
                          kname.c_str(), threads, e.maxntid[0], e.maxntid[1], e.maxntid[2]));
    if (e.reqntid[0] && (L.block[0] != e.reqntid[0] || L.block[1] != e.reqntid[1] || L.block[2] != e.reqntid[2]))
        throw Failure(fmt("%s: .reqntid %u, %u, %u requires that block", kname.c_str(), e.reqntid[0], e.reqntid[1],
                          e.reqntid[2]));
    // 227 KiB: the most dynamic shared memory a block may opt into on sm_90
    if (L.dynamic_shared > 227 * 1024)
        throw Failure(fmt("%s: --dynamic-shared %" PRIu64 " exceeds 227 KiB", who.c_str(), L.dynamic_shared));
    if (e.uses_dynamic_shared && L.dynamic_shared == 0)
        throw Failure(kname + ": uses extern __shared__ memory, but --dynamic-shared is 0");

    // the arguments
    std::vector<std::string> a = L.args_text.empty() ? std::vector<std::string>() : split(L.args_text, ',');
    if (a.size() != e.params.size()) {
        std::string types;
        for (const Param &p : e.params) types += (types.empty() ? "" : ", ") + ("." + p.type) + (p.array >= 0 ? fmt("[%ld]", p.array) : "");
        throw Failure(fmt("%s takes %zu parameters (%s), --args gives %zu", kname.c_str(), e.params.size(),
                          types.c_str(), a.size()));
    }
    L.buffers.clear();
    L.args.clear();
    for (size_t i = 0; i < a.size(); i++) {
        const Param &p = e.params[i];
        const std::string where = fmt("%s: argument %zu of %zu (.%s)", kname.c_str(), i + 1, a.size(), p.type.c_str());
        const std::string &t = a[i];
        if (p.array >= 0) throw Failure(fmt("%s: an aggregate (.%s[%ld]) parameter: not supported", where.c_str(), p.type.c_str(), p.array));
        if (t.empty()) throw Failure(where + ": empty");
        Arg arg;
        if (isalpha((unsigned char)t[0]) || t[0] == '_') {
            if (p.bytes != 8 || p.is_float)
                throw Failure(fmt("%s: '%s' is a buffer, but only a 64-bit integer parameter holds a pointer", where.c_str(), t.c_str()));
            size_t eq = t.find('=');
            std::string head = t.substr(0, eq);
            size_t colon = head.find(':');
            std::string bname = head.substr(0, colon);
            for (char c : bname)
                if (!isalnum((unsigned char)c) && c != '_') throw Failure(fmt("%s: bad buffer name '%s'", where.c_str(), bname.c_str()));
            int found = -1;
            for (size_t k = 0; k < L.buffers.size(); k++)
                if (L.buffers[k].name == bname) found = (int)k;
            bool has_spec = colon != std::string::npos || eq != std::string::npos;
            if (found >= 0) {
                if (has_spec)
                    throw Failure(fmt("%s: buffer '%s' appeared before; give SIZE and FILL only the first time", where.c_str(), bname.c_str()));
                arg.buffer = found;
            } else {
                Buffer b;
                b.name = bname;
                if (colon == std::string::npos)
                    throw Failure(fmt("%s: buffer '%s' needs a SIZE (NAME:SIZE) to be allocated", where.c_str(), bname.c_str()));
                if (!parse_size(head.substr(colon + 1), &b.size) || b.size == 0)
                    throw Failure(fmt("%s: buffer '%s': bad SIZE '%s' (bytes, optional K, M or G)", where.c_str(), bname.c_str(),
                                      head.substr(colon + 1).c_str()));
                parse_fill(eq == std::string::npos ? "zero" : t.substr(eq + 1), b, where);
                if (b.fill.kind == COALSIM_FILL_FILE) {
                    struct stat st;
                    if (stat(b.path.c_str(), &st) != 0)
                        throw Failure(fmt("%s: file '%s': %s", where.c_str(), b.path.c_str(), strerror(errno)));
                }
                L.buffers.push_back(b);
                arg.buffer = (int)L.buffers.size() - 1;
            }
        } else {
            if (p.is_ptr) throw Failure(fmt("%s: a .ptr parameter needs a buffer, not '%s'", where.c_str(), t.c_str()));
            arg.bits = scalar_bits(t, p, where);
        }
        L.args.push_back(arg);
    }
}

// ---------------------------------------------------------------------------
// Option parsing

struct Options {
    int repeat = 0;
    std::string dump;
    uint64_t dump_max = UINT64_MAX;
    bool check = false, keep_going = false, dump_changed = false;
    std::string list, build, set, units;
    uint64_t skip = 0, count = UINT64_MAX;
};

static void usage(const char *why)
{
    if (why) fprintf(stderr, "launch: %s\n", why);
    fprintf(stderr,
            "usage: launch [--repeat N] [--dump DIR] [--dump-max BYTES] [--dump-changed] [--check] [--name NAME]\n"
            "              CUBIN PTX\n"
            "              --kernel K --grid X[,Y[,Z]] --block X[,Y[,Z]] --args LIST\n"
            "              [--dynamic-shared BYTES] [--define NAME[=VALUE]]...\n"
            "       launch [--repeat N] [--dump DIR] [--dump-max BYTES] [--dump-changed] [--check] [--keep-going]\n"
            "              --list LAUNCHES --build DIR [--set count|time] [--skip N] [--count N]\n"
            "       launch --units LAUNCHES\n");
    exit(EXIT_USAGE);
}

// The coalsim options of one launch, from words[i..]; throws Failure.
static void parse_launch_options(Launch &L, const std::vector<std::string> &w, size_t i)
{
    for (; i < w.size(); i++) {
        const std::string &o = w[i];
        auto value = [&]() -> const std::string & {
            if (i + 1 >= w.size()) throw Failure(fmt("%s: %s needs a value", L.name.c_str(), o.c_str()));
            return w[++i];
        };
        if (o == "--kernel") L.kernel = value(), L.have_kernel = true;
        else if (o == "--grid") parse_dims(o, value(), L.grid), L.have_grid = true;
        else if (o == "--block") parse_dims(o, value(), L.block), L.have_block = true;
        else if (o == "--args") L.args_text = value(), L.have_args = true;
        else if (o == "--dynamic-shared") {
            const std::string &v = value();
            if (!parse_size(v, &L.dynamic_shared))
                throw Failure(fmt("%s: --dynamic-shared '%s' is not a byte count", L.name.c_str(), v.c_str()));
        } else if (o == "--define") {
            const std::string &v = value();
            std::string n = v.substr(0, v.find('='));
            if (n.empty() || !(isalpha((unsigned char)n[0]) || n[0] == '_'))
                throw Failure(fmt("%s: --define '%s' is not NAME[=VALUE]", L.name.c_str(), v.c_str()));
            L.defines.push_back(v);  // a compile-time option: the CUBIN was built with it
        } else {
            throw Failure(fmt("%s: unknown option '%s'", L.name.c_str(), o.c_str()));
        }
    }
}

// ---------------------------------------------------------------------------
// The driver, opened on first use

#define STR2(x) #x
#define STR(x) STR2(x)
#define DRV(fn) static decltype(&fn) p_##fn;
#define DRIVER_CALLS(X)                                                                                                \
    X(cuGetErrorName) X(cuGetErrorString) X(cuInit) X(cuDeviceGet) X(cuDeviceGetName) X(cuDeviceGetAttribute)          \
    X(cuDevicePrimaryCtxRetain) X(cuDevicePrimaryCtxRelease) X(cuDevicePrimaryCtxReset) X(cuCtxSetCurrent)             \
    X(cuCtxSynchronize) X(cuModuleLoad) X(cuModuleUnload) X(cuModuleGetFunction) X(cuFuncGetAttribute)                 \
    X(cuFuncSetAttribute) X(cuMemAlloc) X(cuMemFree) X(cuMemcpyHtoD) X(cuMemcpyDtoH) X(cuMemcpyDtoD)                  \
    X(cuMemsetD8) X(cuLaunchKernel)                                                                                    \
    X(cuEventCreate) X(cuEventRecord) X(cuEventSynchronize) X(cuEventElapsedTime) X(cuEventDestroy)
DRIVER_CALLS(DRV)

// Calls the driver function fn; a failure throws, naming the call and what it was for.
#define CU(what, fn, ...) cu_check(p_##fn(__VA_ARGS__), #fn, what)

static void cu_check(CUresult r, const char *call, const std::string &what)
{
    if (r == CUDA_SUCCESS) return;
    const char *name = "?", *text = "?";
    if (p_cuGetErrorName) p_cuGetErrorName(r, &name);
    if (p_cuGetErrorString) p_cuGetErrorString(r, &text);
    throw Failure(fmt("%s: %s failed: %s (%d: %s)", what.c_str(), call, name, (int)r, text));
}

struct Gpu {
    CUdevice dev = 0;
    CUcontext ctx = nullptr;
};

static void open_driver(Gpu &g)
{
    void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
    if (!h) throw Failure(fmt("cannot load the CUDA driver (libcuda.so.1): %s", dlerror()));
#define LOAD(fn)                                                                                                       \
    p_##fn = (decltype(&fn))dlsym(h, STR(fn));                                                                         \
    if (!p_##fn) throw Failure("the CUDA driver has no " STR(fn));
    DRIVER_CALLS(LOAD)
#undef LOAD
    CU("initialising the driver", cuInit, 0);
    CU("device 0", cuDeviceGet, &g.dev, 0);
    CU("device 0", cuDevicePrimaryCtxRetain, &g.ctx, g.dev);
    CU("device 0", cuCtxSetCurrent, g.ctx);
    char name[256] = "";
    int sms = 0, clock = 0;
    CU("device 0", cuDeviceGetName, name, (int)sizeof name, g.dev);
    CU("device 0", cuDeviceGetAttribute, &sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, g.dev);
    CU("device 0", cuDeviceGetAttribute, &clock, CU_DEVICE_ATTRIBUTE_CLOCK_RATE, g.dev);
    printf("device %s sms=%d clock_khz=%d\n", name, sms, clock);
}

// After a failed launch the context may hold a sticky error: start a fresh one.
static void reset_context(Gpu &g)
{
    p_cuDevicePrimaryCtxRelease(g.dev);
    p_cuDevicePrimaryCtxReset(g.dev);
    CU("resetting device 0", cuDevicePrimaryCtxRetain, &g.ctx, g.dev);
    CU("resetting device 0", cuCtxSetCurrent, g.ctx);
}

// Fills b.host per b.fill, in parallel for large buffers.
static void fill_host(Buffer &b)
{
    if (b.fill.kind == COALSIM_FILL_ZERO) return;  // cuMemsetD8 does it on the device
    b.host.assign(b.size, 0);
    if (b.fill.kind == COALSIM_FILL_FILE) {
        FILE *f = fopen(b.path.c_str(), "rb");
        if (!f) throw Failure(fmt("buffer %s: cannot open '%s': %s", b.name.c_str(), b.path.c_str(), strerror(errno)));
        size_t got = fread(b.host.data(), 1, b.size, f);
        (void)got;  // a shorter file leaves zeros after its end
        fclose(f);
        return;
    }
    if (b.fill.kind == COALSIM_FILL_ZERO) return;
    const uint64_t chunk = 16u << 20;
    unsigned nt = std::max(1u, std::min(16u, std::thread::hardware_concurrency()));
    uint64_t pieces = (b.size + chunk - 1) / chunk;
    std::vector<std::thread> ts;
    for (unsigned t = 0; t < nt && t < pieces; t++)
        ts.emplace_back([&b, t, nt, pieces, chunk]() {
            for (uint64_t p = t; p < pieces; p += nt) {
                uint64_t lo = p * chunk, hi = std::min(b.size, lo + chunk);
                coalsim_fill_range(&b.fill, b.host.data() + lo, lo, hi);
            }
        });
    for (auto &th : ts) th.join();
}

static void write_file(const std::string &path, const void *data, size_t n)
{
    FILE *f = fopen(path.c_str(), "wb");
    if (!f || fwrite(data, 1, n, f) != n || fclose(f) != 0)
        throw Failure(fmt("cannot write '%s': %s", path.c_str(), strerror(errno)));
}

static void make_dir(const std::string &d)
{
    std::string cur;
    for (const std::string &part : split(d, '/')) {
        cur += part + "/";
        if (part.empty() || part == ".") continue;
        if (mkdir(cur.c_str(), 0777) != 0 && errno != EEXIST) throw Failure(fmt("cannot create '%s': %s", cur.c_str(), strerror(errno)));
    }
}

// Runs a validated launch: once, then the dumps, then the timed repeats.
static void run(Launch &L, const Options &o, const std::string &dump_dir)
{
    const std::string who = L.name;
    CUmodule mod = nullptr;
    CU(who + ": loading " + L.cubin, cuModuleLoad, &mod, L.cubin.c_str());
    CUfunction fn;
    CU(who + ": finding " + L.entry->mangled, cuModuleGetFunction, &fn, mod, L.entry->mangled.c_str());
    int regs, smem, local, maxt, cnst;
    CU(who, cuFuncGetAttribute, &regs, CU_FUNC_ATTRIBUTE_NUM_REGS, fn);
    CU(who, cuFuncGetAttribute, &smem, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, fn);
    CU(who, cuFuncGetAttribute, &local, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, fn);
    CU(who, cuFuncGetAttribute, &maxt, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, fn);
    CU(who, cuFuncGetAttribute, &cnst, CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES, fn);
    printf("attr %s regs=%d static_smem=%d local=%d max_threads=%d const=%d dynamic_smem=%" PRIu64 "\n",
           L.name.c_str(), regs, smem, local, maxt, cnst, L.dynamic_shared);
    // above 48 KiB a kernel must opt in to dynamic shared memory
    if (L.dynamic_shared > 48 * 1024)
        CU(who, cuFuncSetAttribute, fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)L.dynamic_shared);

    for (Buffer &b : L.buffers) {
        fill_host(b);
        CU(who + ": buffer " + b.name, cuMemAlloc, &b.dev, b.size);
        if (b.host.empty())
            CU(who + ": buffer " + b.name, cuMemsetD8, b.dev, 0, b.size);
        else
            CU(who + ": buffer " + b.name, cuMemcpyHtoD, b.dev, b.host.data(), b.size);
        if (o.repeat > 0 && !b.host.empty()) {
            CU(who + ": buffer " + b.name, cuMemAlloc, &b.pristine, b.size);
            CU(who + ": buffer " + b.name, cuMemcpyDtoD, b.pristine, b.dev, b.size);
        }
    }
    std::vector<uint64_t> store(L.args.size());
    std::vector<void *> params(L.args.size());
    for (size_t i = 0; i < L.args.size(); i++) {
        store[i] = L.args[i].buffer >= 0 ? (uint64_t)L.buffers[L.args[i].buffer].dev : L.args[i].bits;
        params[i] = &store[i];  // little-endian: a narrower parameter reads the low bytes
    }
    auto launch_once = [&]() {
        CU(who, cuLaunchKernel, fn, L.grid[0], L.grid[1], L.grid[2], L.block[0], L.block[1], L.block[2],
           (unsigned)L.dynamic_shared, nullptr, params.empty() ? nullptr : params.data(), nullptr);
    };
    printf("LAUNCH %s kernel=%s\n", L.name.c_str(), L.entry->mangled.c_str());
    fflush(stdout);
    launch_once();
    CU(who + ": the launch", cuCtxSynchronize);

    if (!dump_dir.empty()) {
        bool made = false;
        for (Buffer &b : L.buffers) {
            if (b.size > o.dump_max) continue;
            std::vector<unsigned char> out(b.size);
            CU(who + ": dumping " + b.name, cuMemcpyDtoH, out.data(), b.dev, b.size);
            // --dump-changed: a buffer the launch did not write is its fill again
            if (o.dump_changed && (b.host.empty() ? std::all_of(out.begin(), out.end(), [](unsigned char c) { return c == 0; })
                                                  : out == b.host))
                continue;
            if (!made) make_dir(dump_dir), made = true;
            write_file(dump_dir + "/" + b.name + ".bin", out.data(), out.size());
        }
    }

    if (o.repeat > 0) {
        for (Buffer &b : L.buffers) {
            std::vector<unsigned char>().swap(b.host);  // not needed any more
            if (b.pristine)
                CU(who + ": refilling " + b.name, cuMemcpyDtoD, b.dev, b.pristine, b.size);
            else
                CU(who + ": refilling " + b.name, cuMemsetD8, b.dev, 0, b.size);
        }
        for (int i = 0; i < 3; i++) launch_once();
        CU(who + ": warm-up", cuCtxSynchronize);
        const int n = o.repeat;
        std::vector<CUevent> ev(n + 1);
        for (CUevent &e : ev) CU(who, cuEventCreate, &e, CU_EVENT_DEFAULT);
        // the batch: n launches back to back, events only around all of them
        CU(who, cuEventRecord, ev[0], nullptr);
        for (int i = 0; i < n; i++) launch_once();
        CU(who, cuEventRecord, ev[n], nullptr);
        CU(who, cuEventSynchronize, ev[n]);
        float batch_ms;
        CU(who, cuEventElapsedTime, &batch_ms, ev[0], ev[n]);
        // then n launches with an event between each two
        CU(who, cuEventRecord, ev[0], nullptr);
        for (int i = 0; i < n; i++) {
            launch_once();
            CU(who, cuEventRecord, ev[i + 1], nullptr);
        }
        CU(who, cuEventSynchronize, ev[n]);
        std::vector<double> us(n);
        for (int i = 0; i < n; i++) {
            float ms;
            CU(who, cuEventElapsedTime, &ms, ev[i], ev[i + 1]);
            us[i] = ms * 1000.0;
        }
        for (CUevent &e : ev) CU(who, cuEventDestroy, e);
        std::vector<double> sorted = us;
        std::sort(sorted.begin(), sorted.end());
        double median = n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
        double mean = 0;
        for (double v : us) mean += v;
        mean /= n;
        printf("time %s median_us=%.3f mean_us=%.3f min_us=%.3f batch_us_per_launch=%.3f launches=%d\n", L.name.c_str(),
               median, mean, sorted[0], batch_ms * 1000.0 / n, n);
    }
    for (Buffer &b : L.buffers) {
        CU(who, cuMemFree, b.dev);
        b.dev = 0;
        if (b.pristine) CU(who, cuMemFree, b.pristine);
        b.pristine = 0;
        std::vector<unsigned char>().swap(b.host);
    }
    CU(who, cuModuleUnload, mod);
    fflush(stdout);
}

// One launch of the list or of the command line: check it, then (unless
// --check) run it.  Returns false if it failed.
static bool process(Gpu *&g, Launch &L, const Options &o, bool list_mode)
{
    if (!o.check) {
        // before anything can fail or hang: a script resumes a list after it
        printf("BEGIN %s\n", L.name.c_str());
        fflush(stdout);
    }
    try {
        validate(L);
        if (o.check) {
            uint64_t bytes = 0;
            for (const Buffer &b : L.buffers) bytes += b.size;
            printf("ok %s kernel=%s params=%zu buffers=%zu bytes=%" PRIu64 "\n", L.name.c_str(), L.entry->mangled.c_str(),
                   L.entry->params.size(), L.buffers.size(), bytes);
            return true;
        }
        if (!g) {
            g = new Gpu;
            open_driver(*g);
        }
        std::string dir = o.dump.empty() ? "" : list_mode ? o.dump + "/" + L.name : o.dump;
        run(L, o, dir);
        return true;
    } catch (const Failure &f) {
        fprintf(stderr, "launch: %s\n", f.what());
        printf("FAILED %s\n", L.name.c_str());
        fflush(stdout);
        if (g && p_cuDevicePrimaryCtxReset) {
            try {
                reset_context(*g);
            } catch (const Failure &f2) {
                fprintf(stderr, "launch: %s\n", f2.what());
                exit(EXIT_FAIL);
            }
        }
        return false;
    }
}

// ---------------------------------------------------------------------------
// The launch list

struct ListLine {
    int lineno = 0;
    std::string name, set, file;
    std::vector<std::string> words;  // the coalsim options
    std::vector<std::string> defines;
};

// The compile unit of a FILE and its --define options: the file's base name,
// then each define with '=' as '-' ("scan_cf_NUM_BANKS-32_LOG_NUM_BANKS-5").
static std::string unit_of(const std::string &file, const std::vector<std::string> &defines)
{
    std::string base = file.substr(file.rfind('/') == std::string::npos ? 0 : file.rfind('/') + 1);
    if (base.size() > 3 && base.compare(base.size() - 3, 3, ".cu") == 0) base.resize(base.size() - 3);
    for (const std::string &d : defines) {
        base += '_';
        for (char c : d) base += c == '=' ? '-' : (isalnum((unsigned char)c) || c == '_' || c == '-') ? c : '_';
    }
    return base;
}

// Reads a launch list; a malformed line is an error naming it (exit 1).
static std::vector<ListLine> read_list(const std::string &path)
{
    std::ifstream f(path);
    if (!f) usage(fmt("cannot open launch list '%s'", path.c_str()).c_str());
    std::vector<ListLine> out;
    std::string line;
    int lineno = 0;
    bool bad = false;
    while (std::getline(f, line)) {
        lineno++;
        std::istringstream in(line);
        std::vector<std::string> w;
        for (std::string t; in >> t;) w.push_back(t);
        if (w.empty() || w[0][0] == '#') continue;
        ListLine L;
        L.lineno = lineno;
        auto fail = [&](const std::string &why) {
            fprintf(stderr, "launch: %s:%d: %s\n", path.c_str(), lineno, why.c_str());
            bad = true;
        };
        if (w.size() < 4) {
            fail("expected NAME SET FILE <options>");
            continue;
        }
        L.name = w[0], L.set = w[1], L.file = w[2];
        L.words.assign(w.begin() + 3, w.end());
        if (L.set != "count" && L.set != "time") fail("SET is '" + L.set + "', not count or time");
        for (const ListLine &o : out)
            if (o.name == L.name) fail(fmt("NAME %s was used on line %d", L.name.c_str(), o.lineno));
        for (size_t k = 0; k + 1 < L.words.size(); k++)
            if (L.words[k] == "--define") L.defines.push_back(L.words[k + 1]);
        out.push_back(L);
    }
    if (bad) exit(EXIT_FAIL);
    return out;
}

int main(int argc, char **argv)
{
    Options o;
    std::string name;
    int i = 1;
    for (; i < argc && argv[i][0] == '-' && argv[i][1] == '-'; i++) {
        std::string a = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) usage((a + " needs a value").c_str());
            return argv[++i];
        };
        if (a == "--repeat") {
            uint64_t n;
            if (!parse_u64(value(), &n) || n > 100000) usage("--repeat takes a count (0..100000)");
            o.repeat = (int)n;
        } else if (a == "--dump") o.dump = value();
        else if (a == "--dump-max") {
            if (!parse_size(value(), &o.dump_max)) usage("--dump-max takes a byte count");
        } else if (a == "--dump-changed") o.dump_changed = true;
        else if (a == "--check") o.check = true;
        else if (a == "--keep-going") o.keep_going = true;
        else if (a == "--name") name = value();
        else if (a == "--list") o.list = value();
        else if (a == "--build") o.build = value();
        else if (a == "--units") o.units = value();
        else if (a == "--set") {
            o.set = value();
            if (o.set != "count" && o.set != "time") usage("--set takes count or time");
        } else if (a == "--skip") {
            if (!parse_u64(value(), &o.skip)) usage("--skip takes a count");
        } else if (a == "--count") {
            if (!parse_u64(value(), &o.count)) usage("--count takes a count");
        } else if (a == "--help") usage(nullptr);
        else break;  // a coalsim option: the CUBIN and PTX are missing
    }

    if (!o.units.empty()) {
        if (i != argc) usage("--units takes no further arguments");
        std::vector<std::string> seen;
        for (const ListLine &L : read_list(o.units)) {
            std::string u = unit_of(L.file, L.defines);
            if (std::find(seen.begin(), seen.end(), u) != seen.end()) continue;
            seen.push_back(u);
            printf("%s %s", u.c_str(), L.file.c_str());
            for (const std::string &d : L.defines) printf(" -D%s", d.c_str());
            printf("\n");
        }
        return EXIT_OK;
    }

    Gpu *g = nullptr;
    int failed = 0, total = 0;
    if (!o.list.empty()) {
        if (i != argc) usage("--list takes no further arguments");
        if (o.build.empty()) usage("--list needs --build DIR (where the CUBIN and PTX files are)");
        uint64_t index = 0;
        for (const ListLine &line : read_list(o.list)) {
            if (!o.set.empty() && line.set != o.set) continue;
            if (index++ < o.skip) continue;
            if ((uint64_t)total >= o.count) break;
            total++;
            Launch L;
            L.name = line.name;
            std::string unit = o.build + "/" + unit_of(line.file, line.defines);
            L.cubin = unit + ".cubin", L.ptx = unit + ".ptx";
            try {
                parse_launch_options(L, line.words, 0);
            } catch (const Failure &e) {
                fprintf(stderr, "launch: %s:%d: %s\n", o.list.c_str(), line.lineno, e.what());
                printf("FAILED %s\n", L.name.c_str());
                failed++;
                if (!o.keep_going) break;
                continue;
            }
            if (!process(g, L, o, true)) {
                failed++;
                if (!o.keep_going) break;
            }
        }
    } else {
        if (argc - i < 2) usage("need CUBIN and PTX");
        Launch L;
        L.cubin = argv[i], L.ptx = argv[i + 1];
        L.name = name.empty() ? "(command line)" : name;
        std::vector<std::string> w(argv + i, argv + argc);
        try {
            parse_launch_options(L, w, 2);
        } catch (const Failure &e) {
            usage(e.what());
        }
        if (!L.have_kernel || !L.have_grid || !L.have_block || !L.have_args)
            usage("need --kernel, --grid, --block and --args");
        if (name.empty()) L.name = L.kernel;
        total = 1;
        if (!process(g, L, o, false)) failed++;
    }
    if (total > 1) fprintf(stderr, "launch: %d of %d launches %s\n", total - failed, total, o.check ? "valid" : "ran");
    return failed ? EXIT_FAIL : EXIT_OK;
}
