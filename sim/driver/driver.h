/* coalsim's CUDA driver (libcuda.so.1 for coalsim run): the process's one
 * driver state, what the API entry points (api.c) share.  The program's
 * kernels run on coalsim's interpreter against coalsim_memory; each launch
 * the run reports is written, as it ends, into the run's directory
 * (COALSIM_RUN_DIR, set by coalsim run), where coalsim collects the
 * reports once the program has ended. */
#ifndef COALSIM_DRIVER_H
#define COALSIM_DRIVER_H

#include <pthread.h>
#include <regex.h>
#include <stdint.h>

#include "coalsim.h"
#include "driver/cu.h"

struct drv_ctx {
    int device;
    unsigned flags;
    struct drv_slot { void *key, *value; } *slots;   /* context-local storage (cudart's) */
    size_t nslots, capslots;
};

struct drv_module {
    coalsim_kernel *k;          /* NULL: the image had no PTX this GPU takes (ERR says why) */
    char err[512];
    struct drv_module *next;
};

struct drv_func {
    struct drv_module *mod;
    char *name;                 /* mangled */
    int have_res;               /* RES known (ptxas ran) */
    coalsim_resources res;
    unsigned max_dynamic_shared;
    struct drv_func *next;
};

struct drv_stream {
    unsigned flags;
};

struct drv_event {
    double t_us;                /* the modelled clock when it was recorded */
    int recorded;
};

typedef struct driver {
    pthread_mutex_t lock;
    int ready;
    coalsim_memory *mem;
    struct drv_ctx ctx;         /* the device's primary context */
    struct drv_module *mods;
    struct drv_func *funcs;
    /* what coalsim run asked for */
    const char *dir;            /* where reports go (NULL: nowhere) */
    coalsim_format fmt;
    int hier, per_request, picture, source;
    const char *html;           /* --html FILE: each reported launch's HTML report, FILE with -N before its extension */
    int have_profile;
    coalsim_profile profile;
    char *sass_text;            /* --sass-listing's text (COALSIM_RUN_SASS), or NULL: the modules' PTX runs */
    size_t sass_len;
    const char *sass_path;
    char device_name[128];
    unsigned sms;
    uint64_t total_mem;
    unsigned threads;
    coalsim_sample_cfg sample;   /* COALSIM_RUN_SAMPLE (default: off) */
    const char *kernel_filter;  /* -k: a name, or NULL */
    int filter_regex;
    regex_t re;
    unsigned long skip, count;  /* -s, -c (count 0: all) */
    unsigned long launches, reported, modules;
    double now_us;              /* the modelled clock: the sum of the launches' predicted times */
    coalsim_analysis *last;     /* with --hier: the last launch's, whose L2 the next one starts with */
    CUresult sticky;            /* a kernel fault: every later call fails with it, as on a GPU */
    unsigned cluster[3];        /* the launch being made: its cluster (cuLaunchKernelEx's attribute; 0s: none) */
} driver;

/* The driver, set up from the environment on first use (never NULL). */
driver *drv_get(void);
/* Note that the program called NAME, which the driver does not implement
 * (written once a name into the run's directory, for the report). */
void drv_unsupported(const char *name);
/* Load IMAGE (fatbinary, its wrapper, PTX) as a module. */
CUresult drv_module_load(driver *d, const void *image, struct drv_module **out);
void drv_module_unload(driver *d, struct drv_module *m);
/* The function NAME (mangled) of M. */
CUresult drv_module_function(driver *d, struct drv_module *m, const char *name, struct drv_func **out);
/* ptxas's resources of F, if ptxas is here (0), else 1. */
int drv_func_resources(driver *d, struct drv_func *f);
/* Run a launch: its report into the run's directory. */
CUresult drv_launch(driver *d, struct drv_func *f, const unsigned grid[3], const unsigned block[3], unsigned shared,
                    void **params, void **extra);

#endif
