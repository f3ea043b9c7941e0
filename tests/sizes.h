/* sizes.h: byte sizes, once for every test, workload and tool (a workload,
 * built without -Itests, includes it as "../sizes.h"). */
#ifndef STAGETOP_TESTS_SIZES_H
#define STAGETOP_TESTS_SIZES_H

#define KIB 1024ull
#define MIB (1024ull * KIB)
#define GIB (1024ull * MIB)

#endif
