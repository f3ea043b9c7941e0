/* evilname: processes whose names and command lines are hostile to a
 * terminal, for the fault suite (tests/faults/terminal.test.sh).
 *
 *   evilname PLACEHOLDER...
 *
 * The root overwrites its own argv area (so /proc/PID/cmdline changes) with
 * escape sequences (set the title, clear the screen, colour), newlines, a
 * carriage return, invalid UTF-8 (a stray 0xFF, an overlong NUL, a truncated
 * sequence) and a right-to-left override, and sets its name (comm, 15
 * bytes) to another such string with prctl(PR_SET_NAME).  Its child does the
 * same to its name and blanks its argv area, so a monitor falls back to the
 * name (on Linux only: macOS has no prctl(PR_SET_NAME); a process's name
 * there is its executable's).  The argv area is as long as the arguments
 * given: pass a placeholder of at least 100 bytes.
 *
 * stdout: "ready <root pid> <child pid>", then both wait for SIGTERM (the
 * child dies with the root: PR_SET_PDEATHSIG). */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <string.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <unistd.h>

static const char ROOT_ARGV[] =
    "\033]0;pwned\a\033[2J\033[31mRED\nsecond line\rCR \xff\xc0\x80 \xe2\x80\xae" "evil\xe2\x82";
#ifdef __linux__
static const char ROOT_COMM[] = "\033]0;pw\a\n\xff\033[2J"; /* 14 bytes */
static const char CHILD_COMM[] = "\033[31m\r\n\xc0\x80\xe2\x80\xae!"; /* 14 bytes */
#endif

/* The argv area: argv[0] .. the NUL of the last argument, contiguous. */
static void set_argv_area(int argc, char **argv, const char *text)
{
    char *start = argv[0], *end = argv[argc - 1] + strlen(argv[argc - 1]);
    size_t room = (size_t)(end - start); /* keep the final NUL */
    memset(start, 0, room);
    if (text) {
        size_t n = strlen(text);
        memcpy(start, text, n < room ? n : room);
    }
}

int main(int argc, char **argv)
{
    if (argc < 2 || strlen(argv[1]) < 100) {
        fprintf(stderr, "usage: evilname PLACEHOLDER (100 bytes or more)\n");
        return 2;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    pid_t child = fork();
    if (child < 0) {
        perror("evilname: fork");
        return 1;
    }
    if (child == 0) {
#ifdef __linux__
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        prctl(PR_SET_NAME, CHILD_COMM);
#endif
        set_argv_area(argc, argv, NULL);
        for (;;)
            pause();
    }
#ifdef __linux__
    prctl(PR_SET_NAME, ROOT_COMM);
#endif
    set_argv_area(argc, argv, ROOT_ARGV);
    printf("ready %ld %ld\n", (long)getpid(), (long)child);
    for (;;)
        pause();
}
