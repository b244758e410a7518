/* The value parsing that options.c and options_species.c share; for
 * those two files only (options.h is the interface to the rest).
 *
 * Contract: a parser either stores a checked value or fails with a usage
 * error naming the key, its value and where it came from
 * ("ORIGIN: KEY=VALUE: PROBLEM", as options_bad_value writes it).
 */
#ifndef CAROM_TOOLS_OPTIONS_PARSE_H
#define CAROM_TOOLS_OPTIONS_PARSE_H

#include <stddef.h>

#include "cli.h"
#include "config.h"
#include "options.h"

/* The usage error "ORIGIN: KEY=VALUE: problem". */
int options_bad_value(const config *c, config_key key, cli_error *error, const char *problem);

/* One finite number, the whole of [s, s + len) (blanks allowed around it). */
int options_parse_number(const config *c, config_key key, const char *s, size_t len,
                         double *out, cli_error *error);

/* As options_parse_number, infinity allowed (a limit: inf, none). */
int options_parse_limit(const config *c, config_key key, const char *s, size_t len,
                        double *out, cli_error *error);

/* key's value: a comma-separated list of 1..max numbers. */
int options_parse_list(const config *c, config_key key, double *out, int max, int *count,
                       cli_error *error);

/* key's value (fallback when it is not set): a whole number in [lo, hi]. */
int options_get_whole(const config *c, config_key key, double fallback, double lo, double hi,
                      double *out, cli_error *error);

/* species=, species_fraction= and the keys that name species
 * (options_species.c): read by options_from_config once init=, friction=
 * and wall_friction= are. */
int options_get_species(const config *c, run_options *o, cli_error *error);

/* shear= and shear_interval= (options_shear.c): read by
 * options_from_config last, once every key they clash with is. */
int options_get_shear(const config *c, run_options *o, cli_error *error);

#endif
