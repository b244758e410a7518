/* Names of status codes. */
#include "carom/carom.h"

const char *carom_status_name(carom_status status)
{
    switch (status) {
    case CAROM_OK: return "ok";
    case CAROM_ERR_INVALID_ARGUMENT: return "invalid argument";
    case CAROM_ERR_OUT_OF_MEMORY: return "out of memory";
    case CAROM_ERR_OVERLAP: return "overlap";
    case CAROM_ERR_OUTSIDE_BOX: return "outside box";
    case CAROM_ERR_BOX_TOO_SMALL: return "box too small";
    case CAROM_ERR_NO_SUCH_SPHERE: return "no such sphere";
    case CAROM_ERR_IO: return "i/o error";
    case CAROM_ERR_PARSE: return "parse error";
    case CAROM_ERR_IN_CALLBACK: return "called from inside a callback";
    case CAROM_ERR_STUCK: return "stuck at one instant";
    }
    return "unknown status";
}
