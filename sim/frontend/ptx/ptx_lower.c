/* Shared-memory float additions as ptxas makes them: a compare-and-store
 * loop.
 *
 * On sm_90 (and the other targets gpu/probes/shared_cas.cu's SASS lists) ptxas
 * has no single instruction for atom.shared.add.f32/.f64: each becomes
 *
 *     loop: LDS    old, [a]
 *           FADD   new, old, b              (DADD for .f64)
 *           ATOMS.CAST.SPIN  p, [a], old, new   store new where [a] still holds old
 *           ISETP  (ISETP.EX too for .f64)
 *      @!p  BRA    loop                     the lanes whose store failed go again
 *
 * (gpu/probes/runs/h200-atomic-mix/atomic_mix_shared.sass.txt).  Lanes of a
 * warp on one word succeed one a pass, so a warp whose 32 lanes add to one
 * word runs the loop 32 times: 32 shared loads, 32 shared atomics and 160
 * instructions where the PTX has one.  This module rewrites the function's
 * raw instructions the same way, so that the interpreter runs, counts and
 * times the loop as the GPU does:
 *
 *     {   .reg .f32 %__cas_o, %__cas_n;  .reg .u32 %__cas_f;  .reg .pred %__cas_p;
 *         [@!g bra $__cas_eN;]                     (the atomic's own guard)
 *         mov.u32        %__cas_f, 2;              (BSSY; 2: the first pass)
 *     $__cas_lN:
 *         ld.shared.f32  %__cas_o, [a];
 *         add.f32        %__cas_n, %__cas_o, b;
 *         atom.shared.add.spin.f32  %__cas_f, [a], b, %__cas_n, d;
 *         setp.ne.u32    %__cas_p, %__cas_f, 0;    (twice for .f64)
 *         @%__cas_p bra  $__cas_lN;
 *         mov.u32        %__cas_f, 0;              (BSYNC)
 *     [$__cas_eN:]
 *     }
 *
 * atom...spin (ptx_ops_mem.c, spin_pass) is the ATOMS.CAST.SPIN pass: the
 * lowest lane on each word and bank adds b to what the word holds now and
 * gets the old value in d (`_` for red); %__cas_f is 1 in the lanes that
 * must go again, and in every lane on a pass another warp makes fail.  Every
 * instruction keeps the atomic's PTX and source line. */
#include "ptx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The space modifier ("shared" or "shared::cta") of an atomic this module
 * rewrites, or NULL. */
static const char *lowered_space(const raw_inst *ri)
{
    if (ri->pseudo || ri->label || (strcmp(ri->opcode, "atom") && strcmp(ri->opcode, "red"))) return NULL;
    if (!ptx_has_mod(ri, "add") || (!ptx_has_mod(ri, "f32") && !ptx_has_mod(ri, "f64")) || ptx_has_mod(ri, "spin"))
        return NULL;
    if (ptx_has_mod(ri, "v2") || ptx_has_mod(ri, "v4") || ptx_has_mod(ri, "v8")) return NULL;
    for (unsigned k = 0; k < ri->nmods; k++)
        if (!strcmp(ri->mods[k], "shared") || !strcmp(ri->mods[k], "shared::cta")) return ri->mods[k];
    return NULL;
}

/* Whether ptxas makes TARGET's shared float adds a loop: sm_70 and later
 * (gpu/probes/runs/h100-shared-cas/shared_cas_targets.txt: the loop for
 * sm_75 to sm_90, the targets nvcc 13 still builds). */
static int target_loops(const char *target)
{
    return !strncmp(target, "sm_", 3) && atoi(target + 3) >= 70;
}

static raw_inst *put(raw_inst *out, unsigned *n, const raw_inst *at)
{
    raw_inst *r = &out[(*n)++];
    memset(r, 0, sizeof *r);
    r->line = at->line;
    r->file = at->file;
    r->src_line = at->src_line;
    r->inl_file = at->inl_file;
    r->inl_line = at->inl_line;
    return r;
}

static raw_inst *op(raw_inst *out, unsigned *n, const raw_inst *at, const char *opcode, const char *m0, const char *m1,
                    const char *m2)
{
    raw_inst *r = put(out, n, at);
    snprintf(r->opcode, sizeof r->opcode, "%s", opcode);
    const char *mods[3] = {m0, m1, m2};
    for (unsigned k = 0; k < 3; k++)
        if (mods[k]) snprintf(r->mods[r->nmods++], sizeof r->mods[0], "%s", mods[k]);
    return r;
}

static raw_operand reg(const char *name) { return (raw_operand){.kind = RO_REG, .name = name}; }

