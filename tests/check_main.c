/* Runs every Check suite of coalsim. */
#include <stdlib.h>

#include "helpers.h"

int main(void)
{
    SRunner *sr = srunner_create(make_arch_suite());
    srunner_add_suite(sr, make_gmem_suite());
    srunner_add_suite(sr, make_smem_suite());
    srunner_add_suite(sr, make_trace_suite());
    srunner_add_suite(sr, make_stats_suite());
    srunner_add_suite(sr, make_probes_suite());
    srunner_add_suite(sr, make_seeds_suite());
    srunner_add_suite(sr, make_binary_suite());
    srunner_add_suite(sr, make_sketch_suite());
    srunner_add_suite(sr, make_sketch_oracle_suite());
    srunner_add_suite(sr, make_hier_suite());
    srunner_add_suite(sr, make_timing_suite());
    srunner_add_suite(sr, make_report_suite());
    srunner_add_suite(sr, make_analysis_suite());
    srunner_add_suite(sr, make_grid_suite());
    srunner_add_suite(sr, make_kernel_suite());
    srunner_add_suite(sr, make_sass_suite());
    srunner_add_suite(sr, make_import_suite());
    srunner_add_suite(sr, make_alloc_suite());
    srunner_add_suite(sr, make_matrix_suite());
    srunner_add_suite(sr, make_tensor_suite());
    srunner_add_suite(sr, make_hopper_suite());
    srunner_add_suite(sr, make_sample_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
