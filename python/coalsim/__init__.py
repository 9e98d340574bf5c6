"""coalsim from Python: GPU memory coalescing and shared-memory bank conflicts.

A thin layer over libcoalsim.so (ctypes, standard library only).  Every
result is the dict of coalsim's JSON report (``coalsim --json``): ``arch``,
``accesses``, ``totals``, ``metrics``, ... ::

    import coalsim
    report = coalsim.analyse_file("traces/add_offset.trace")
    report["accesses"][0]["efficiency"]                  # 0.8

    r = coalsim.analyse_request("ld", "global", 4, [0x1000 + 4 * i for i in range(32)])
    r["accesses"][0]["sectors"]                          # 4

    k = coalsim.analyse_kernel("saxpy.cu", grid=256, block=256, args="65536,2.0,X:256K,Y:256K")
    k["metrics"]["smsp__inst_executed.sum"]

Bad input raises coalsim.Error with coalsim's message ("FILE:LINE: what is
wrong"); nothing is printed.  The library is looked for in $COALSIM_LIB,
next to this module, in the build folder of the source tree this module
sits in, then where the system's loader looks (coalsim.load says more).
"""

import ctypes
import ctypes.util
import json
import operator
import os
import shutil
import subprocess
import tempfile

__all__ = ["Error", "Analysis", "analyse_file", "analyse_kernel", "analyse_request", "archs", "load", "run"]

_ERRLEN = 1024
_lib = None


class Error(Exception):
    """What coalsim says is wrong: bad input ("FILE:LINE: ..."), a bad
    argument, or no library to load."""


def _candidates():
    env = os.environ.get("COALSIM_LIB")
    if env:
        yield env
        return
    here = os.path.dirname(os.path.abspath(__file__))
    for name in ("libcoalsim.so", "libcoalsim.so.0"):
        yield os.path.join(here, name)
    yield os.path.join(here, os.pardir, os.pardir, "build", "libcoalsim.so")
    found = ctypes.util.find_library("coalsim")
    if found:
        yield found
    yield "libcoalsim.so.0"


def load(path=None):
    """Load libcoalsim.so from PATH, or else from the first place that has
    it: $COALSIM_LIB (only there when it is set), this module's folder, the
    build folder of the source tree (python/../build), then the system's
    (ldconfig, LD_LIBRARY_PATH).  Called by the first analysis; call it
    yourself to pick a library.  Raises Error if none loads."""
    global _lib
    tried = []
    for cand in [path] if path else _candidates():
        if os.sep in cand and not os.path.exists(cand):
            tried.append(cand + " (no such file)")
            continue
        try:
            lib = ctypes.CDLL(cand)
        except OSError as e:
            tried.append("%s (%s)" % (cand, e))
            continue
        _declare(lib)
        _lib = lib
        return lib
    raise Error("cannot load libcoalsim.so (build it with make, or set COALSIM_LIB); tried: " + "; ".join(tried))


def _declare(lib):
    P, c = ctypes.c_void_p, ctypes
    lib.coalsim_analysis_new_preset.argtypes = [c.c_char_p, c.c_uint, c.c_int, c.c_char_p, c.c_size_t]
    lib.coalsim_analysis_new_preset.restype = P
    lib.coalsim_analysis_free.argtypes = [P]
    lib.coalsim_analysis_free.restype = None
    lib.coalsim_analysis_read_file.argtypes = [P, c.c_char_p, c.c_uint, c.c_char_p, c.c_size_t]
    lib.coalsim_analysis_read_file.restype = c.c_int
    lib.coalsim_analysis_put_lanes.argtypes = [P, c.c_char_p, c.c_char_p, c.c_uint, c.c_uint64, c.c_uint64,
                                               c.c_uint32, c.POINTER(c.c_uint64), c.c_char_p, c.c_char_p,
                                               c.c_size_t]
    lib.coalsim_analysis_put_lanes.restype = c.c_int
    lib.coalsim_analysis_inherit_l2.argtypes = [P, P]
    lib.coalsim_analysis_inherit_l2.restype = c.c_int
    lib.coalsim_analysis_finish.argtypes = [P]
    lib.coalsim_analysis_finish.restype = c.c_int
    lib.coalsim_analysis_error.argtypes = [P]
    lib.coalsim_analysis_error.restype = c.c_char_p
    lib.coalsim_analysis_report_string.argtypes = [P, c.c_int, c.c_char_p]
    lib.coalsim_analysis_report_string.restype = P      # a pointer to free, not a bytes copy
    lib.coalsim_free.argtypes = [P]
    lib.coalsim_free.restype = None
    lib.coalsim_analysis_run_kernel.argtypes = [P, c.c_char_p, c.c_char_p, c.c_char_p, c.c_char_p, c.c_char_p,
                                                c.c_char_p, c.c_uint64, c.c_char_p, c.c_int, c.c_char_p, c.c_uint, c.c_char_p,
                                                c.c_size_t]
    lib.coalsim_analysis_run_kernel.restype = c.c_int
    lib.coalsim_analysis_run_kernel_warm.argtypes = lib.coalsim_analysis_run_kernel.argtypes
    lib.coalsim_analysis_run_kernel_warm.restype = c.c_int
    lib.coalsim_analysis_run_sketch.argtypes = [P, c.c_char_p, c.POINTER(c.c_char_p), c.c_char_p, c.c_uint, c.c_char_p,
                                                c.c_size_t]
    lib.coalsim_analysis_run_sketch.restype = c.c_int
    lib.coalsim_arch_names.argtypes = []
    lib.coalsim_arch_names.restype = c.POINTER(c.c_char_p)


