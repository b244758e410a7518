/* Filling a carom_error; contract in error_report.h. */
#include "error_report.h"

#include <stdarg.h>
#include <stdio.h>

carom_status error_report(carom_error *error, carom_status status, const char *fmt, ...)
{
    if (error) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(error->message, sizeof error->message, fmt, ap);
        va_end(ap);
        error->status = status;
    }
    return status;
}

carom_status error_clear(carom_error *error)
{
    if (error) {
        error->status = CAROM_OK;
        error->message[0] = '\0';
    }
    return CAROM_OK;
}
