// The tensor-core kernels of tests/kernels/tensor.cu on a real GPU: each one
// run at a small size and checked against a double-precision CPU reference,
// then the GEMMs timed at 2048^3.
//
// Build: nvcc -O3 -arch=sm_90 -std=c++17 -o /tmp/tensor_check gpu/tensor_check.cu
// Usage: tensor_check           checks, then timings
//        tensor_check --once    checks only: every kernel launched exactly once
//                               (what gpu/run_tensor.sh profiles with ncu)
// Output: one line per kernel   CHECK name ok|FAIL maxerr
//         one line per timing   TIME name M N K median_us
//         (and, for the timed sizes, SPOT name ok|FAIL maxerr over 64 sampled
//         outputs).  Exit status 1 on any FAIL or CUDA error.
//
// Inputs (deterministic; every value exact in f16, bf16, tf32, f32, f64):
//   a 32-bit LCG, x = x * 1664525 + 1013904223, one stream per array started
//   from the seed listed at its fill; per element, k = (x >> 16) & 63 and the
//   value is k/64 - 0.5 (in [-0.5, 0.5), steps of 1/64) for f16, bf16, tf32
//   and f64 inputs, and (x >> 16) & 255 minus 128 (in [-128, 127]) for s8.
// Errors: for float-accumulated results maxerr = max |got - ref| / max(1, |ref|),
//   FAIL above 1e-2; s8, f64, ldmatrix and cp.async results must be exact
//   (maxerr = max |got - ref|, FAIL above 0).
#include "../tests/kernels/tensor.cu"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

static int failures = 0;

#define CK(call)                                                                              \
    do {                                                                                      \
        cudaError_t e_ = (call);                                                              \
        if (e_ != cudaSuccess) {                                                              \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
            exit(1);                                                                          \
        }                                                                                     \
    } while (0)

// After a launch: launch errors and execution errors.
static void launched(const char *name)
{
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
        fprintf(stderr, "%s: %s\n", name, cudaGetErrorString(e));
        exit(1);
    }
}

struct Lcg {
    unsigned x;
    explicit Lcg(unsigned seed) : x(seed) {}
    unsigned next() { return (x = x * 1664525u + 1013904223u) >> 16; }
    double small() { return (double)(next() & 63) / 64.0 - 0.5; }  // k/64 - 0.5
    int s8() { return (int)(next() & 255) - 128; }
};

static std::vector<double> fill_small(size_t n, unsigned seed)
{
    Lcg r(seed);
    std::vector<double> v(n);
    for (auto &x : v) x = r.small();
    return v;
}

template <typename T, typename F> static std::vector<T> convert(const std::vector<double> &v, F f)
{
    std::vector<T> o(v.size());
    for (size_t i = 0; i < v.size(); i++) o[i] = f(v[i]);
    return o;
}
static std::vector<__half> to_half(const std::vector<double> &v) { return convert<__half>(v, [](double x) { return __float2half((float)x); }); }

