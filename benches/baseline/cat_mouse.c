/* retrograde's reference point for whole-process races: a plain,
 * single-threaded C solver of Cat and Mouse on a graph (LeetCode 913 rules,
 * as `retrograde cat-mouse` applies them), with the breadth-first
 * retrograde analysis every textbook gives and flat arrays throughout.
 *
 * Rules: state (mouse node, cat node, side to move); node 0 is the hole and
 * the cat never enters it. The mouse wins on the hole, the cat on the
 * mouse's node, a player without a legal move loses, and a position that
 * can repeat forever is a draw. Repeated adjacency entries are one edge; a
 * node that lists itself may stay put. Depth = plies to the end, the
 * winner hurrying and the loser delaying.
 *
 * Usage:  cat_mouse GRAPH.json
 *         cat_mouse --random NODES DEGREE SEED --dump GRAPH.json
 * Prints {"states","mouse_wins","cat_wins","draws","code","depth"} as JSON. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct { int n; int *start; int *to; } Csr;

static void *must(void *p) { if (!p) { fprintf(stderr, "out of memory\n"); exit(2); } return p; }

/* Builds a CSR from an edge list, dropping repeated edges. */
static Csr csr_of(int n, int m, const int *from, const int *to) {
  Csr g = { n, must(calloc(n + 1, sizeof(int))), must(malloc(sizeof(int) * (m ? m : 1))) };
  for (int i = 0; i < m; i++) g.start[from[i] + 1]++;
  for (int v = 0; v < n; v++) g.start[v + 1] += g.start[v];
  int *fill = must(malloc(sizeof(int) * (n + 1)));
  memcpy(fill, g.start, sizeof(int) * (n + 1));
  for (int i = 0; i < m; i++) {
    int a = from[i], b = to[i], seen = 0;
    for (int j = g.start[a]; j < fill[a]; j++) seen |= g.to[j] == b;
    if (!seen) g.to[fill[a]++] = b;
  }
  /* compact away the slots left by duplicates */
  int w = 0;
  for (int v = 0; v < n; v++) { int s = g.start[v]; g.start[v] = w; for (int j = s; j < fill[v]; j++) g.to[w++] = g.to[j]; }
  g.start[n] = w; free(fill);
  return g;
}

/* Reads JSON adjacency lists: [[1,2],[0],...]. */
static Csr read_graph(const char *path, int **from_out, int **to_out, int *m_out) {
  FILE *f = fopen(path, "rb");
  if (!f) { perror(path); exit(2); }
  size_t cap = 1 << 16, m = 0; int *from = must(malloc(sizeof(int) * cap)), *to = must(malloc(sizeof(int) * cap));
  int depth = 0, node = -1, c, value = -1;
  while ((c = fgetc(f)) != EOF) {
    if (c >= '0' && c <= '9') { value = (value < 0 ? 0 : value * 10) + (c - '0'); continue; }
    if (value >= 0 && depth == 2) {
      if (m == cap) { cap *= 2; from = must(realloc(from, sizeof(int) * cap)); to = must(realloc(to, sizeof(int) * cap)); }
      from[m] = node; to[m++] = value;
    }
    value = -1;
    if (c == '[' && ++depth == 2) node++;
    if (c == ']') depth--;
  }
  fclose(f);
  *from_out = from; *to_out = to; *m_out = (int)m;
  return csr_of(node + 1, (int)m, from, to);
}

static uint64_t state = 0x9E3779B97F4A7C15ULL;
static uint64_t xorshift(void) { state ^= state << 13; state ^= state >> 7; state ^= state << 17; return state; }

/* An undirected random graph: a cycle through nodes 1..n-1, the hole joined
 * to two nodes, and random edges up to the mean degree. */
static void random_graph(int n, int degree, uint64_t seed, const char *dump) {
  state ^= seed * 0xD1B54A32D192ED03ULL;
  long want = (long)n * degree / 2 + n, m = 0;
  int *a = must(malloc(sizeof(int) * want)), *b = must(malloc(sizeof(int) * want));
  for (int v = 1; v < n; v++) { a[m] = v; b[m++] = v + 1 < n ? v + 1 : 1; }
  for (int i = 0; i < 2; i++) { a[m] = 0; b[m++] = 1 + (int)(xorshift() % (uint64_t)(n - 1)); }
  while (m < want) {
    int x = (int)(xorshift() % (uint64_t)n), y = (int)(xorshift() % (uint64_t)n);
    if (x != y) { a[m] = x; b[m++] = y; }
  }
  int *from = must(malloc(sizeof(int) * 2 * m)), *to = must(malloc(sizeof(int) * 2 * m));
  for (long i = 0; i < m; i++) { from[2 * i] = a[i]; to[2 * i] = b[i]; from[2 * i + 1] = b[i]; to[2 * i + 1] = a[i]; }
  Csr g = csr_of(n, (int)(2 * m), from, to);
  FILE *f = fopen(dump, "wb");
  if (!f) { perror(dump); exit(2); }
  fputc('[', f);
  for (int v = 0; v < n; v++) {
    fputs(v ? ",[" : "[", f);
    for (int j = g.start[v]; j < g.start[v + 1]; j++) fprintf(f, j > g.start[v] ? ",%d" : "%d", g.to[j]);
    fputc(']', f);
  }
  fputs("]\n", f);
  fclose(f);
}

