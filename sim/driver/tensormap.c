/* Tensor maps made by the host for TMA copies: cuTensorMapEncodeTiled and
 * cuTensorMapReplaceAddress write coalsim's encoding of the map (tmap.h)
 * into the program's 128-byte CUtensorMap, which the kernel then gets as a
 * parameter and the interpreter reads.  A map the driver API would refuse
 * is refused here too (CUDA_ERROR_INVALID_VALUE), for the same reasons. */
#include <stdint.h>
#include <string.h>

#include "driver/api.h"
#include "frontend/tmap.h"

CUresult cuTensorMapEncodeTiled(void *map, int type, unsigned rank, void *base, const uint64_t *dims,
                                const uint64_t *strides, const unsigned *box, const unsigned *estrides, int interleave,
                                int swizzle, int l2promo, int oobfill)
{
    (void)l2promo;       /* an L2 fetch size hint: the cache model fetches sectors as it does for every load */
    if (!map || !dims || !box || !estrides || (rank > 1 && !strides) || rank < 1 || rank > TMAP_MAX_RANK)
        return CUDA_ERROR_INVALID_VALUE;
    tmap t;
    memset(&t, 0, sizeof t);
    t.type = (tmap_type)type;
    t.rank = rank;
    t.base = (uint64_t)(uintptr_t)base;
    t.strides[0] = tmap_type_bytes(t.type);
    for (unsigned d = 0; d < rank; d++) {
        t.dims[d] = dims[d];
        if (d) t.strides[d] = strides[d - 1];
        t.box[d] = box[d];
        t.estride[d] = estrides[d];
    }
    t.interleave = (unsigned)interleave;
    t.swizzle = (tmap_swizzle)swizzle;
    t.oob_nan = oobfill != 0;
    if (type < 0 || swizzle < 0) return CUDA_ERROR_INVALID_VALUE;
    return tmap_encode(&t, map) ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
}

CUresult cuTensorMapReplaceAddress(void *map, void *base)
{
    tmap t;
    if (!map || tmap_decode(map, &t) != 0) return CUDA_ERROR_INVALID_VALUE;
    t.base = (uint64_t)(uintptr_t)base;
    return tmap_encode(&t, map) ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
}