def _library():
    return _lib if _lib is not None else load()


def _text(b):
    return b.decode("utf-8", "replace") if isinstance(b, bytes) else str(b)


def archs():
    """The architecture presets, in coalsim --help's order."""
    names = _library().coalsim_arch_names()
    out, i = [], 0
    while names[i] is not None:
        out.append(_text(names[i]))
        i += 1
    return out


def _list(x):
    """A NumPy array (or anything with tolist) as a list; a sequence as is."""
    return x.tolist() if hasattr(x, "tolist") else list(x)


class Analysis:
    """One analysis: requests and trace files go in, one report comes out.

    ARCH is a preset name (archs()), WARP_SIZE the lanes of a warp (1-32),
    HIER adds the H100's caches (hopper only).  Use it as a context manager,
    or call close(); it is closed when collected too."""

    def __init__(self, arch="hopper", warp_size=32, hier=False):
        self._lib = _library()
        self.arch, self.warp_size = arch, int(warp_size)
        err = ctypes.create_string_buffer(_ERRLEN)
        if not 1 <= self.warp_size <= 32:
            raise Error("warp size %d is not 1 to 32" % self.warp_size)
        self._an = self._lib.coalsim_analysis_new_preset(str(arch).encode(), self.warp_size, 1 if hier else 0,
                                                         err, _ERRLEN)
        if not self._an:
            raise Error(_text(err.value))

    def _handle(self):
        if not self._an:
            raise Error("this analysis is closed")
        return self._an

    def add_file(self, path):
        """Read the trace file PATH (text v1, binary, NVBit mem_trace output,
        an Accel-Sim trace; plain or gzip).  Raises Error naming the file and
        line of bad input."""
        err = ctypes.create_string_buffer(_ERRLEN)
        if self._lib.coalsim_analysis_read_file(self._handle(), os.fsencode(path), self.warp_size, err, _ERRLEN):
            raise Error(_text(err.value))
        return self

    def add_request(self, op, space, size, addresses, active=None, label="request", block=0, warp=0):
        """Add one warp request.  OP: "ld", "st", "atom", "red", "ldsm" or "stsm"; SPACE:
        "global", "shared", "local" or "const"; SIZE: bytes a lane (1, 2, 4,
        8, 16); ADDRESSES: lane 0's address first, at most warp-size of them
        (a list or a NumPy array), None for an inactive lane; ACTIVE: also
        marks lanes inactive, as an int mask (bit l = lane l) or a sequence
        of booleans.  LABEL names the access the request belongs to."""
        addrs = _list(addresses)
        if len(addrs) > self.warp_size:
            raise Error("%d addresses for a warp of %d lanes" % (len(addrs), self.warp_size))
        mask = 0
        lanes = (ctypes.c_uint64 * 32)()
        for lane, a in enumerate(addrs):
            if a is None:
                continue
            a = int(a)
            if not 0 <= a < 1 << 64:
                raise Error("lane %d's address %d is not between 0 and 2^64 - 1" % (lane, a))
            lanes[lane] = a
            mask |= 1 << lane
        if active is not None:
            try:
                keep = operator.index(active)        # an int (or NumPy integer) mask
            except TypeError:
                flags = _list(active)
                if len(flags) != len(addrs):
                    raise Error("%d active flags for %d addresses" % (len(flags), len(addrs)))
                keep = sum(1 << lane for lane, f in enumerate(flags) if f)
            mask &= keep
        err = ctypes.create_string_buffer(_ERRLEN)
        if self._lib.coalsim_analysis_put_lanes(self._handle(), str(op).encode(), str(space).encode(), int(size),
                                                int(block), int(warp), mask, lanes, str(label).encode(), err,
                                                _ERRLEN):
            raise Error(_text(err.value))
        return self

    def add_kernel(self, path, grid, block, args="", kernel=None, dynamic_shared=0, module=None, sass=False,
                   threads=0, sample="auto", cluster=None, warm=False):
        """Run a kernel into this analysis, no GPU needed: PATH is a .cu
        (compiled with nvcc or clang), a .ptx, a SASS listing (.sass) or a
        cubin; GRID and BLOCK are "X[,Y[,Z]]" strings or sequences of ints;
        (an int is X alone); ARGS is coalsim's --args list (numbers, NAME[:SIZE][=FILL] buffers);
        KERNEL names one kernel of several; MODULE is the .cu/.ptx a listing
        came from; SASS runs a .cu/.ptx's SASS (needs the CUDA toolkit);
        CLUSTER ("X[,Y[,Z]]" or a sequence) launches thread-block clusters of
        that shape, as --cluster and cudaLaunchKernelEx's attribute do (None:
        the kernel's __cluster_dims__, if any); SAMPLE is coalsim's --sample
        ("auto", "off" or a number of blocks:
        a large launch runs a sample of its blocks, and of the iterations of
        their loops that move by whole lines, extrapolated, and the report's
        "sample" says how many and each figure's error).  WARM (an analysis
        with hier=True) runs it as the second of two launches back to back,
        as coalsim --l2 warm does: in the L2 and the memory the first left.
        Raises Error with coalsim's message (the PTX or listing line, the
        block and lane of a bad access)."""
        def dims(d):
            if isinstance(d, str):
                return d
            try:
                return str(operator.index(d))          # one int: X
            except TypeError:
                return ",".join(str(int(v)) for v in _list(d))
        err = ctypes.create_string_buffer(4 * _ERRLEN)
        run = self._lib.coalsim_analysis_run_kernel_warm if warm else self._lib.coalsim_analysis_run_kernel
        rc = run(
            self._handle(), os.fsencode(path), str(kernel).encode() if kernel else None, dims(grid).encode(),
            dims(block).encode(), dims(cluster).encode() if cluster is not None else None, str(args).encode(),
            int(dynamic_shared), os.fsencode(module) if module else None, 1 if sass else 0, str(sample).encode(), int(threads), err,
            4 * _ERRLEN)
        if rc:
            raise Error(_text(err.value))
        return self

    def add_sketch(self, path, sets=None, threads=0, sample="auto"):
        """Run the kernel sketch PATH (a .sketch file, docs/sketch-format.md)
        into this analysis: the requests `coalsim FILE.sketch` analyses.
        SETS overrides its params, a dict {"N": 8192} or "name=value"
        strings; THREADS runs its blocks on that many threads (0: every
        core); SAMPLE as add_kernel's.  Raises Error naming the sketch's
        line of bad input."""
        if isinstance(sets, dict):
            sets = ["%s=%s" % (k, v) for k, v in sets.items()]
        sets = [str(s) for s in (sets or [])]
        arr = (ctypes.c_char_p * (len(sets) + 1))(*[s.encode() for s in sets], None)
        err = ctypes.create_string_buffer(_ERRLEN)
        if self._lib.coalsim_analysis_run_sketch(self._handle(), os.fsencode(path), arr, str(sample).encode(),
                                                 int(threads), err, _ERRLEN):
            raise Error(_text(err.value))
        return self

    def inherit_l2(self, prev):
        """Start this analysis's L2 with what PREV's (another Analysis, both
        with hier=True) held at its end, dirty lines included; L1s start
        empty.  Call it before anything is added: this analysis is then the
        launch after PREV's, back to back."""
        if self._lib.coalsim_analysis_inherit_l2(self._handle(), prev._handle()):
            raise Error(_text(self._lib.coalsim_analysis_error(self._handle())))
        return self

    def report(self, name="python"):
        """The report as coalsim --json gives it (a dict), NAME as its trace."""
        an = self._handle()
        if self._lib.coalsim_analysis_finish(an) != 0:
            raise Error(_text(self._lib.coalsim_analysis_error(an)))
        p = self._lib.coalsim_analysis_report_string(an, 1, str(name).encode())   # 1: COALSIM_JSON
        if not p:
            raise Error("out of memory")
        try:
            return json.loads(ctypes.string_at(p).decode("utf-8", "replace"))
        finally:
            self._lib.coalsim_free(p)

    def close(self):
        if getattr(self, "_an", None):
            self._lib.coalsim_analysis_free(self._an)
            self._an = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        self.close()


