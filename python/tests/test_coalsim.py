"""python/coalsim on libcoalsim.so: files, requests, errors (make pycheck)."""
import gzip
import json
import os
import shutil
import sys
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), os.pardir, os.pardir))
sys.path.insert(0, os.path.join(ROOT, "python"))

import coalsim  # noqa: E402

try:
    import numpy
except ImportError:
    numpy = None


def path(*parts):
    return os.path.join(ROOT, *parts)


def expected_json(name):
    with open(path("traces", "expected", name)) as f:
        return json.load(f)


def without_name(report):
    return {k: v for k, v in report.items() if k != "trace"}


class Files(unittest.TestCase):
    def test_a_file_gives_the_commands_json_report(self):
        got = coalsim.analyse_file(path("traces", "add_offset.trace"))
        self.assertEqual(without_name(got), without_name(expected_json("add_offset_json.out")))
        self.assertEqual(got["trace"], path("traces", "add_offset.trace"))
        self.assertEqual(got["accesses"][0]["efficiency"], 0.8)

    def test_accel_sim_and_nvbit_traces_are_read_like_any_trace(self):
        got = coalsim.analyse_file(path("traces", "accelsim_example.traceg"))
        self.assertEqual(without_name(got), without_name(expected_json("accelsim_example_json.out")))
        nv = coalsim.analyse_file(path("traces", "nvbit_example.txt"))
        self.assertEqual([a["label"] for a in nv["accesses"]], ["LDG.E", "LDG.E.64", "STS", "LDS", "STG.E"])

    def test_gzip_and_binary_give_the_same_report_as_text(self):
        text = coalsim.analyse_file(path("traces", "rowcol_sum.trace"), warp_size=4)
        binary = coalsim.analyse_file(path("tests", "cli", "rowcol_sum.bin"), warp_size=4)
        tmp = tempfile.mkdtemp()
        try:
            gz = os.path.join(tmp, "rowcol_sum.trace.gz")
            with open(path("traces", "rowcol_sum.trace"), "rb") as src, gzip.open(gz, "wb") as dst:
                shutil.copyfileobj(src, dst)
            gzipped = coalsim.analyse_file(gz, warp_size=4)
        finally:
            shutil.rmtree(tmp)
        self.assertEqual(without_name(text)["totals"], without_name(binary)["totals"])
        self.assertEqual(without_name(text), without_name(gzipped))

    def test_bad_input_raises_with_the_file_and_line(self):
        bad = path("tests", "cli", "bad_op.trace")
        with self.assertRaises(coalsim.Error) as e:
            coalsim.analyse_file(bad)
        self.assertRegex(str(e.exception), "^" + bad + r":\d+: unknown op ")
        with self.assertRaisesRegex(coalsim.Error, "trailing garbage"):
            coalsim.analyse_file(path("tests", "cli", "trailing_garbage.trace.gz"))
        with self.assertRaisesRegex(coalsim.Error, "no-such-file.trace: cannot open: No such file"):
            coalsim.analyse_file(path("tests", "cli", "no-such-file.trace"))
        with self.assertRaisesRegex(coalsim.Error, "is a directory"):
            coalsim.analyse_file(path("tests", "cli"))

    def test_the_hierarchy_is_reported_when_asked_on_hopper_only(self):
        got = coalsim.analyse_file(path("traces", "add.trace"), hier=True)
        self.assertIn("hierarchy", got)
        self.assertIn("l2_sectors", got["hierarchy"])
        with self.assertRaisesRegex(coalsim.Error, "hopper preset only"):
            coalsim.analyse_file(path("traces", "add.trace"), arch="kepler", hier=True)


