/* hash64 FILE: prints the 64-bit xxHash (XXH64, seed 0) of FILE's bytes
 * as 16 hex digits; the golden-hash test compares traces by it. */
#include <stdio.h>
#include <xxhash.h>

int main(int argc, char **argv)
{
    if (argc != 2) {
        fputs("usage: hash64 FILE\n", stderr);
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
