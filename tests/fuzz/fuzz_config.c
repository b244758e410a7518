/* libFuzzer target: the CLI's config files, read and turned into run
 * options (numbers, keys, presets) on any bytes: an error or options,
 * never a crash. Built only with -DCAROM_FUZZ=ON and clang. */
#include <stdint.h>

#include "config.h"
#include "options.h"
#include "fuzz_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64];
    if (!fuzz_input_file(data, size, "config", path))
        return 0;
    config c;
    config_init(&c);
    cli_error error;
    run_options options;
    int status = config_read_file(&c, path, &error);
    if (!status)
        status = options_apply_scenario(&c, &error);
    if (!status) {
        options_from_config(&c, &options, &error);
        options_free(&options);
    }
    config_free(&c);
    return 0;
}
