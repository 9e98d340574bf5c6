// The harness's cases: each seed kernel with its seed-sized launch (captured
// whole, profiled by ncu) and a GPU-filling launch (timed, checked on the CPU).
#pragma once

static std::vector<std::string> reduce_labels(const char *p)
{
    std::vector<std::string> l;
    const unsigned steps[] = {64, 32, 16, 8, 4, 2, 1};
    for (unsigned s : steps)
        for (const char *part : {".a", ".b", ".sum"}) l.push_back(std::string(p) + "+=[tid+" + std::to_string(s) + "]" + part);
    l.push_back("?");
    l.push_back(std::string(p) + "[0]");                       // 22
    l.push_back("g_odata[bid]");                               // 23
    l.push_back("idata[tid]");                                 // 24
    l.push_back("smem[tid]=");                                 // 25
    for (int k = 0; k < 4; k++) l.push_back("g_idata[idx+" + std::to_string(k) + "*bdim]");   // 26..29
    return l;
}

static std::vector<Case> make_cases(const Dev &dev)
{
    std::vector<Case> cs;
    Rng rng;

    // ---- add family: seed launch <<<128, 32>>>; timed N = 2^25, blocks of 256
    {
        const size_t N = 1u << 25;
        auto *x = new Buf<float>, *y = new Buf<float>, *z = new Buf<float>;
        x->alloc(N + 1), y->alloc(N + 1), z->alloc(N + 1);
        auto hx = new std::vector<float>(rand_floats(rng, N + 1)), hy = new std::vector<float>(rand_floats(rng, N + 1));
        x->put(*hx), y->put(*hy);
        typedef void (*K)(const float *, const float *, float *);
        struct V { const char *name; K cap, plain; int kind; };
        const V vs[] = {{"add", add<true>, add<false>, 0}, {"add_permuted", add_permuted<true>, add_permuted<false>, 1},
                        {"add_offset", add_offset<true>, add_offset<false>, 2},
                        {"add_stride", add_stride<true>, add_stride<false>, 3},
                        {"add_broadcast", add_broadcast<true>, add_broadcast<false>, 4}};
        for (const V &v : vs) {
            Case c;
            c.name = v.name;
            c.family = "add";
            c.labels = {"x", "y", "z"};
            c.small_desc = "<<<128, 32>>>";
            c.big_desc = "<<<2^17, 256>>>";
            K kc = v.cap, kp = v.plain;
            c.small = [=](bool cap) { (cap ? kc : kp)<<<128, 32>>>(x->d, y->d, z->d); };
            c.big = [=](bool cap) { (cap ? kc : kp)<<<N / 256, 256>>>(x->d, y->d, z->d); };
            c.big_blocks = N / 256;
            int kind = v.kind;
            c.check = [=]() -> std::string {
                std::vector<float> hz = z->get(N + 1), want(N + 1, 0.0f), got(N + 1, 0.0f);
                for (size_t n = 0; n < N; n++) {
                    size_t i = kind == 2 ? n + 1 : n;
                    want[i] = (kind == 4 ? (*hx)[0] : (*hx)[i]) + (*hy)[i];
                    got[i] = hz[i];
                }
                return close_enough(got, want, 0);
            };
            cs.push_back(c);
        }
    }

    // ---- strided read: seed 001; capture <<<2, 64>>> with N = 2*T*stride, timed N = 2^26
    {
        const size_t N = 1u << 26;
        auto *in = new Buf<float>, *out = new Buf<float>;
        in->alloc(N), out->alloc(N);
        auto hin = new std::vector<float>(rand_floats(rng, N));
        in->put(*hin);
        const unsigned grid = dev.sms * 16, block = 256;
        for (int stride : {1, 2, 4, 8, 16, 32, 64, 128}) {
            Case c;
            c.name = "strided_read_s" + std::to_string(stride);
            c.family = "strided_read";
            c.labels = {"in", "out"};
            c.small_desc = "<<<2, 64>>>, N = 256 * stride";
            c.big_desc = "N = 2^26, <<<16 * SMs, 256>>>";
            c.small = [=](bool cap) {
                size_t n = 2 * 128 * (size_t)stride;
                if (cap) strided_read_kernel<true><<<2, 64>>>(in->d, out->d, n, stride);
                else strided_read_kernel<false><<<2, 64>>>(in->d, out->d, n, stride);
            };
            c.big = [=](bool cap) {
                if (cap) strided_read_kernel<true><<<grid, block>>>(in->d, out->d, N, stride);
                else strided_read_kernel<false><<<grid, block>>>(in->d, out->d, N, stride);
            };
            c.big_blocks = grid;
            c.check = [=]() -> std::string {
                size_t T = (size_t)grid * block;
                std::vector<float> ho = out->get(T), want, got;
                for (size_t t = 0; t < T; t += 97) {
                    float acc = 0.f;
                    for (size_t j = t * stride; j < N; j += T * stride) acc = acc * 1.000000119f + (*hin)[j];
                    want.push_back(acc);
                    got.push_back(ho[t]);
                }
                return close_enough(got, want, 1e-4f);
            };
            cs.push_back(c);
        }
    }

    // ---- seed 003 with real warps: row sum vs column sum of an M x M matrix
    {
        const int M = 8192;
        auto *a = new Buf<float>, *out = new Buf<float>;
        a->alloc((size_t)M * M), out->alloc(M);
        auto ha = new std::vector<float>(rand_floats(rng, (size_t)M * M));
        a->put(*ha);
        for (int col = 0; col < 2; col++) {
            Case c;
            c.name = col ? "col_sum" : "row_sum";
            c.family = "rowcol";
            c.labels = {"a", "out"};
            c.small_desc = "M = 64, <<<2, 32>>>";
            c.big_desc = "M = 8192, <<<32, 256>>>";
            c.small = [=](bool cap) {
                if (col) (cap ? col_sum<true> : col_sum<false>)<<<2, 32>>>(a->d, out->d, 64);
                else (cap ? row_sum<true> : row_sum<false>)<<<2, 32>>>(a->d, out->d, 64);
            };
            c.big = [=](bool cap) {
                if (col) (cap ? col_sum<true> : col_sum<false>)<<<M / 256, 256>>>(a->d, out->d, M);
                else (cap ? row_sum<true> : row_sum<false>)<<<M / 256, 256>>>(a->d, out->d, M);
            };
            c.big_blocks = M / 256;
            c.sample_blocks = 2;
            c.check = [=]() -> std::string {
                std::vector<float> ho = out->get(M), want(M, 0.f);
                for (int t = 0; t < M; t++)
                    for (int i = 0; i < M; i++) want[t] += col ? (*ha)[(size_t)i * M + t] : (*ha)[(size_t)t * M + i];
                return close_enough(ho, want, 1e-3f);
            };
            cs.push_back(c);
        }
    }

    // ---- seed 002: copy and transposes; capture N = 64, timed N = 8192
    {
        const int N = 8192;
        auto *A = new Buf<float>, *B = new Buf<float>;
        A->alloc((size_t)N * N), B->alloc((size_t)N * N);
        auto hA = new std::vector<float>(rand_floats(rng, (size_t)N * N));
        A->put(*hA);
        typedef void (*K)(const float *, float *, int);
        struct V { const char *name; K cap, plain; bool transposed; };
        const V vs[] = {{"copy", copy<true>, copy<false>, false}, {"transpose1", transpose1<true>, transpose1<false>, true},
                        {"transpose2", transpose2<true>, transpose2<false>, true},
                        {"transpose3", transpose3<true>, transpose3<false>, true}};
        for (const V &v : vs) {
            Case c;
            c.name = v.name;
            c.family = "matrix";
            c.labels = {"A", "B"};
            c.small_desc = "N = 64, grid (2, 2), block (32, 32)";
            c.big_desc = "N = 8192";
            K kc = v.cap, kp = v.plain;
            bool tr = v.transposed;
            c.small = [=](bool cap) { (cap ? kc : kp)<<<dim3(2, 2), dim3(32, 32)>>>(A->d, B->d, 64); };
            c.big = [=](bool cap) { (cap ? kc : kp)<<<dim3(N / 32, N / 32), dim3(32, 32)>>>(A->d, B->d, N); };
            c.big_blocks = (N / 32) * (N / 32);
            c.check = [=]() -> std::string {
                std::vector<float> hB = B->get((size_t)N * N);
                for (size_t r = 0; r < (size_t)N; r++)
                    for (size_t q = 0; q < (size_t)N; q++)
                        if (hB[r * N + q] != (*hA)[tr ? q * N + r : r * N + q]) return "B[" + std::to_string(r) + "][" + std::to_string(q) + "] wrong";
                return "";
            };
            cs.push_back(c);
        }
    }

    // ---- seed 004: shared tiles; seed launch is one block, timed 64 blocks per SM
    {
        const unsigned blocks = dev.sms * 64;
        auto *out = new Buf<int>;
        out->alloc((size_t)blocks * 1024);
        typedef void (*K)(int *);
        struct V { const char *name; K cap, plain; bool rect; int dyn; int expect; };
        // expect: 0 out[i] = i; 1 square transposed; 2 rect column order
        const V vs[] = {
            {"setRowReadRow", setRowReadRow<true>, setRowReadRow<false>, false, 0, 0},
            {"setColReadCol", setColReadCol<true>, setColReadCol<false>, false, 0, 0},
            {"setRowReadCol", setRowReadCol<true>, setRowReadCol<false>, false, 0, 1},
            {"setRowReadColDyn", setRowReadColDyn<true>, setRowReadColDyn<false>, false, 32 * 32, 1},
            {"setRowReadColIpad", setRowReadColIpad<true>, setRowReadColIpad<false>, false, 0, 1},
            {"setRowReadColDynIpad", setRowReadColDynIpad<true>, setRowReadColDynIpad<false>, false, 32 * 33, 1},
            {"rectSetRowReadRow", rectSetRowReadRow<true>, rectSetRowReadRow<false>, true, 0, 0},
            {"rectSetColReadCol", rectSetColReadCol<true>, rectSetColReadCol<false>, true, 0, 0},
            {"rectSetRowReadCol", rectSetRowReadCol<true>, rectSetRowReadCol<false>, true, 0, 2},
            {"rectSetRowReadColDyn", rectSetRowReadColDyn<true>, rectSetRowReadColDyn<false>, true, 32 * 16, 2},
            {"rectSetRowReadColPad", rectSetRowReadColPad<true>, rectSetRowReadColPad<false>, true, 0, 2},
            {"rectSetRowReadColDynPad", rectSetRowReadColDynPad<true>, rectSetRowReadColDynPad<false>, true, 34 * 16, 2},
        };
        for (const V &v : vs) {
            Case c;
            c.name = v.name;
            c.family = "smem";
            c.labels = {"tile_st", "tile_ld", "out"};
            dim3 blk = v.rect ? dim3(32, 16) : dim3(32, 32);
            c.small_desc = v.rect ? "grid 1, block (32, 16)" : "grid 1, block (32, 32)";
            c.big_desc = "64 blocks per SM";
            K kc = v.cap, kp = v.plain;
            size_t dyn = v.dyn * sizeof(int);
            c.small = [=](bool cap) { (cap ? kc : kp)<<<1, blk, dyn>>>(out->d); };
            c.big = [=](bool cap) { (cap ? kc : kp)<<<blocks, blk, dyn>>>(out->d); };
            c.big_blocks = blocks;
            c.bandwidth = false;
            int expect = v.expect;
            unsigned per = blk.x * blk.y;
            c.check = [=]() -> std::string {
                std::vector<int> h = out->get((size_t)blocks * per);
                for (unsigned b = 0; b < blocks; b++)
                    for (unsigned i = 0; i < per; i++) {
                        unsigned tx = i % blk.x, ty = i / blk.x;
                        int want = expect == 0 ? (int)i : expect == 1 ? (int)(tx * 32 + ty) : (int)((i % 16) * 32 + i / 16);
                        if (h[(size_t)b * per + i] != want) return "out[" + std::to_string(b * per + i) + "] wrong";
                    }
                return "";
            };
            cs.push_back(c);
        }
    }

    // ---- seed 004: reductions; seed-sized n = 1024, timed n = 2^24
    {
        const unsigned n = 1u << 24;
        auto *g = new Buf<int>, *pristine = new Buf<int>, *o = new Buf<int>;
        g->alloc(n), pristine->alloc(n), o->alloc(n / 128);
        auto h = new std::vector<int>(n);
        long long total = 0;
        for (auto &v : *h) total += (v = (int)(rng.next() % 201) - 100);
        pristine->put(*h);
        g->put(*h);
        typedef void (*K)(int *, int *, unsigned);
        struct V { const char *name; K cap, plain; const char *pfx; unsigned per_block; };
        const V vs[] = {{"reduceGmem", reduceGmem<true>, reduceGmem<false>, "idata", 128},
                        {"reduceSmem", reduceSmem<true>, reduceSmem<false>, "smem", 128},
                        {"reduceSmemUnroll", reduceSmemUnroll<true>, reduceSmemUnroll<false>, "smem", 512}};
        for (const V &v : vs) {
            Case c;
            c.name = v.name;
            c.family = "reduce";
            c.labels = reduce_labels(v.pfx);
            unsigned pb = v.per_block;
            c.small_desc = "n = 1024, blockDim 128";
            c.big_desc = "n = 2^24, blockDim 128";
            K kc = v.cap, kp = v.plain;
            // reduceGmem sums in place: every launch of any of the three
            // starts from the pristine input (restored untimed)
            c.small = [=](bool cap) {
                CK(cudaMemcpy(g->d, pristine->d, 1024 * sizeof(int), cudaMemcpyDeviceToDevice));
                (cap ? kc : kp)<<<1024 / pb, 128>>>(g->d, o->d, 1024);
            };
            c.big = [=](bool cap) { (cap ? kc : kp)<<<n / pb, 128>>>(g->d, o->d, n); };
            c.prepare = [=]() { CK(cudaMemcpy(g->d, pristine->d, (size_t)n * sizeof(int), cudaMemcpyDeviceToDevice)); };
            c.big_blocks = n / pb;
            c.check = [=]() -> std::string {
                std::vector<int> ho = o->get(n / pb);
                long long s = 0;
                for (int v2 : ho) s += v2;
                return s == total ? "" : "sum " + std::to_string(s) + ", expected " + std::to_string(total);
            };
            cs.push_back(c);
        }
    }

    // ---- seed 004: transposeSmem, unpadded and padded by 2
    {
        const int N = 8192;
        auto *in = new Buf<float>, *out = new Buf<float>;
        in->alloc((size_t)N * N), out->alloc((size_t)N * N);
        auto hin = new std::vector<float>(rand_floats(rng, (size_t)N * N));
        in->put(*hin);
        for (int pad : {0, 2}) {
            Case c;
            c.name = pad ? "transposeSmemPad2" : "transposeSmem";
            c.family = "transposeSmem";
            c.labels = {"in", "tile_st", "tile_ld", "out"};
            c.small_desc = "32 x 32, grid (2, 2), block (16, 16)";
            c.big_desc = "8192 x 8192";
            c.small = [=](bool cap) {
                if (pad) (cap ? transposeSmem<true, 2> : transposeSmem<false, 2>)<<<dim3(2, 2), dim3(16, 16)>>>(out->d, in->d, 32, 32);
                else (cap ? transposeSmem<true, 0> : transposeSmem<false, 0>)<<<dim3(2, 2), dim3(16, 16)>>>(out->d, in->d, 32, 32);
            };
            c.big = [=](bool cap) {
                dim3 g(N / 16, N / 16), b(16, 16);
                if (pad) (cap ? transposeSmem<true, 2> : transposeSmem<false, 2>)<<<g, b>>>(out->d, in->d, N, N);
                else (cap ? transposeSmem<true, 0> : transposeSmem<false, 0>)<<<g, b>>>(out->d, in->d, N, N);
            };
            c.big_blocks = (N / 16) * (N / 16);
            c.check = [=]() -> std::string {
                std::vector<float> h = out->get((size_t)N * N);
                for (size_t r = 0; r < (size_t)N; r++)
                    for (size_t q = 0; q < (size_t)N; q++)
                        if (h[r * N + q] != (*hin)[q * N + r]) return "out[" + std::to_string(r) + "][" + std::to_string(q) + "] wrong";
                return "";
            };
            cs.push_back(c);
        }
    }

    // ---- beside them: float4 grid-stride copy (the harness's peak)
    {
        const size_t n4 = 1u << 25;
        auto *in = new Buf<float4>, *out = new Buf<float4>;
        in->alloc(n4), out->alloc(n4);
        auto hin = new std::vector<float>(rand_floats(rng, n4 * 4));
        CK(cudaMemcpy(in->d, hin->data(), n4 * sizeof(float4), cudaMemcpyHostToDevice));
        const unsigned grid = dev.sms * 16;
        Case c;
        c.name = "copy_float4";
        c.family = "copy";
        c.labels = {"in", "out"};
        c.small_desc = "n4 = 1024, <<<4, 256>>>";
        c.big_desc = "512 MiB, <<<16 * SMs, 256>>>";
        c.small = [=](bool cap) { (cap ? copy_float4<true> : copy_float4<false>)<<<4, 256>>>(in->d, out->d, 1024); };
        c.big = [=](bool cap) { (cap ? copy_float4<true> : copy_float4<false>)<<<grid, 256>>>(in->d, out->d, n4); };
        c.big_blocks = grid;
        c.check = [=]() -> std::string {
            std::vector<float4> h = out->get(n4);
            return memcmp(h.data(), hin->data(), n4 * sizeof(float4)) ? "copy differs" : "";
        };
        cs.push_back(c);
    }
    return cs;
}
