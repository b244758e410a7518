/* What `carom run` prints: a human-readable summary, or one JSON object
 * (--json) on stdout.
 *
 * Contract: JSON output is a single valid object (non-finite numbers are
 * written as null, strings escaped); it carries every field the summary
 * shows plus the run's settings.
 */
#ifndef CAROM_TOOLS_REPORT_H
#define CAROM_TOOLS_REPORT_H

#include <stdio.h>

#include "options.h"
#include "simulate.h"

/* Z of the equilibrium hard-sphere (hard-disk) fluid at this packing:
 * Carnahan-Starling in 3D, Henderson in 2D. */
double report_reference_z(int dim, double packing);
/* Its contact value g(sigma+): Carnahan-Starling's (1 - eta/2)/(1 - eta)^3
 * in 3D, Henderson's (1 - 7 eta/16)/(1 - eta)^2 in 2D. */
double report_reference_contact(int dim, double packing);

/* Whether that reference applies to the run: an elastic, gravity-free,
 * periodic fluid of equal spheres, every pair of which meets (report.c
 * says which keys make another). Its energy changes only through a
 * thermostat, if any: Z is then taken at the run's mean temperature from
 * the bath's energy (simulate.c, pressure_blocks.h). */
int report_reference_applies(const run_options *o);

void report_summary(FILE *out, const run_options *o, const run_result *r);
void report_json(FILE *out, const run_options *o, const run_result *r);

#endif
