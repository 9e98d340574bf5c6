/* Pictures of one warp request: which lane uses which byte of each moved
 * sector, and which lane each bank serves in each wavefront.  As text (with
 * ANSI colour when asked) and as SVG (html.c puts them in a page). */
#include <string.h>

#include "coalsim.h"
#include "model/smem_grid.h"

#define MAXSECTORS (COALSIM_MAX_WARP * 17)
#define MAXROWS 160

static const char lanechar[] = "0123456789abcdefghijklmnopqrstuv";

/* Sorted distinct sectors of r, and for each byte of each the lane that uses it. */
static unsigned sectors(const coalsim_arch *a, const coalsim_request *r, uint64_t *sec, signed char (*who)[64])
{
    unsigned n = 0, sb = a->sector_bytes > 64 ? 64 : a->sector_bytes;
    for (unsigned l = 0; l < COALSIM_MAX_WARP; l++) {
        if (!(r->active >> l & 1)) continue;
        for (uint64_t b = r->addr[l]; b < r->addr[l] + r->size; b++) {
            uint64_t s = b / a->sector_bytes;
            unsigned k, off = (unsigned)(b % a->sector_bytes);
            for (k = 0; k < n && sec[k] != s; k++) {}
            if (k == n) {
                if (n == MAXSECTORS) continue;
                unsigned j = n++;
                while (j > 0 && sec[j - 1] > s) {     /* keep them sorted */
                    sec[j] = sec[j - 1];
                    memcpy(who[j], who[j - 1], 64);
                    j--;
                }
                sec[j] = s;
                memset(who[j], -1, 64);
                k = j;
            }
            if (off < sb && who[k][off] < 0) who[k][off] = (signed char)l;
        }
    }
    return n;
}

static const char *colour_of(unsigned lane)
{
    static const char *const c[6] = {"\033[31m", "\033[32m", "\033[33m", "\033[34m", "\033[35m", "\033[36m"};
    return c[lane % 6];
}

int coalsim_picture_text(FILE *out, const coalsim_arch *a, const coalsim_request *r, const coalsim_result *res,
                         int colour)
{
    if (r->space == COALSIM_CONST) {
        fprintf(out, "    constant cache: %u pass%s, one a distinct address\n", res->wavefronts,
                res->wavefronts == 1 ? "" : "es");
        return ferror(out) ? -1 : 0;
    }
    if (coalsim_space_has_sectors(r->space)) {
        uint64_t sec[MAXSECTORS];
        signed char who[MAXSECTORS][64];
        unsigned n = sectors(a, r, sec, who), sb = a->sector_bytes > 64 ? 64 : a->sector_bytes;
        fprintf(out, "    sector address      one character a byte: the lane using it (0-9, a-v = 10-31), '.' moved unused\n");
        for (unsigned k = 0; k < n; k++) {
            unsigned used = 0;
            fprintf(out, "    0x%016llx  ", (unsigned long long)(sec[k] * a->sector_bytes));
            for (unsigned b = 0; b < sb; b++) {
                if (who[k][b] < 0) {
                    fprintf(out, "%s.%s", colour ? "\033[2m" : "", colour ? "\033[0m" : "");
                } else {
                    used++;
                    if (colour) fprintf(out, "%s%c\033[0m", colour_of((unsigned)who[k][b]), lanechar[who[k][b]]);
                    else fputc(lanechar[who[k][b]], out);
                }
            }
            fprintf(out, "  %u used, %u wasted\n", used, sb - used);
        }
    } else {
        unsigned char grid[MAXROWS][64];
        unsigned rows = smem_grid(a, r, grid, MAXROWS), nb = a->banks;
        fprintf(out, "    wavefront  bank: the lane it serves (0-9, a-v = 10-31; '*' several lanes share the word; '.' idle)\n");
        fprintf(out, "               ");
        for (unsigned b = 0; b < nb; b++) fprintf(out, "%-2u", b % 100 < 10 ? b : b % 10);
        fprintf(out, "\n");
        for (unsigned w = 0; w < rows; w++) {
            fprintf(out, "    %9u  ", w + 1);
            for (unsigned b = 0; b < nb; b++) {
                unsigned c = grid[w][b];
                if (!c) {
                    fprintf(out, ". ");
                    continue;
                }
                unsigned lane = (c & 0x3f) - 1;
                if (colour) fprintf(out, "%s%c\033[0m%c", colour_of(lane), lanechar[lane], c & SMEM_SHARED ? '*' : ' ');
                else fprintf(out, "%c%c", lanechar[lane], c & SMEM_SHARED ? '*' : ' ');
            }
            fprintf(out, "\n");
        }
        if (rows < res->wavefronts) fprintf(out, "    ... %u more wavefronts\n", res->wavefronts - rows);
    }
    return ferror(out) ? -1 : 0;
}

