/* Filling a carom_error for functions that have no world.
 *
 * Contract: error_report formats the message into error->message (always
 * NUL-terminated, truncated to fit), sets error->status and returns the
 * status, so a caller can write `return error_report(error, ...)`.
 * error may be NULL, in which case only the status is returned.
 */
#ifndef CAROM_ERROR_REPORT_H
#define CAROM_ERROR_REPORT_H

#include "carom/carom.h"

#if defined(__GNUC__)
#define CAROM_PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#else
#define CAROM_PRINTF_LIKE(f, a)
#endif

carom_status error_report(carom_error *error, carom_status status, const char *fmt, ...)
    CAROM_PRINTF_LIKE(3, 4);

/* Sets error to CAROM_OK with an empty message (error may be NULL). */
carom_status error_clear(carom_error *error);

#endif
