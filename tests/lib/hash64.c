/* hash64 FILE: prints the 64-bit xxHash (XXH64, seed 0) of FILE's bytes
 * as 16 hex digits; the golden-hash test compares traces by it.
 * hash64 alone (as `make check` runs it): a TAP self-test against the
 * reference values of xxHash's own command-line tool. */
#include <stdio.h>
#include <string.h>
#include <xxhash.h>

static int self_test(void)
{
    static const struct { const char *in; unsigned long long want; } v[] = {
        { "", 0xef46db3751d8e999ull },
        { "abc", 0x44bc2cf5ad770999ull },
    };
    int bad = 0;
    for (int i = 0; i < 2; i++) {
        unsigned long long got = XXH64(v[i].in, strlen(v[i].in), 0);
        bad += got != v[i].want;
        printf("%s %d - XXH64(\"%s\") = %016llx\n", got == v[i].want ? "ok" : "not ok",
               i + 1, v[i].in, got);
    }
    printf("1..2\n");
    return bad != 0;
}

int main(int argc, char **argv)
{
    if (argc == 1)
        return self_test();
    if (argc != 2) {
        fputs("usage: hash64 [FILE]\n", stderr);
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f) {
        perror(argv[1]);
        return 1;
    }
    XXH64_state_t *s = XXH64_createState();
    if (!s || XXH64_reset(s, 0) != XXH_OK) {
        fclose(f);
        return 1;
    }
    char buf[1 << 16];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        XXH64_update(s, buf, n);
    int bad = ferror(f);
    fclose(f);
    printf("%016llx\n", (unsigned long long)XXH64_digest(s));
    XXH64_freeState(s);
    return bad ? 1 : 0;
}