template <typename T> static T *dev_copy(const std::vector<T> &h)
{
    T *d;
    CK(cudaMalloc(&d, h.size() * sizeof(T)));
    CK(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
    return d;
}
template <typename T> static T *dev_alloc(size_t n)
{
    T *d;
    CK(cudaMalloc(&d, n * sizeof(T)));
    CK(cudaMemset(d, 0xff, n * sizeof(T)));  // NaN / -1 everywhere: unwritten outputs show
    return d;
}
template <typename T> static std::vector<T> host_copy(const T *d, size_t n)
{
    std::vector<T> h(n);
    CK(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
    return h;
}

// C(m,n) = sum_k A(m,k) B(k,n), A row-major M x K, B column-major (B[n*K + k]).
static std::vector<double> ref_gemm(const std::vector<double> &A, const std::vector<double> &B, int M, int N, int K)
{
    std::vector<double> C((size_t)M * N);
    for (int m = 0; m < M; m++)
        for (int n = 0; n < N; n++) {
            double s = 0;
            for (int k = 0; k < K; k++) s += A[(size_t)m * K + k] * B[(size_t)n * K + k];
            C[(size_t)m * N + n] = s;
        }
    return C;
}

// Relative error against max(1, |ref|) (tol > 0) or exact (tol == 0).
static double compare(const char *tag, const char *name, const std::vector<double> &got, const std::vector<double> &ref, double tol)
{
    double worst = 0;
    for (size_t i = 0; i < ref.size(); i++) {
        double d = std::fabs(got[i] - ref[i]);
        if (tol > 0) d /= std::max(1.0, std::fabs(ref[i]));
        if (!(d <= worst)) worst = d;  // NaN sticks
    }
    const bool ok = tol > 0 ? worst <= tol : worst == 0;
    if (!ok) failures++;
    printf("%s %s %s %.3e\n", tag, name, ok ? "ok" : "FAIL", worst);
    return worst;
}
static double check(const char *name, const std::vector<double> &got, const std::vector<double> &ref, double tol)
{
    return compare("CHECK", name, got, ref, tol);
}
template <typename T> static std::vector<double> widen(const std::vector<T> &v)
{
    std::vector<double> o(v.size());
    for (size_t i = 0; i < v.size(); i++) o[i] = (double)v[i];
    return o;
}
static std::vector<double> widen_half(const std::vector<__half> &v)
{
    std::vector<double> o(v.size());
    for (size_t i = 0; i < v.size(); i++) o[i] = (double)__half2float(v[i]);
    return o;
}

typedef void (*Gemm)(const __half *, const __half *, float *, int, int, int);
struct GemmKernel {
    const char *name;
    Gemm fn;
    int tile_m, tile_n, threads;  // grid (N/tile_n, M/tile_m), block threads
};
static const GemmKernel gemms[] = {
    {"mma_naive", mma_naive, 16, 8, 32},
    {"mma_ldmatrix<0,0>", mma_ldmatrix<0, 0>, 64, 64, 128},
    {"mma_ldmatrix<8,0>", mma_ldmatrix<8, 0>, 64, 64, 128},
    {"mma_ldmatrix<0,1>", mma_ldmatrix<0, 1>, 64, 64, 128},
    {"wmma_gemm", wmma_gemm, 16, 16, 32},
};

static void launch_gemm(const GemmKernel &g, const __half *A, const __half *B, float *C, int M, int N, int K)
{
    g.fn<<<dim3(N / g.tile_n, M / g.tile_m), g.threads>>>(A, B, C, M, N, K);
}

// ---------------------------------------------------------------- checks

static void check_gemms()
{
    const int M = 128, N = 128, K = 128;
    std::vector<double> A = fill_small((size_t)M * K, 1), B = fill_small((size_t)N * K, 2);
    std::vector<double> ref = ref_gemm(A, B, M, N, K);
    __half *dA = dev_copy(to_half(A)), *dB = dev_copy(to_half(B));
    float *dC = dev_alloc<float>((size_t)M * N);
    for (const GemmKernel &g : gemms) {
        CK(cudaMemset(dC, 0xff, (size_t)M * N * sizeof(float)));
        launch_gemm(g, dA, dB, dC, M, N, K);
        launched(g.name);
        check(g.name, widen(host_copy(dC, (size_t)M * N)), ref, 1e-2);
    }
    CK(cudaFree(dA));
    CK(cudaFree(dB));
    CK(cudaFree(dC));
}

static void check_ldmatrix_trans()
{
    std::vector<double> in = fill_small(256, 3);
    __half *din = dev_copy(to_half(in)), *dout = dev_alloc<__half>(256);
    ldmatrix_trans_copy<<<1, 32>>>(din, dout);
    launched("ldmatrix_trans_copy");
    std::vector<double> ref(256);
    for (int l = 0; l < 32; l++)
        for (int i = 0; i < 4; i++)
            for (int h = 0; h < 2; h++) {
                const int R = 8 * (i & 1), C = 8 * (i >> 1);
                ref[l * 8 + i * 2 + h] = in[(R + 2 * (l & 3) + h) * 16 + C + (l >> 2)];
            }
    check("ldmatrix_trans_copy", widen_half(host_copy(dout, 256)), ref, 0);
    CK(cudaFree(din));
    CK(cudaFree(dout));
}

static void check_zfill()
{
    const int n = 100;  // threads 100..127 get the zero fill
    std::vector<float> in(128);
    for (int i = 0; i < 128; i++) in[i] = 1.0f + (float)i;  // nonzero, also past n
    float *din = dev_copy(in), *dout = dev_alloc<float>(128);
    cp_async_zfill<<<1, 128>>>(din, dout, n);
    launched("cp_async_zfill");
    std::vector<double> ref(128);
    for (int i = 0; i < 128; i++) ref[i] = i < n ? in[i] : 0.0;
    check("cp_async_zfill", widen(host_copy(dout, 128)), ref, 0);
    CK(cudaFree(din));
    CK(cudaFree(dout));
}

static void check_f16acc()
{
    std::vector<double> A = fill_small(16 * 8, 4), B = fill_small(8 * 8, 5);
    __half *dA = dev_copy(to_half(A)), *dB = dev_copy(to_half(B)), *dC = dev_alloc<__half>(16 * 8);
    mma_m16n8k8_f16acc<<<1, 32>>>(dA, dB, dC);
    launched("mma_m16n8k8_f16acc");
    check("mma_m16n8k8_f16acc", widen_half(host_copy(dC, 16 * 8)), ref_gemm(A, B, 16, 8, 8), 1e-2);
    CK(cudaFree(dA));
    CK(cudaFree(dB));
    CK(cudaFree(dC));
}

static void check_s8()
{
    Lcg ra(6), rb(7);
    std::vector<signed char> A(16 * 32), B(8 * 32);
    for (auto &x : A) x = (signed char)ra.s8();
    for (auto &x : B) x = (signed char)rb.s8();
    signed char *dA = dev_copy(A), *dB = dev_copy(B);
    int *dC = dev_alloc<int>(16 * 8);
    mma_s8<<<1, 32>>>(dA, dB, dC);
    launched("mma_s8");
    check("mma_s8", widen(host_copy(dC, 16 * 8)), ref_gemm(widen(A), widen(B), 16, 8, 32), 0);
    CK(cudaFree(dA));
    CK(cudaFree(dB));
    CK(cudaFree(dC));
}

static void check_f64()
{
    std::vector<double> A = fill_small(8 * 4, 8), B = fill_small(8 * 4, 9);
    double *dA = dev_copy(A), *dB = dev_copy(B), *dC = dev_alloc<double>(8 * 8);
    mma_f64<<<1, 32>>>(dA, dB, dC);
    launched("mma_f64");
    check("mma_f64", host_copy(dC, 8 * 8), ref_gemm(A, B, 8, 8, 4), 0);
    CK(cudaFree(dA));
    CK(cudaFree(dB));
    CK(cudaFree(dC));
}

static void check_tf32()
{
    std::vector<double> A = fill_small(16 * 8, 10), B = fill_small(8 * 8, 11);
    auto f = [](double x) { return (float)x; };
    float *dA = dev_copy(convert<float>(A, f)), *dB = dev_copy(convert<float>(B, f)), *dC = dev_alloc<float>(16 * 8);
    mma_tf32<<<1, 32>>>(dA, dB, dC);
    launched("mma_tf32");
    check("mma_tf32", widen(host_copy(dC, 16 * 8)), ref_gemm(A, B, 16, 8, 8), 1e-2);
    CK(cudaFree(dA));
    CK(cudaFree(dB));
    CK(cudaFree(dC));
}

static void check_bf16()
{
    std::vector<double> A = fill_small(16 * 16, 12), B = fill_small(8 * 16, 13);
    auto f = [](double x) { return __float2bfloat16((float)x); };
    __nv_bfloat16 *dA = dev_copy(convert<__nv_bfloat16>(A, f)), *dB = dev_copy(convert<__nv_bfloat16>(B, f));
    float *dC = dev_alloc<float>(16 * 8);
    mma_bf16<<<1, 32>>>(dA, dB, dC);
    launched("mma_bf16");
    check("mma_bf16", widen(host_copy(dC, 16 * 8)), ref_gemm(A, B, 16, 8, 16), 1e-2);
    CK(cudaFree(dA));
    CK(cudaFree(dB));
    CK(cudaFree(dC));
}

// ---------------------------------------------------------------- timings

static void time_gemms()
{
    const int M = 2048, N = 2048, K = 2048, REPS = 20, SPOTS = 64;
    std::vector<double> A = fill_small((size_t)M * K, 21), B = fill_small((size_t)N * K, 22);
    __half *dA = dev_copy(to_half(A)), *dB = dev_copy(to_half(B));
    float *dC = dev_alloc<float>((size_t)M * N);
    cudaEvent_t ev[REPS + 1];
    for (auto &e : ev) CK(cudaEventCreate(&e));
    for (const GemmKernel &g : gemms) {
        CK(cudaMemset(dC, 0xff, (size_t)M * N * sizeof(float)));
        launch_gemm(g, dA, dB, dC, M, N, K);  // warm-up, and the result the spot check reads
        launched(g.name);
        // Sampled outputs against the CPU (the whole 2048^3 product is too slow on the host).
        std::vector<float> C = host_copy(dC, (size_t)M * N);
        std::vector<double> got(SPOTS), ref(SPOTS);
        Lcg r(23);
        for (int s = 0; s < SPOTS; s++) {
            const int m = (int)(r.next() % M), n = (int)(r.next() % N);
            double acc = 0;
            for (int k = 0; k < K; k++) acc += A[(size_t)m * K + k] * B[(size_t)n * K + k];
            got[s] = C[(size_t)m * N + n];
            ref[s] = acc;
        }
        compare("SPOT", g.name, got, ref, 1e-2);
        // Back-to-back launches, an event between each two.
        CK(cudaEventRecord(ev[0]));
        for (int i = 0; i < REPS; i++) {
            launch_gemm(g, dA, dB, dC, M, N, K);
            CK(cudaEventRecord(ev[i + 1]));
        }
        launched(g.name);
        std::vector<float> us(REPS);
        for (int i = 0; i < REPS; i++) {
            CK(cudaEventElapsedTime(&us[i], ev[i], ev[i + 1]));
            us[i] *= 1000.0f;
        }
        std::sort(us.begin(), us.end());
        printf("TIME %s %d %d %d %.2f\n", g.name, M, N, K, 0.5 * (us[REPS / 2 - 1] + us[REPS / 2]));
        fflush(stdout);
    }
    for (auto &e : ev) CK(cudaEventDestroy(e));
    CK(cudaFree(dA));
    CK(cudaFree(dB));
    CK(cudaFree(dC));
}

int main(int argc, char **argv)
{
    bool once = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--once")) {
            once = true;
        } else {
            fprintf(stderr, "usage: %s [--once]\n", argv[0]);
            return 2;
        }
    }
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    printf("DEVICE %s sm_%d%d\n", p.name, p.major, p.minor);

    check_gemms();
    check_ldmatrix_trans();
    check_zfill();
    check_f16acc();
    check_s8();
    check_f64();
    check_tf32();
    check_bf16();
    fflush(stdout);
    if (!once) time_gemms();
    if (failures) printf("%d FAIL\n", failures);
    return failures ? 1 : 0;
}
