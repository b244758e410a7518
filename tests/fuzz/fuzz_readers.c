/* libFuzzer target: the input files carom reads, the XYZ scene reader,
 * the orbits file reader and the command's segments file reader
 * (tools/segments_file.c), on any bytes. Each must return an error or a
 * scene, never crash, hang or allocate without bound. Built only with
 * -DCAROM_FUZZ=ON and clang (tests/fuzz/CMakeLists.txt). */
#include <stdint.h>
#include <stdlib.h>

#include "carom/drive.h"
#include "carom/scene.h"
#include "fuzz_file.h"
#include "segments_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64];
    if (!fuzz_input_file(data, size, "readers", path))
        return 0;
    carom_error error;
    carom_scene scene;
    carom_scene_init(&scene);
    carom_xyz_read(path, &scene, &error);
    carom_scene_free(&scene);
    carom_orbits orbits;
    carom_orbits_init(&orbits);
    carom_orbits_read(path, &orbits, &error);
    carom_orbits_free(&orbits);
    const double box[3] = {100.0, 100.0, 1.0};
    double(*segment)[4];
    size_t nsegments;
    cli_error cli;
    segments_file_read(path, box, &segment, &nsegments, &cli);
    free(segment);
    return 0;
}
