/* Where divergent lanes rejoin in SASS: the immediate post-dominator of each
 * branch's block, as ptx_cfg.c does for PTX.  Calls are treated as falling
 * through (the callee's body is reached only by CALL). */
#include <stdlib.h>

#include "sass.h"

static int intersect(const int *ipdom, const int *order, int a, int b)
{
    while (a != b) {
        while (order[a] < order[b]) a = ipdom[a];
        while (order[b] < order[a]) b = ipdom[b];
    }
    return a;
}

int sass_cfg_reconv(sprog *p)
{
    uint32_t n = p->ncode;
    if (!n) return 0;
    unsigned char *leader = calloc(n + 1, 1);
    int *blk = malloc((n + 1) * sizeof *blk);
    if (!leader || !blk) {
        free(leader), free(blk);
        return -1;
    }
    leader[0] = 1;
    for (uint32_t i = 0; i < n; i++) {
        const sinst *in = &p->code[i];
        if (in->kind == SK_BRA || in->kind == SK_BRADIV) {
            leader[in->target] = 1;
            leader[i + 1] = 1;
        } else if (in->kind == SK_EXIT || in->kind == SK_RET || in->kind == SK_CALL) {
            leader[i + 1] = 1;
            if (in->kind == SK_CALL) leader[in->target] = 1;
        }
    }
    uint32_t nb = 0;
    for (uint32_t i = 0; i < n; i++) nb += leader[i];
    uint32_t *first = malloc((nb + 1) * sizeof *first), *last = malloc((nb + 1) * sizeof *last);
    uint32_t (*succ)[2] = malloc((nb + 1) * sizeof *succ);
    unsigned *nsucc = calloc(nb + 1, sizeof *nsucc), *npred = calloc(nb + 1, sizeof *npred);
    uint32_t **pred = calloc(nb + 1, sizeof *pred);
    int *ipdom = malloc((nb + 1) * sizeof *ipdom), *order = malloc((nb + 1) * sizeof *order);
    int *post = malloc((nb + 1) * sizeof *post), *stack = malloc((nb + 1) * 2 * sizeof *stack);
    unsigned char *seen = calloc(nb + 1, 1);
    int rc = -1;
    if (!first || !last || !succ || !nsucc || !npred || !pred || !ipdom || !order || !post || !stack || !seen) goto done;
    for (uint32_t i = 0, k = 0; i < n; i++) {
        if (leader[i]) {
            if (k) last[k - 1] = i - 1;
            first[k++] = i;
        }
        blk[i] = (int)k - 1;
    }
    last[nb - 1] = n - 1;
    blk[n] = (int)nb;
    uint32_t exit = nb;
    for (uint32_t k = 0; k < nb; k++) {
        const sinst *in = &p->code[last[k]];
        int guarded = in->guard >= 0 && !(in->guard == SASS_PT && !in->guard_neg);
        uint32_t fall = (uint32_t)blk[last[k] + 1];
        if (in->kind == SK_BRA || in->kind == SK_BRADIV) {
            succ[k][nsucc[k]++] = (uint32_t)blk[in->target];
            if (guarded || in->kind == SK_BRADIV) succ[k][nsucc[k]++] = fall;
        } else if (in->kind == SK_EXIT || in->kind == SK_RET) {
            succ[k][nsucc[k]++] = exit;
            if (guarded) succ[k][nsucc[k]++] = fall;
        } else {
            succ[k][nsucc[k]++] = fall;
        }
    }
    for (uint32_t k = 0; k < nb; k++)
        for (unsigned s = 0; s < nsucc[k]; s++) npred[succ[k][s]]++;
    for (uint32_t k = 0; k <= nb; k++) {
        if (!(pred[k] = malloc((npred[k] + 1) * sizeof **pred))) goto done;
        npred[k] = 0;
    }
    for (uint32_t k = 0; k < nb; k++)
        for (unsigned s = 0; s < nsucc[k]; s++) pred[succ[k][s]][npred[succ[k][s]]++] = k;
    int np = 0, sp = 0;
    stack[sp++] = (int)exit;
    stack[sp++] = 0;
    seen[exit] = 1;
    while (sp) {
        int node = stack[sp - 2], *nx = &stack[sp - 1];
        if ((uint32_t)*nx < npred[node]) {
            int c = (int)pred[node][(*nx)++];
            if (!seen[c]) {
                seen[c] = 1;
                stack[sp++] = c;
                stack[sp++] = 0;
            }
        } else {
            order[node] = np;
            post[np++] = node;
            sp -= 2;
        }
    }
    for (uint32_t k = 0; k <= nb; k++) ipdom[k] = -1;
    ipdom[exit] = (int)exit;
    for (int changed = 1; changed;) {
        changed = 0;
        for (int i = np - 2; i >= 0; i--) {
            int node = post[i], nid = -1;
            for (unsigned s = 0; s < nsucc[node]; s++) {
                int c = (int)succ[node][s];
                if (ipdom[c] < 0 || !seen[c]) continue;
                nid = nid < 0 ? c : intersect(ipdom, order, c, nid);
            }
            if (nid >= 0 && ipdom[node] != nid) ipdom[node] = nid, changed = 1;
        }
    }
    for (uint32_t k = 0; k < nb; k++) {
        sinst *in = &p->code[last[k]];
        if (in->kind != SK_BRA && in->kind != SK_BRADIV) continue;
        int d = seen[k] ? ipdom[k] : -1;
        in->reconv = d < 0 || (uint32_t)d == exit ? n : first[d];
    }
    rc = 0;
done:
    if (pred)
        for (uint32_t k = 0; k <= nb; k++) free(pred[k]);
    free(pred), free(npred), free(nsucc), free(succ), free(first), free(last), free(ipdom), free(order), free(post),
        free(stack), free(seen), free(leader), free(blk);
    return rc;
}
