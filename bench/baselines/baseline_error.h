/* What the comparison baselines (stepped.c, ksap.c) share for errors:
 * the status, with a formatted message in the caller's carom_error (which
 * may be NULL), as the library reports its own. */
#ifndef CAROM_BASELINE_ERROR_H
#define CAROM_BASELINE_ERROR_H

#include <stdarg.h>
#include <stdio.h>

#include "carom/carom.h"

static inline carom_status baseline_fail(carom_error *error, carom_status status,
                                         const char *format, ...)
{
    if (error) {
        va_list args;
        va_start(args, format);
        error->status = status;
        vsnprintf(error->message, sizeof error->message, format, args);
        va_end(args);
    }
    return status;
}

#endif
