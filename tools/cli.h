/* Shared pieces of the `carom` command: how errors travel to main.
 *
 * Contract: a function that can fail takes a cli_error, and on failure
 * fills its one-line message (no "carom: " prefix, no newline) and exit
 * code and returns that nonzero code; main prints "carom: <message>" on
 * stderr and exits with the code. Usage and input errors exit with
 * CLI_EXIT_USAGE, failures while running with CLI_EXIT_RUNTIME.
 */
#ifndef CAROM_TOOLS_CLI_H
#define CAROM_TOOLS_CLI_H

#define CLI_EXIT_RUNTIME 1
#define CLI_EXIT_USAGE 2

typedef struct cli_error {
    int exit_code;
    char message[1024];
} cli_error;

#if defined(__GNUC__)
#define CLI_PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#else
#define CLI_PRINTF_LIKE(f, a)
#endif

int cli_fail(cli_error *error, int exit_code, const char *fmt, ...) CLI_PRINTF_LIKE(3, 4);

#endif