class Requests(unittest.TestCase):
    def test_a_coalesced_warp_moves_four_sectors(self):
        r = coalsim.analyse_request("ld", "global", 4, [0x1000 + 4 * i for i in range(32)])
        a = r["accesses"][0]
        self.assertEqual((a["sectors"], a["ideal_sectors"], a["efficiency"]), (4, 4, 1))
        self.assertEqual(r["totals"]["global_ld"]["requests"], 1)

    def test_none_and_a_mask_make_lanes_inactive(self):
        addrs = [0x1000 + 4 * i for i in range(32)]
        addrs[0] = None
        r = coalsim.analyse_request("st", "global", 4, addrs, active=0x0000ffff)
        self.assertEqual(r["accesses"][0]["active_threads"], 15)
        r = coalsim.analyse_request("st", "global", 4, addrs[:4], active=[True, True, False, True])
        self.assertEqual(r["accesses"][0]["active_threads"], 2)

    def test_a_shared_column_conflicts_32_ways_and_arch_matters(self):
        col = [128 * i for i in range(32)]
        a = coalsim.analyse_request("ld", "shared", 4, col, label="tile_col")["accesses"][0]
        self.assertEqual((a["label"], a["wavefronts"], a["max_ways"]), ("tile_col", 32, 32))
        k = coalsim.analyse_request("ld", "shared", 4, col, arch="kepler")["accesses"][0]
        self.assertEqual(k["max_ways"], 16)   # Kepler's 64-bit banks: two rows a bank word

    def test_bad_requests_raise(self):
        with self.assertRaisesRegex(coalsim.Error, "not aligned"):
            coalsim.analyse_request("ld", "global", 8, [4])
        with self.assertRaisesRegex(coalsim.Error, "unknown op 'load'"):
            coalsim.analyse_request("load", "global", 4, [0])
        with self.assertRaisesRegex(coalsim.Error, "size 3 is not"):
            coalsim.analyse_request("ld", "global", 3, [0])
        with self.assertRaisesRegex(coalsim.Error, "unknown architecture 'volcano'"):
            coalsim.analyse_request("ld", "global", 4, [0], arch="volcano")
        with self.assertRaisesRegex(coalsim.Error, "33 addresses for a warp of 32 lanes"):
            coalsim.analyse_request("ld", "global", 4, list(range(0, 132, 4)))
        with self.assertRaisesRegex(coalsim.Error, "no lane is active"):
            coalsim.analyse_request("ld", "global", 4, [None, None])
        with self.assertRaisesRegex(coalsim.Error, "4 GiB shared window"):
            coalsim.analyse_request("ld", "shared", 4, [1 << 32])
        with self.assertRaisesRegex(coalsim.Error, "between 0 and 2"):
            coalsim.analyse_request("ld", "global", 4, [-4])

    @unittest.skipUnless(numpy, "NumPy is not installed")
    def test_numpy_arrays_are_accepted(self):
        addrs = numpy.arange(32, dtype=numpy.uint64) * 8 + 0x2000
        r = coalsim.analyse_request("ld", "global", 8, addrs, active=numpy.arange(32) < 16)
        self.assertEqual((r["accesses"][0]["active_threads"], r["accesses"][0]["sectors"]), (16, 4))


