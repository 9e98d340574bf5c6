/* Where divergent lanes rejoin: the immediate post-dominator of each
 * branch's basic block (Cooper, Harvey and Kennedy's iterative dominator
 * algorithm run on the reversed control-flow graph).  A branch whose
 * post-dominator is the function's exit reconverges nowhere: its paths end
 * in ret or exit. */
#include <stdlib.h>

#include "ptx.h"

typedef struct {
    uint32_t first, last;       /* instructions */
    uint32_t succ[2];
    unsigned nsucc;
} bblock;

static int intersect(const int *ipdom, const int *order, int a, int b)
{
    while (a != b) {
        while (order[a] < order[b]) a = ipdom[a];
        while (order[b] < order[a]) b = ipdom[b];
    }
    return a;
}

int ptx_cfg_reconv(pfunc *f)
{
    uint32_t n = f->ncode;
    if (!n) return 0;
    unsigned char *leader = calloc(n + 1, 1);
    int *blk_of = malloc((n + 1) * sizeof *blk_of);
    if (!leader || !blk_of) {
        free(leader), free(blk_of);
        return -1;
    }
    leader[0] = 1;
    for (uint32_t i = 0; i < n; i++) {
        const pinst *in = &f->code[i];
        if (in->kind == K_BRA) {
            if (in->target < n) leader[in->target] = 1;
            leader[i + 1] = 1;
        } else if (in->kind == K_RET || in->kind == K_EXIT || in->kind == K_TRAP) {
            leader[i + 1] = 1;
        }
    }
    uint32_t nb = 0;
    for (uint32_t i = 0; i < n; i++) nb += leader[i];
    bblock *b = calloc(nb + 1, sizeof *b);
    int *ipdom = malloc((nb + 1) * sizeof *ipdom), *order = malloc((nb + 1) * sizeof *order);
    int *post = malloc((nb + 1) * sizeof *post), *stack = malloc((nb + 1) * 2 * sizeof *stack);
    unsigned char *visited = calloc(nb + 1, 1);
    /* predecessors in the original graph = successors in the reversed one */
    uint32_t *npred = calloc(nb + 1, sizeof *npred), **pred = calloc(nb + 1, sizeof *pred);
    int rc = -1;
    if (!b || !ipdom || !order || !post || !stack || !visited || !npred || !pred) goto done;
    for (uint32_t i = 0, k = 0; i < n; i++) {
        if (leader[i]) {
            if (i) b[k - 1].last = i - 1;
            b[k++].first = i;
        }
        blk_of[i] = (int)k - 1;
    }
    b[nb - 1].last = n - 1;
    blk_of[n] = (int)nb;               /* falling off the end: the exit */
    uint32_t exit_node = nb;
    for (uint32_t k = 0; k < nb; k++) {
        const pinst *in = &f->code[b[k].last];
        int guarded = in->guard >= 0;
        if (in->kind == K_BRA) {
            b[k].succ[b[k].nsucc++] = in->target < n ? (uint32_t)blk_of[in->target] : exit_node;
            if (guarded) b[k].succ[b[k].nsucc++] = (uint32_t)blk_of[b[k].last + 1];
        } else if (in->kind == K_RET || in->kind == K_EXIT || in->kind == K_TRAP) {
            b[k].succ[b[k].nsucc++] = exit_node;
            if (guarded) b[k].succ[b[k].nsucc++] = (uint32_t)blk_of[b[k].last + 1];
        } else {
            b[k].succ[b[k].nsucc++] = (uint32_t)blk_of[b[k].last + 1];
        }
    }
    for (uint32_t k = 0; k < nb; k++)
        for (unsigned s = 0; s < b[k].nsucc; s++) npred[b[k].succ[s]]++;
    for (uint32_t k = 0; k <= nb; k++) {
        pred[k] = malloc((npred[k] + 1) * sizeof **pred);
        if (!pred[k]) goto done;
        npred[k] = 0;
    }
    for (uint32_t k = 0; k < nb; k++)
        for (unsigned s = 0; s < b[k].nsucc; s++) pred[b[k].succ[s]][npred[b[k].succ[s]]++] = k;
    /* postorder of the reversed graph from the exit (iterative DFS) */
    int npost = 0, sp = 0;
    stack[sp++] = (int)exit_node;
    stack[sp++] = 0;
    visited[exit_node] = 1;
    while (sp) {
        int node = stack[sp - 2], *next = &stack[sp - 1];
        if ((uint32_t)*next < npred[node]) {
            int c = (int)pred[node][(*next)++];
            if (!visited[c]) {
                visited[c] = 1;
                stack[sp++] = c;
                stack[sp++] = 0;
            }
        } else {
            order[node] = npost;
            post[npost++] = node;
            sp -= 2;
        }
    }
    for (uint32_t k = 0; k <= nb; k++) ipdom[k] = -1;
    ipdom[exit_node] = (int)exit_node;
    for (int changed = 1; changed;) {
        changed = 0;
        for (int i = npost - 2; i >= 0; i--) {      /* reverse postorder, the root excluded */
            int node = post[i], nid = -1;
            for (unsigned s = 0; s < b[node].nsucc; s++) {
                int c = (int)b[node].succ[s];
                if (ipdom[c] < 0 || !visited[c]) continue;
                nid = nid < 0 ? c : intersect(ipdom, order, c, nid);
            }
            if (nid >= 0 && ipdom[node] != nid) ipdom[node] = nid, changed = 1;
        }
    }
    for (uint32_t k = 0; k < nb; k++) {
        pinst *in = &f->code[b[k].last];
        if (in->kind != K_BRA) continue;
        int d = visited[k] ? ipdom[k] : -1;
        in->reconv = d < 0 || (uint32_t)d == exit_node ? n : b[d].first;
    }
    rc = 0;
done:
    if (pred)
        for (uint32_t k = 0; k <= nb; k++) free(pred[k]);
    free(pred), free(npred), free(visited), free(stack), free(post), free(order), free(ipdom), free(b);
    free(leader), free(blk_of);
    return rc;
}
