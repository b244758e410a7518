/* What the fuzz targets share: the readers under test take a path, so
 * each input goes to a file of this process first. */
#ifndef CAROM_FUZZ_FILE_H
#define CAROM_FUZZ_FILE_H

#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

/* Writes data to /tmp/carom-fuzz-<what>-<pid> and puts that path in
 * path[64]; 0 if the file cannot be written. */
static int fuzz_input_file(const uint8_t *data, size_t size, const char *what, char path[64])
{
    snprintf(path, 64, "/tmp/carom-fuzz-%s-%d", what, (int)getpid());
    FILE *f = fopen(path, "wb");
    if (!f)
        return 0;
    fwrite(data, 1, size, f);
    fclose(f);
    return 1;
}

#endif
