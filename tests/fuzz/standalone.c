/* standalone.c: a main for the fuzz target without libFuzzer (any C
 * compiler): each argument is a file whose bytes go once through
 * LLVMFuzzerTestOneInput (tests/fuzz/fuzz_import.c), which aborts when a
 * property fails.  `make tests` builds it ($(B)/tests/fuzz_import_standalone,
 * mk/trace-tools-fuzz.mk) so the fuzzer's source list links in every
 * `make check`; tests/make/fuzz_build.test.sh runs it over the seeds. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        if (!f) {
            perror(argv[i]);
            return 2;
        }
        size_t cap = 1 << 16, n = 0;
        uint8_t *buf = malloc(cap);
        size_t got;
        while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
            n += got;
            if (n == cap) {
                uint8_t *more = realloc(buf, cap *= 2);
                if (!more)
                    free(buf);
                buf = more;
            }
        }
        fclose(f);
        if (!buf) {
            fprintf(stderr, "%s: out of memory\n", argv[i]);
            return 2;
        }
        LLVMFuzzerTestOneInput(buf, n);
        free(buf);
    }
    return 0;
}