int ptx_lower_shared_fadd(ptx_module *m, ptx_func *f, char *err, size_t cap)
{
    if (!target_loops(m->target)) return 0;
    unsigned hits = 0;
    for (unsigned i = 0; i < f->ninsts; i++) hits += lowered_space(&f->insts[i]) != NULL;
    if (!hits) return 0;
    /* each atomic becomes at most 14 statements; four register names each */
    size_t want = f->ninsts + (size_t)hits * 14;
    raw_inst *out = malloc(want * sizeof *out);
    ptx_reg_decl *regs = realloc(f->regs, (f->nregs + 4 * (size_t)hits) * sizeof *regs);
    if (!out || !regs) {
        free(out);
        if (regs) f->regs = regs;
        snprintf(err, cap, "%s: out of memory", m->name);
        return -1;
    }
    f->regs = regs;
    unsigned n = 0;
    for (unsigned i = 0; i < f->ninsts; i++) {
        const raw_inst *ri = &f->insts[i];
        const char *space = lowered_space(ri);
        if (!space) {
            out[n++] = *ri;
            continue;
        }
        int red = !strcmp(ri->opcode, "red"), f64 = ptx_has_mod(ri, "f64");
        const char *ty = f64 ? "f64" : "f32";
        if (ri->nops != (red ? 2u : 3u)) {
            snprintf(err, cap, "%s:%u: %s needs %u operands", m->name, ri->line, ri->opcode, red ? 2u : 3u);
            free(out);
            return -1;
        }
        const raw_operand *addr = &ri->ops[red ? 0 : 1], *b = &ri->ops[red ? 1 : 2];
        raw_operand d = red ? (raw_operand){.kind = RO_SINK} : ri->ops[0];
        char lbuf[40], ebuf[40];
        snprintf(lbuf, sizeof lbuf, "$__cas_l%u", i);
        snprintf(ebuf, sizeof ebuf, "$__cas_e%u", i);
        const char *loop = ptx_module_str(m, lbuf), *end = ri->guard ? ptx_module_str(m, ebuf) : NULL;
        if (!loop || (ri->guard && !end)) {
            snprintf(err, cap, "%s: out of memory", m->name);
            free(out);
            return -1;
        }
        unsigned first = f->nregs;
        f->regs[f->nregs++] = (ptx_reg_decl){.prefix = "%__cas_o", .type = f64 ? PT_F64 : PT_F32};
        f->regs[f->nregs++] = (ptx_reg_decl){.prefix = "%__cas_n", .type = f64 ? PT_F64 : PT_F32};
        f->regs[f->nregs++] = (ptx_reg_decl){.prefix = "%__cas_f", .type = PT_U32};
        f->regs[f->nregs++] = (ptx_reg_decl){.prefix = "%__cas_p", .type = PT_PRED};
        put(out, &n, ri)->pseudo = RP_OPEN;
        raw_inst *r = put(out, &n, ri);
        r->pseudo = RP_REGS, r->first = first, r->count = 4;
        if (ri->guard) {
            r = op(out, &n, ri, "bra", NULL, NULL, NULL);
            r->guard = ri->guard, r->guard_neg = !ri->guard_neg;
            r->ops[r->nops++] = reg(end);
        }
        /* BSSY, and the flag that tells the first pass */
        r = op(out, &n, ri, "mov", "u32", NULL, NULL);
        r->ops[r->nops++] = reg("%__cas_f");
        r->ops[r->nops++] = (raw_operand){.kind = RO_IMM, .imm = PTX_CAS_FIRST};
        put(out, &n, ri)->label = loop;
        r = op(out, &n, ri, "ld", space, ty, NULL);
        r->ops[r->nops++] = reg("%__cas_o");
        r->ops[r->nops++] = *addr;
        r = op(out, &n, ri, "add", ty, NULL, NULL);
        r->ops[r->nops++] = reg("%__cas_n");
        r->ops[r->nops++] = reg("%__cas_o");
        r->ops[r->nops++] = *b;
        r = op(out, &n, ri, "atom", space, "add", "spin");
        snprintf(r->mods[r->nmods++], sizeof r->mods[0], "%s", ty);
        r->ops[r->nops++] = reg("%__cas_f");
        r->ops[r->nops++] = *addr;
        r->ops[r->nops++] = *b;
        r->ops[r->nops++] = reg("%__cas_n");
        r->ops[r->nops++] = d;
        for (int k = 0; k < 1 + f64; k++) {
            r = op(out, &n, ri, "setp", "ne", "u32", NULL);
            r->ops[r->nops++] = reg("%__cas_p");
            r->ops[r->nops++] = reg("%__cas_f");
            r->ops[r->nops++] = (raw_operand){.kind = RO_IMM, .imm = 0};
        }
        r = op(out, &n, ri, "bra", NULL, NULL, NULL);
        r->guard = "%__cas_p";
        r->ops[r->nops++] = reg(loop);
        r = op(out, &n, ri, "mov", "u32", NULL, NULL);      /* BSYNC */
        r->ops[r->nops++] = reg("%__cas_f");
        r->ops[r->nops++] = (raw_operand){.kind = RO_IMM, .imm = 0};
        if (end) put(out, &n, ri)->label = end;
        put(out, &n, ri)->pseudo = RP_CLOSE;
    }
    free(f->insts);
    f->insts = out;
    f->ninsts = n;
    f->capinsts = (unsigned)want;
    return 0;
}
