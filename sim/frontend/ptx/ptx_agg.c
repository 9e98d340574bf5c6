/* What ptxas makes of a function's global atomics, seen in the SASS of
 * gpu/probes/atomic_agg.cu (sm_90, gpu/probes/runs/h200-atomic-agg) and of
 * cuda-samples' simpleAtomicIntrinsics (runs/h100-atomic-rate):
 *
 *   - an `atom` whose old value no instruction reads is a reduction (REDG),
 *     but exch and cas, which stay ATOMG with no destination;
 *   - on an address that is the same in every lane by construction (made
 *     from parameters, %ctaid, constants and loads from such addresses; not
 *     from %tid or %laneid, nor from `threadIdx.x / 32`, which is uniform
 *     only when the block's width is a multiple of 32), the warp's lanes
 *     are combined first (VOTEU.ANY, then POPC or REDUX) and one lane sends
 *     the request (`@P0 REDG` or `ATOMG`):
 *       an add of a value the same in every lane (32 or 64 bits, its old
 *       value read or not: POPC times the value);
 *       from sm_80 on (REDUX), a 32-bit add, min, max, and, or or xor whose
 *       old value no instruction reads;
 *     inc, dec, exch, cas, floating-point adds, 64-bit min and max and
 *     64-bit adds of varying values stay one request of every active lane.
 *
 * Which values are the same in every lane is a flow-insensitive taint from
 * the lane-varying sources (ptx_sched_lane_source); a value that differs
 * only through divergent control flow is not seen, so the interpreter
 * also checks at run time that the lanes' addresses are equal before it
 * sends one lane's request (ptx_ops_mem.c). */
#include <stdlib.h>

#include "frontend/ptx/ptx.h"

#define SET(b, v) ((b)[(v) / 64] |= 1ull << ((v) % 64))
#define HAS(b, v) ((b)[(v) / 64] >> ((v) % 64) & 1)

static int varies(const uint64_t *vary, uint32_t n, uint32_t v) { return v < n && HAS(vary, v); }

int ptx_agg_atomics(pfunc *f, int is_entry, int sm)
{
    uint32_t n = f->nslots + f->npreds, words = (n + 63) / 64 + 1;
    uint64_t *vary = calloc(words, sizeof *vary), *read = calloc(words, sizeof *read);
    if (!vary || !read) {
        free(vary), free(read);
        return -1;
    }
    int calls = 0;
    for (uint32_t i = 0; i < f->ncode; i++) calls |= f->code[i].kind == K_CALL;
    for (uint32_t k = 0; k < f->nspecials; k++) {
        unsigned s = f->specials[k];
        if (s == SR_TID_X || s == SR_TID_Y || s == SR_TID_Z || s == SR_LANEID || (s >= SR_LANEMASK_EQ && s <= SR_LANEMASK_GT) ||
            s == SR_CLOCK || s == SR_CLOCK64 || s == SR_GLOBALTIMER)
            SET(vary, f->special_first + k);
    }
    /* parameters are the same in every lane in a kernel that calls nothing
     * (in a callee they are its caller's values, and after a call the
     * param space holds its return values) */
    int params_uniform = is_entry && !calls;
    int changed;
    do {
        changed = 0;
        for (uint32_t i = 0; i < f->ncode; i++) {
            const pinst *in = &f->code[i];
            if (!in->sb_ndst) continue;
            int v = ptx_sched_lane_source(in, params_uniform) || (in->guard >= 0 && varies(vary, n, f->nslots + (uint32_t)in->guard)) ||
                    (in->addr_slot != UINT32_MAX && varies(vary, n, in->addr_slot));
            for (unsigned k = 0; k < in->sb_nsrc && !v; k++) v = varies(vary, n, in->sb_src[k]);
            /* the scoreboard's sources are registers; special registers
             * (%tid.x) are read through the operand slots */
            const uint32_t ops[4] = {in->a, in->b, in->c, in->e};
            for (unsigned k = 0; k < 4 && !v; k++) v = ops[k] >= f->special_first && varies(vary, n, ops[k]);
            if (!v) continue;
            for (unsigned k = 0; k < in->sb_ndst; k++)
                if (in->sb_dst[k] < n && !HAS(vary, in->sb_dst[k])) SET(vary, in->sb_dst[k]), changed = 1;
        }
    } while (changed);
    for (uint32_t i = 0; i < f->ncode; i++) {
        const pinst *in = &f->code[i];
        for (unsigned k = 0; k < in->sb_nsrc; k++)
            if (in->sb_src[k] < n) SET(read, in->sb_src[k]);
        if (in->addr_slot < n) SET(read, in->addr_slot);
        for (uint32_t k = in->xs; k < in->xs + in->nxs && k < f->nxslots; k++)
            if (f->xslots[k] < n) SET(read, f->xslots[k]);
    }
    for (uint32_t i = 0; i < f->ncode; i++) {
        pinst *in = &f->code[i];
        if (in->kind != K_MEM || in->space != SP_GLOBAL || (in->cs_op != COALSIM_ATOM && in->cs_op != COALSIM_RED) ||
            in->sub > A_CAS)
            continue;
        int dead = (in->flags & PF_RED) || !HAS(read, in->d);
        if (dead && in->sub != A_EXCH && in->sub != A_CAS) {
            in->flags |= PF_RED;
            in->cs_op = COALSIM_RED;
        }
        ptype t = (ptype)in->type;
        unsigned bytes = ptype_bytes(t);
        if (ptype_float(t) || (in->addr_slot != UINT32_MAX && varies(vary, n, in->addr_slot))) continue;
        int same_value = !varies(vary, n, in->b);
        int redux = sm >= 80 && dead && bytes == 4 &&
                    (in->sub == A_ADD || in->sub == A_MIN || in->sub == A_MAX || in->sub == A_AND || in->sub == A_OR ||
                     in->sub == A_XOR);
        if ((in->sub == A_ADD && same_value) || redux) in->agg = 1;
    }
    free(vary), free(read);
    return 0;
}