def analyse_file(path, arch="hopper", warp_size=32, hier=False):
    """The report of the trace file PATH (any form coalsim reads) as a dict."""
    with Analysis(arch, warp_size, hier) as an:
        return an.add_file(path).report(os.fsdecode(path))


def analyse_kernel(path, grid, block, args="", kernel=None, arch="hopper", hier=False, l2="cold", **kw):
    """The report of one kernel launch (see Analysis.add_kernel) as a dict:
    its accesses, and report["metrics"] with Nsight Compute's names.  With
    HIER, L2 "cold" (the default) starts with nothing in L2, as ncu measures
    a launch; "warm" reports the second of two identical launches back to
    back, whose L2 and memory hold what the first left (as a cudaEvent loop
    measures), like coalsim --l2 warm."""
    if l2 not in ("cold", "warm"):
        raise Error("l2 is 'cold' or 'warm', not %r" % (l2,))
    if l2 == "warm" and not hier:
        raise Error("l2='warm' needs hier=True (the cache model)")
    with Analysis(arch, 32, hier) as an:
        return an.add_kernel(path, grid, block, args, kernel, warm=l2 == "warm", **kw).report(os.fsdecode(path))


def analyse_sketch(path, sets=None, arch="hopper", warp_size=32, hier=False, threads=0, sample="auto"):
    """The report of the kernel sketch PATH (see Analysis.add_sketch) as a dict."""
    with Analysis(arch, warp_size, hier) as an:
        return an.add_sketch(path, sets, threads, sample).report(os.fsdecode(path))