static void hsl(FILE *out, unsigned lane) { fprintf(out, "hsl(%u,70%%,%u%%)", lane * 360 / 32 * 7 % 360, 55 + lane % 3 * 8); }

int coalsim_picture_svg(FILE *out, const coalsim_arch *a, const coalsim_request *r, const coalsim_result *res)
{
    (void)res;
    if (r->space == COALSIM_CONST) return 0;    /* no banks or sectors to draw */
    if (coalsim_space_has_sectors(r->space)) {
        uint64_t sec[MAXSECTORS];
        signed char who[MAXSECTORS][64];
        unsigned n = sectors(a, r, sec, who), sb = a->sector_bytes > 64 ? 64 : a->sector_bytes;
        unsigned cw = 14, h = 22, left = 150, width = left + sb * cw + 150;
        fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%u\" height=\"%u\" font-family=\"monospace\" "
                     "font-size=\"10\">\n", width, n * h + 24);
        fprintf(out, "<text x=\"0\" y=\"12\">sector</text><text x=\"%u\" y=\"12\">bytes (lane numbers; grey = moved "
                     "but unused)</text>\n", left);
        for (unsigned k = 0; k < n; k++) {
            unsigned y = 20 + k * h, used = 0;
            fprintf(out, "<text x=\"0\" y=\"%u\">0x%llx</text>\n", y + 14, (unsigned long long)(sec[k] * a->sector_bytes));
            for (unsigned b = 0; b < sb; b++) {
                int l = who[k][b];
                used += l >= 0;
                fprintf(out, "<rect x=\"%u\" y=\"%u\" width=\"%u\" height=\"%u\" stroke=\"#fff\" fill=\"", left + b * cw, y,
                        cw, h - 4);
                if (l < 0) fprintf(out, "#ddd");
                else hsl(out, (unsigned)l);
                fprintf(out, "\"><title>byte %u: %s%d</title></rect>\n", b, l < 0 ? "unused" : "lane ", l < 0 ? 0 : l);
                /* the lane number once per run of its bytes */
                if (l >= 0 && (b == 0 || who[k][b - 1] != l))
                    fprintf(out, "<text x=\"%u\" y=\"%u\">%d</text>\n", left + b * cw + 2, y + 13, l);
            }
            fprintf(out, "<text x=\"%u\" y=\"%u\">%u used, %u wasted</text>\n", left + sb * cw + 8, y + 14, used, sb - used);
        }
        fprintf(out, "</svg>\n");
    } else {
        unsigned char grid[MAXROWS][64];
        unsigned rows = smem_grid(a, r, grid, MAXROWS), nb = a->banks, cw = 22, h = 20, left = 80;
        fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%u\" height=\"%u\" font-family=\"monospace\" "
                     "font-size=\"10\">\n", left + nb * cw + 10, rows * h + 40);
        fprintf(out, "<text x=\"0\" y=\"12\">wavefront</text>\n");
        for (unsigned b = 0; b < nb; b++)
            fprintf(out, "<text x=\"%u\" y=\"28\">%u</text>\n", left + b * cw + 4, b);
        for (unsigned w = 0; w < rows; w++) {
            unsigned y = 34 + w * h;
            fprintf(out, "<text x=\"0\" y=\"%u\">%u</text>\n", y + 13, w + 1);
            for (unsigned b = 0; b < nb; b++) {
                unsigned c = grid[w][b];
                fprintf(out, "<rect x=\"%u\" y=\"%u\" width=\"%u\" height=\"%u\" stroke=\"%s\" stroke-width=\"%s\" fill=\"",
                        left + b * cw, y, cw - 2, h - 3, c & SMEM_SHARED ? "#000" : "#bbb", c & SMEM_SHARED ? "2" : "1");
                if (!c) fprintf(out, "#fff");
                else hsl(out, (c & 0x3f) - 1);
                fprintf(out, "\"><title>bank %u, wavefront %u: %s</title></rect>\n", b, w + 1, c ? "lane" : "idle");
                if (c) fprintf(out, "<text x=\"%u\" y=\"%u\">%u</text>\n", left + b * cw + 4, y + 12, (c & 0x3f) - 1);
            }
        }
        fprintf(out, "</svg>\n");
    }
    return ferror(out) ? -1 : 0;
}