class Analyses(unittest.TestCase):
    def test_requests_and_files_add_up_in_one_analysis(self):
        with coalsim.Analysis("hopper") as an:
            for w in range(4):
                an.add_request("ld", "global", 4, [0x1000 + 128 * w + 4 * i for i in range(32)], label="x", warp=w)
            an.add_file(path("traces", "add.trace"))
            r = an.report("mixed")
        self.assertEqual(r["trace"], "mixed")
        # the requests' access "x" (ld global 4) is add.trace's x too
        self.assertEqual([a["label"] for a in r["accesses"]], ["x", "y", "z"])
        self.assertEqual(r["accesses"][0]["requests"], 4 + 128)

    def test_an_ldmatrix_of_128_byte_rows_is_8_way_and_says_how_to_pad(self):
        rows = [(l % 8 + 8 * (l // 16)) * 128 + (l // 8 % 2) * 16 for l in range(32)]
        r = coalsim.analyse_request("ldsm", "shared", 16, rows)
        a = r["accesses"][0]
        self.assertEqual((a["wavefronts"], a["ideal_wavefronts"], a["max_ways"]), (32, 4, 8))
        with self.assertRaisesRegex(coalsim.Error, "shared access of 16 bytes"):
            coalsim.analyse_request("ldsm", "global", 16, rows)

    def test_a_closed_analysis_raises(self):
        an = coalsim.Analysis()
        an.close()
        with self.assertRaisesRegex(coalsim.Error, "closed"):
            an.report()

    def test_the_presets_are_listed(self):
        self.assertEqual(coalsim.archs()[-1], "hopper")
        self.assertIn("kepler32", coalsim.archs())


class Kernels(unittest.TestCase):
    SAXPY = dict(grid=4, block=64, args="256,2.0,X:1K=random:1,Y:1K=random:2", kernel="saxpy")

    def test_a_ptx_kernel_runs_and_names_its_metrics_as_ncu(self):
        r = coalsim.analyse_kernel(path("gpu", "results", "h100", "outside", "ptx", "saxpy.ptx"), **self.SAXPY)
        self.assertEqual(r["instructions"], "PTX")
        # 8 warps, 2 loads each, 4 sectors a load
        self.assertEqual(r["metrics"]["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"], 8 * 2 * 4)

    def test_a_sass_listing_with_its_module_counts_as_the_gpu_issues(self):
        r = coalsim.analyse_kernel(path("gpu", "results", "h100", "outside", "sass", "saxpy.nvdisasm"),
                                   module=path("gpu", "results", "h100", "outside", "ptx", "saxpy.ptx"), **self.SAXPY)
        self.assertEqual(r["instructions"], "SASS")
        self.assertEqual(r["metrics"]["smsp__inst_executed.sum"], 8 * 19)

    def test_dims_take_sequences_and_the_analysis_adds_launches(self):
        with coalsim.Analysis() as an:
            ptx = path("gpu", "results", "h100", "outside", "ptx", "saxpy.ptx")
            an.add_kernel(ptx, [4, 1, 1], (64,), "256,2.0,X:1K,Y:1K", "saxpy")
            an.add_kernel(ptx, "4", "64", "256,2.0,X:1K,Y:1K", "saxpy")
            r = an.report()
        self.assertEqual(r["metrics"]["l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"], 2 * 8)

    def test_a_warm_launch_of_data_that_fits_in_l2_reads_no_dram(self):
        ptx = path("gpu", "results", "h100", "outside", "ptx", "saxpy.ptx")
        cold = coalsim.analyse_kernel(ptx, hier=True, **self.SAXPY)
        warm = coalsim.analyse_kernel(ptx, hier=True, l2="warm", **self.SAXPY)
        self.assertEqual(cold["hierarchy"]["dram_read_bytes"], 2 * 1024)
        self.assertEqual(warm["hierarchy"]["dram_read_bytes"], 0)
        with self.assertRaisesRegex(coalsim.Error, "hier"):
            coalsim.analyse_kernel(ptx, l2="warm", **self.SAXPY)

    def test_a_cluster_shape_runs_ctas_together_and_a_bad_one_raises(self):
        ptx = path("tests", "kernels", "cluster.ptx")
        # dsmem_ring reads the next CTA's shared memory: another CTA's only in a cluster
        alone = coalsim.analyse_kernel(ptx, 8, 128, "out:4K,count:64", kernel="dsmem_ring")
        four = coalsim.analyse_kernel(ptx, 8, 128, "out:4K,count:64", kernel="dsmem_ring", cluster=4)
        self.assertNotIn("l1tex__t_requests_pipe_lsu_mem_dshared_op_ld.sum", alone["metrics"])
        self.assertEqual(four["metrics"]["l1tex__t_requests_pipe_lsu_mem_dshared_op_ld.sum"], 32)
        self.assertEqual(coalsim.analyse_kernel(ptx, 8, 128, "out:4K,count:64", kernel="dsmem_ring",
                                                cluster=(4, 1, 1))["metrics"], four["metrics"])
        with self.assertRaisesRegex(coalsim.Error, "a cluster of 3 x 1 x 1 CTAs for a grid of 8"):
            coalsim.analyse_kernel(ptx, 8, 128, "out:4K,count:64", kernel="dsmem_ring", cluster=3)

    def test_kernel_errors_raise_with_the_line(self):
        with self.assertRaisesRegex(coalsim.Error, "misaligned"):
            coalsim.analyse_kernel(path("tests", "cli", "sass_hand.sass"), grid=1, block=32, args="P:128,5",
                                   kernel="hand")
        with self.assertRaisesRegex(coalsim.Error, "grid"):
            coalsim.analyse_kernel(path("tests", "kernels", "semantics.ptx"), grid="0", block=32, args="out:1K",
                                   kernel="diverge")
        with self.assertRaisesRegex(coalsim.Error, "not a kernel file"):
            coalsim.analyse_kernel(path("traces", "add.trace"), grid=1, block=32)


class Sketches(unittest.TestCase):
    def test_a_sketch_gives_the_commands_json_report(self):
        # tests/cli/cases.list: sketch_threads_json is this sketch at these sizes on 3 threads
        got = coalsim.analyse_sketch(path("examples", "sketches", "add_offset.sketch"),
                                     {"blocks": 300, "threads": 96}, threads=2)
        with open(path("tests", "cli", "expected", "sketch_threads_json.out")) as f:
            want = json.load(f)
        self.assertEqual(without_name(got), without_name(want))

    def test_sets_take_strings_and_sketches_add_up(self):
        sk = path("examples", "sketches", "add_offset.sketch")
        one = coalsim.analyse_sketch(sk, ["blocks=300", "threads=96"])
        with coalsim.Analysis() as an:
            an.add_sketch(sk, {"blocks": 300, "threads": 96}).add_sketch(sk, {"blocks": 300, "threads": 96})
            two = an.report()
        self.assertEqual([a["requests"] for a in two["accesses"]], [2 * a["requests"] for a in one["accesses"]])
        self.assertEqual(one["accesses"][0]["requests"], 900)

    def test_a_sampled_sketch_says_so_and_extrapolates_to_the_full_count(self):
        sk = path("examples", "sketches", "add.sketch")
        sets = {"blocks": 131072, "threads": 256}
        whole = coalsim.analyse_sketch(sk, sets, sample="off")
        part = coalsim.analyse_sketch(sk, sets, sample=20000)
        self.assertNotIn("sample", whole)
        self.assertLess(part["sample"]["run"], 30000)
        self.assertEqual(part["sample"]["blocks"], 131072)
        self.assertEqual(part["sample"]["figures"]["requests"]["error"], 0)
        self.assertEqual([a["requests"] for a in part["accesses"]], [a["requests"] for a in whole["accesses"]])
        self.assertEqual(part["metrics"], whole["metrics"])
        with self.assertRaisesRegex(coalsim.Error, "sample 'some'"):
            coalsim.analyse_sketch(sk, sets, sample="some")

    def test_sketch_errors_raise_with_the_line(self):
        with self.assertRaisesRegex(coalsim.Error, r"bad_step.sketch:4:23: the step must be"):
            coalsim.analyse_sketch(path("tests", "cli", "bad_step.sketch"))
        with self.assertRaisesRegex(coalsim.Error, "cannot open"):
            coalsim.analyse_sketch(path("tests", "cli", "no-such.sketch"))


def _nvcc():
    return shutil.which("nvcc") or ("/usr/local/cuda/bin/nvcc" if os.access("/usr/local/cuda/bin/nvcc", os.X_OK) else None)


class Run(unittest.TestCase):
    """coalsim.run on a program nvcc builds from tests/run/ (skipped without nvcc)."""

    @classmethod
    def setUpClass(cls):
        nvcc = _nvcc()
        if not nvcc:
            raise unittest.SkipTest("no nvcc to build a CUDA program")
        cls.tmp = tempfile.mkdtemp(prefix="coalsim-pyrun-")
        for name in ("multi", "fault"):
            import subprocess
            subprocess.run([nvcc, "-arch=sm_90", "-o", os.path.join(cls.tmp, name), path("tests", "run", name + ".cu")],
                           check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_a_program_runs_and_every_launch_is_returned(self):
        r = coalsim.run([os.path.join(self.tmp, "multi")], capture=True)
        self.assertEqual(r["exit_status"], 0)
        self.assertIn("PASS: 0 wrong", r["stdout"])
        self.assertEqual([x["kernel"] for x in r["launches"]],
                         ["saxpy(float*, float const*, int)", "block_sum(float const*, float*, int)",
                          "gather<33>(float*, float const*, int)"])
        self.assertEqual(r["launches"][1]["dynamic_shared"], 1024)
        self.assertEqual(r["launches"][0]["metrics"]["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"], 1024)

    def test_launches_are_chosen_by_name_and_the_time_comes_with_a_profile(self):
        r = coalsim.run([os.path.join(self.tmp, "multi")], hier=True, profile=path("gpu", "profiles", "h100.txt"),
                        kernel_name="regex:^block", capture=True)
        self.assertEqual([x["launch"] for x in r["launches"]], [2])
        self.assertGreater(r["launches"][0]["hierarchy"]["time"]["total_us"], 0)

    def test_a_fault_is_a_launch_of_its_own_and_a_missing_program_raises(self):
        r = coalsim.run([os.path.join(self.tmp, "fault"), "misaligned"], capture=True)
        self.assertEqual(r["exit_status"], 0)
        self.assertIn("misaligned address", r["launches"][0]["fault"])
        with self.assertRaisesRegex(coalsim.Error, "no-such-program: no such executable file"):
            coalsim.run([os.path.join(self.tmp, "no-such-program")], capture=True)


class Library(unittest.TestCase):
    def test_a_missing_library_is_an_error_not_a_crash(self):
        with self.assertRaisesRegex(coalsim.Error, "cannot load libcoalsim.so"):
            coalsim.load(path("no", "such", "libcoalsim.so"))
        coalsim.load()          # back to the one found as usual
        self.assertTrue(coalsim.analyse_request("ld", "global", 4, [0])["accesses"])


if __name__ == "__main__":
    unittest.main()