def analyse_request(op, space, size, addresses, arch="hopper", active=None, label="request", warp_size=32):
    """The report of one warp request (see Analysis.add_request) as a dict:
    its one access in report["accesses"][0]."""
    with Analysis(arch, warp_size) as an:
        return an.add_request(op, space, size, addresses, active, label).report(label)


def _command():
    """The coalsim command run() uses: $COALSIM_BIN, beside the library that
    was loaded (the build folder, or an install's ../bin), this module's
    bin/ folder (a wheel), then PATH."""
    env = os.environ.get("COALSIM_BIN")
    if env:
        return env
    cands = []
    lib = getattr(_lib, "_name", None) if _lib is not None else None
    if not lib:
        for cand in _candidates():
            if os.sep in cand and os.path.exists(cand):
                lib = cand
                break
    if lib and os.sep in lib:
        d = os.path.dirname(os.path.realpath(lib))
        cands += [os.path.join(d, "coalsim"), os.path.join(d, os.pardir, "bin", "coalsim")]
    here = os.path.dirname(os.path.abspath(__file__))
    cands += [os.path.join(here, "bin", "coalsim"), os.path.join(here, os.pardir, os.pardir, "build", "coalsim")]
    for c in cands:
        if os.path.isfile(c) and os.access(c, os.X_OK):
            return os.path.normpath(c)
    found = shutil.which("coalsim")
    if found:
        return found
    raise Error("cannot find the coalsim command (build it with make, or set COALSIM_BIN); tried: " + "; ".join(cands))


def run(argv, hier=False, profile=None, kernel_name=None, skip=0, count=0, source=False, capture=False):
    """Run the CUDA program ARGV (a list: the program, then its arguments)
    under coalsim's driver, with no GPU, as `coalsim run` does, and return
    {"launches": [...], "exit_status": N}: each launch's report as
    analyse_kernel gives it, with "launch", "kernel", "grid", "block" and
    "dynamic_shared" added (a launch that faulted is {"launch": N, "fault":
    why}; one coalsim could not run, {"launch": N, "error": why}).  HIER and
    PROFILE (a profile file) add the caches and the time; KERNEL_NAME (a name
    or "regex:RE"), SKIP and COUNT choose the launches reported.  The
    program's output passes through, or with CAPTURE is returned as
    "stdout" and "stderr" (with coalsim's notes).  Raises Error if the
    program cannot be started or coalsim fails (its message)."""
    argv = [os.fsdecode(a) for a in argv]
    if not argv:
        raise Error("run() needs a program")
    cmd = [_command(), "run", "--json"]
    if hier:
        cmd.append("--hier")
    if profile:
        cmd += ["--profile", os.fsdecode(profile)]
    if source:
        cmd.append("--source")
    if kernel_name:
        cmd += ["--kernel-name", kernel_name]
    if skip:
        cmd += ["--launch-skip", str(int(skip))]
    if count:
        cmd += ["--launch-count", str(int(count))]
    with tempfile.TemporaryDirectory(prefix="coalsim-py-") as tmp:
        log = os.path.join(tmp, "report.json")
        cmd += ["--log-file", log, "--"] + argv
        p = subprocess.run(cmd, stdout=subprocess.PIPE if capture else None,
                           stderr=subprocess.PIPE if capture else None)
        if not os.path.exists(log) or os.path.getsize(log) == 0:
            err = _text(p.stderr).strip() if capture and p.stderr else "coalsim run exited with %d" % p.returncode
            raise Error(err)
        with open(log) as f:
            out = json.load(f)
    out["exit_status"] = p.returncode
    if capture:
        out["stdout"] = _text(p.stdout)
        out["stderr"] = _text(p.stderr)
    return out