enum { UNKNOWN = 0, MOUSE = 1, CAT = 2 };

int main(int argc, char **argv) {
  if (argc == 7 && !strcmp(argv[1], "--random") && !strcmp(argv[5], "--dump")) {
    random_graph(atoi(argv[2]), atoi(argv[3]), strtoull(argv[4], 0, 10), argv[6]);
    return 0;
  }
  if (argc != 2) { fprintf(stderr, "usage: cat_mouse GRAPH.json | --random N DEGREE SEED --dump FILE\n"); return 2; }
  int *from, *to, m;
  Csr g = read_graph(argv[1], &from, &to, &m);
  Csr back;
  {
    int e = g.start[g.n], *src = must(malloc(sizeof(int) * (e ? e : 1)));
    for (int v = 0; v < g.n; v++) for (int j = g.start[v]; j < g.start[v + 1]; j++) src[j] = v;
    back = csr_of(g.n, e, g.to, src); /* edges reversed: to -> from */
    free(src);
  }
  int n = g.n;
  if (n < 3) { fprintf(stderr, "a graph needs at least 3 nodes\n"); return 2; }
  /* state index: ((mouse * (n-1)) + (cat-1)) * 2 + turn, turn 0 = mouse to move */
  size_t states = (size_t)n * (n - 1) * 2;
  uint8_t *value = must(calloc(states, 1));
  uint32_t *depth = must(calloc(states, sizeof(uint32_t)));
  uint32_t *left = must(calloc(states, sizeof(uint32_t)));
  uint32_t *queue = must(malloc(sizeof(uint32_t) * states));
  size_t head = 0, tail = 0;
#define INDEX(mo, ca, tu) ((((size_t)(mo) * (n - 1)) + (size_t)((ca) - 1)) * 2 + (tu))
  for (int mo = 0; mo < n; mo++)
    for (int ca = 1; ca < n; ca++)
      for (int tu = 0; tu < 2; tu++) {
        size_t s = INDEX(mo, ca, tu);
        if (mo == 0) { value[s] = MOUSE; queue[tail++] = (uint32_t)s; continue; }
        if (mo == ca) { value[s] = CAT; queue[tail++] = (uint32_t)s; continue; }
        int at = tu == 0 ? mo : ca, moves = 0;
        for (int j = g.start[at]; j < g.start[at + 1]; j++) moves += !(tu == 1 && g.to[j] == 0);
        left[s] = (uint32_t)moves;
        if (moves == 0) { value[s] = tu == 0 ? CAT : MOUSE; queue[tail++] = (uint32_t)s; }
      }
  while (head < tail) {
    size_t s = queue[head++];
    int tu = (int)(s % 2), ca = (int)(s / 2 % (n - 1)) + 1, mo = (int)(s / 2 / (n - 1));
    int prev_turn = 1 - tu; /* the player who moved into s */
    int at = prev_turn == 0 ? mo : ca;
    for (int j = back.start[at]; j < back.start[at + 1]; j++) {
      int before = back.to[j];
      if (prev_turn == 1 && before == 0) continue; /* the cat never stood on the hole */
      size_t p = prev_turn == 0 ? INDEX(before, ca, 0) : INDEX(mo, before, 1);
      if (value[p] != UNKNOWN) continue;
      int mover_wins = (prev_turn == 0 && value[s] == MOUSE) || (prev_turn == 1 && value[s] == CAT);
      if (mover_wins || --left[p] == 0) {
        value[p] = value[s]; depth[p] = depth[s] + 1; queue[tail++] = (uint32_t)p;
      }
    }
  }
  size_t mouse = 0, cat = 0;
  for (size_t s = 0; s < states; s++) { mouse += value[s] == MOUSE; cat += value[s] == CAT; }
  size_t start = INDEX(1, 2, 0);
  printf("{\"states\":%zu,\"mouse_wins\":%zu,\"cat_wins\":%zu,\"draws\":%zu,\"code\":%d,", states, mouse, cat,
         states - mouse - cat, value[start]);
  if (value[start]) printf("\"depth\":%u}\n", depth[start]); else printf("\"depth\":null}\n");
  return 0;
}
