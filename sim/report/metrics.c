/* Nsight Compute's metrics as the model predicts them: the names a user
 * compares with `ncu --metrics ...`.  Only what the input tells: a trace
 * holds memory requests, so instruction totals need a kernel front end. */
#include <stdio.h>
#include <string.h>

#include "coalsim.h"
#include "totals.h"

typedef struct {
    coalsim_metric *out;
    size_t n;
} list;

static void put(list *l, const char *name, uint64_t v)
{
    if (l->n < COALSIM_MAX_METRICS) l->out[l->n++] = (coalsim_metric){name, v};
}

/* ncu's metric names, indexed [space][op]; NULL where ncu has none.  The
 * matrix and async-copy ops were sorted into ncu's metrics by the probes
 * (gpu/probes/matrix.cu on the H100): a cp.async of either kind is also
 * one of the global loads (op_ld requests and sectors), LDSM's and STSM's
 * wavefronts and conflicts are shared loads' and stores', and ncu has no
 * counter of its own for cp.async.cg's requests or STSM's instructions. */
static const char *const requests_name[COALSIM_SPACES][COALSIM_OPS] = {
    [COALSIM_GLOBAL] = {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
                        "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum", "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum",
                        NULL, NULL, "l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts_cache_access.sum", NULL},
    [COALSIM_LOCAL] = {"l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum", "l1tex__t_requests_pipe_lsu_mem_local_op_st.sum"},
};
static const char *const sectors_name[COALSIM_SPACES][COALSIM_OPS] = {
    [COALSIM_GLOBAL] = {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
                        "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum",
                        NULL, NULL, "l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_access.sum", NULL},
    [COALSIM_LOCAL] = {"l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum"},
};
/* Shared atomics and reductions are one kind to ncu (ATOMS). */
static const char *const wavefronts_name[COALSIM_OPS] = {
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum", NULL};
static const char *const conflicts_name[COALSIM_OPS] = {
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum", NULL};
static const char *const inst_name[COALSIM_SPACES][COALSIM_OPS] = {
    [COALSIM_GLOBAL] = {"smsp__inst_executed_op_global_ld.sum", "smsp__inst_executed_op_global_st.sum",
                        "smsp__inst_executed_op_global_atom.sum", "smsp__inst_executed_op_global_red.sum"},
    [COALSIM_SHARED] = {"smsp__inst_executed_op_shared_ld.sum", "smsp__inst_executed_op_shared_st.sum",
                        "smsp__inst_executed_op_shared_atom.sum", NULL, "smsp__inst_executed_op_ldsm.sum"},
    [COALSIM_LOCAL] = {"smsp__inst_executed_op_local_ld.sum", "smsp__inst_executed_op_local_st.sum"},
};
/* The ncu op a shared op's wavefronts count under (-1: none, as LDGSTS's shared side). */
static int wavefront_op(int op)
{
    switch (op) {
    case COALSIM_LD: case COALSIM_LDSM: return COALSIM_LD;
    case COALSIM_ST: case COALSIM_STSM: return COALSIM_ST;
    case COALSIM_ATOM: case COALSIM_RED: return COALSIM_ATOM;
    default: return -1;
    }
}

size_t coalsim_metrics(const coalsim_stats *st, const coalsim_report_extra *ex, coalsim_metric *out)
{
    list l = {out, 0};
    total t[COALSIM_SPACES][COALSIM_OPS];
    totals_sum(st, t);
    const coalsim_exec *e = ex ? ex->exec : NULL;
    /* the four of ld and st always; atomics, local memory and cp.async when used */
    for (int sp = 0; sp < COALSIM_SPACES; sp++)
        for (int op = 0; op < COALSIM_OPS; op++) {
            int used = t[sp][op].requests || (e && e->inst_mem[sp][op]);
            int always = op <= COALSIM_ST && (sp == COALSIM_GLOBAL || sp == COALSIM_SHARED);
            if (!used && !always) continue;
            uint64_t req = t[sp][op].requests, sec = t[sp][op].units;
            if (sp == COALSIM_GLOBAL && op == COALSIM_LD)   /* ncu's global loads include both cp.async kinds */
                for (int k = COALSIM_LDGSTS; k <= COALSIM_LDGSTS_BYPASS; k++)
                    req += t[sp][k].requests, sec += t[sp][k].units;
            if (requests_name[sp][op]) put(&l, requests_name[sp][op], req);
            if (sectors_name[sp][op]) put(&l, sectors_name[sp][op], sec);
        }
    uint64_t wf[COALSIM_OPS] = {0}, ideal[COALSIM_OPS] = {0};
    for (int op = 0; op < COALSIM_OPS; op++) {
        int k = wavefront_op(op);
        if (k < 0) continue;
        wf[k] += t[COALSIM_SHARED][op].units;
        ideal[k] += t[COALSIM_SHARED][op].ideal;
    }
    for (int op = 0; op < COALSIM_OPS; op++) {
        if (!wavefronts_name[op] || (op == COALSIM_ATOM && !wf[op])) continue;
        put(&l, wavefronts_name[op], wf[op]);
        put(&l, conflicts_name[op], wf[op] - ideal[op]);
    }
    /* memory instructions: the kernel's count (with the ones no lane ran), or
     * a trace's requests, one instruction each */
    for (int sp = 0; sp < COALSIM_SPACES; sp++) {
        uint64_t red_into_atom = sp == COALSIM_SHARED ? (e ? e->inst_mem[sp][COALSIM_RED] : t[sp][COALSIM_RED].requests) : 0;
        for (int op = 0; op < COALSIM_OPS; op++) {
            if (!inst_name[sp][op]) continue;
            uint64_t v = e ? e->inst_mem[sp][op] : t[sp][op].requests;
            if (op == COALSIM_ATOM) v += red_into_atom;
            int always = op <= COALSIM_ST && (sp == COALSIM_GLOBAL || sp == COALSIM_SHARED);
            if (v || always) put(&l, inst_name[sp][op], v);
        }
    }
    {
        uint64_t v = 0;
        for (int k = COALSIM_LDGSTS; k <= COALSIM_LDGSTS_BYPASS; k++)
            v += e ? e->inst_mem[COALSIM_GLOBAL][k] : t[COALSIM_GLOBAL][k].requests;
        if (v) put(&l, "smsp__inst_executed_op_ldgsts.sum", v);
    }
    if (e && (e->inst_mma[0] || e->inst_mma[1] || e->inst_mma[2])) {
        put(&l, "sm__inst_executed_pipe_tensor.sum", e->inst_mma[0] + e->inst_mma[1] + e->inst_mma[2]);
        put(&l, "sm__inst_executed_pipe_tensor_op_hmma.sum", e->inst_mma[0]);
        put(&l, "sm__inst_executed_pipe_tensor_op_imma.sum", e->inst_mma[1]);
        put(&l, "sm__inst_executed_pipe_tensor_op_dmma.sum", e->inst_mma[2]);
    }
    if (e && e->inst_gmma) {
        /* wgmma reads shared memory through the LSU's data path, 128 bytes a wavefront (ncu, H100:
         * gpu/results/h100/hopper/counters.txt) */
        put(&l, "sm__inst_executed_pipe_tensor_op_gmma.sum", e->inst_gmma);
        put(&l, "sm__sass_data_bytes_mem_shared_op_gmma.sum", e->gmma_smem_bytes);
        put(&l, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma.sum", e->gmma_smem_bytes / 128);
    }
    if (e && (e->dshared_requests[0] || e->dshared_requests[1] || e->dshared_requests[2])) {
        /* another CTA's shared memory (clusters): LSU requests of their own */
        static const char *const req[3] = {"l1tex__t_requests_pipe_lsu_mem_dshared_op_ld.sum",
                                           "l1tex__t_requests_pipe_lsu_mem_dshared_op_st.sum",
                                           "l1tex__t_requests_pipe_lsu_mem_dshared_op_atom.sum"};
        static const char *const sec[3] = {"l1tex__t_sectors_pipe_lsu_mem_dshared_op_ld.sum",
                                           "l1tex__t_sectors_pipe_lsu_mem_dshared_op_st.sum",
                                           "l1tex__t_sectors_pipe_lsu_mem_dshared_op_atom.sum"};
        for (int k = 0; k < 3; k++) {
            put(&l, req[k], e->dshared_requests[k]);
            put(&l, sec[k], e->dshared_sectors[k]);
        }
    }
    if (e && (e->inst_mem[COALSIM_GLOBAL][COALSIM_BULK_LD] || e->inst_mem[COALSIM_GLOBAL][COALSIM_BULK_ST])) {
        /* TMA: tensor copies and cp.async.bulk both */
        put(&l, "smsp__inst_executed_op_tma_ld.sum", e->inst_mem[COALSIM_GLOBAL][COALSIM_BULK_LD]);
        put(&l, "smsp__inst_executed_op_tma_st.sum", e->inst_mem[COALSIM_GLOBAL][COALSIM_BULK_ST]);
        put(&l, "l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum", e->bulk_bytes_in);
        put(&l, "l1tex__m_xbar2l1tex_read_sectors_mem_global_op_tma_ld.sum", (e->bulk_bytes_in + 31) / 32);
        if (e->bulk_bytes_multicast)
            put(&l, "l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld_dest_multicast.sum", e->bulk_bytes_multicast);
        put(&l, "l1tex__m_l1tex2xbar_write_bytes_mem_global_op_tma_st.sum", e->bulk_bytes_out);
        put(&l, "l1tex__m_l1tex2xbar_write_sectors_mem_global_op_tma_st.sum", e->bulk_bytes_out / 32);
    }
    if (e && (e->bulk_bytes_red || e->bulk_bytes_red_dshared)) {
        /* cp.reduce.async.bulk (H100: gpu/results/h100/bulk_reduce) */
        put(&l, "l1tex__m_l1tex2xbar_write_bytes_mem_global_op_tma_red.sum", e->bulk_bytes_red);
        put(&l, "l1tex__m_l1tex2xbar_write_sectors_mem_global_op_tma_red.sum", e->bulk_bytes_red / 32);
        put(&l, "l1tex__m_l1tex2xbar_write_bytes_mem_dshared_op_tma_red.sum", e->bulk_bytes_red_dshared);
    }
    if (e) {
        put(&l, "smsp__inst_executed.sum", e->inst_executed);
        put(&l, "smsp__thread_inst_executed.sum", e->thread_inst_executed);
        put(&l, "smsp__warps_launched.sum", e->warps_launched);
    }
    if (ex && ex->hier) {
        coalsim_hier_counts h;
        coalsim_stats_hier_total(st, &h);
        put(&l, "lts__t_sectors_srcunit_tex.sum", h.l2_sectors);
        put(&l, "dram__bytes_read.sum", h.dram_read);
        put(&l, "dram__bytes_write.sum", h.dram_write);
    }
    if (ex && ex->time) put(&l, "gpu__time_duration.sum", (uint64_t)(ex->time->total_us * 1000.0 + 0.5));
    return l.n;
}
