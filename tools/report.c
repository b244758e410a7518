/* Summary and JSON output; contract in report.h. */
#define _POSIX_C_SOURCE 200809L
#include "report.h"

#include <math.h>
#include <string.h>
#include <sys/resource.h>

#include "carom/stress.h"

double report_reference_z(int dim, double eta)
{
    if (dim == 2)
        return (1.0 + eta * eta / 8.0) / ((1.0 - eta) * (1.0 - eta));
    double d = 1.0 - eta;
    return (1.0 + eta + eta * eta - eta * eta * eta) / (d * d * d);
}

double report_reference_contact(int dim, double eta)
{
    double d = 1.0 - eta;
    if (dim == 2)
        return (1.0 - 7.0 * eta / 16.0) / (d * d);
    return (1.0 - 0.5 * eta) / (d * d * d);
}

static long long peak_rss_bytes(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0)
        return -1;
    return (long long)ru.ru_maxrss * 1024LL; /* Linux reports kilobytes */
}

/* Whether every pair of the run's spheres meets elastically: the
 * coefficient in force (pair_restitution='s, else restitution=) is 1 for
 * every pair of species that has spheres. */
static int pairs_elastic(const run_options *o)
{
    if (o->species < 1)
        return o->restitution == 1.0;
    for (int a = 0; a < o->species; a++)
        for (int b = a; b < o->species; b++)
            if (o->species_count[a] > 0 && o->species_count[b] > 0 &&
                options_pair_restitution(o, a, b) != 1.0)
                return 0;
    return 1;
}

/* Whether every pair of the run's spheres that meets is smooth (beta -1)
 * or perfectly rough without Coulomb's limit (beta 1, mu infinite), the
 * two laws that keep the energy and the smooth fluid's structure and
 * normal impulses: the laws in force (pair_friction='s, else
 * tangential_restitution= and friction=) for every pair of species that
 * has spheres; smooth_only asks for beta -1 everywhere. */
static int pairs_keep_structure(const run_options *o, int smooth_only)
{
    int species = o->species < 1 ? 1 : o->species;
    for (int a = 0; a < species; a++)
        for (int b = a; b < species; b++) {
            if (o->species >= 1 && (o->species_count[a] == 0 || o->species_count[b] == 0))
                continue;
            double beta, mu;
            options_pair_friction(o, a, b, &beta, &mu);
            if (beta != -1.0 && (smooth_only || beta != 1.0 || !isinf(mu)))
                return 0;
        }
    return 1;
}

/* The reference Z applies to an elastic, gravity-free, periodic fluid of
 * equal spheres, smooth or perfectly rough without Coulomb's limit
 * (which keep the structure and the normal impulses of smooth ones, and
 * share their energy with the spins in equilibrium; tangential_restitution=,
 * friction= and pair_friction=), every pair of which meets (pass_through= makes
 * another fluid: a mixture, an ideal gas among hard spheres) elastically
 * (restitution=, pair_restitution=: a granular gas cools; walls, where
 * wall_restitution= and species_wall_restitution= apply, have no
 * reference anyway). */
int report_reference_applies(const run_options *o)
{
    for (int d = 0; d < o->dim; d++)
        if (o->boundary[d] != CAROM_BOUNDARY_PERIODIC || o->gravity[d] != 0.0)
            return 0;
    if (isinf(o->compress))
        return 0; /* jammed: no fluid */
    if (o->shear != 0.0)
        return 0; /* a sheared fluid: out of equilibrium */
    if (o->pass_through.n > 0 || o->sense.n > 0)
        return 0; /* some pairs pass through each other */
    return o->motion == MOTION_BALLISTIC && o->response == CAROM_RESPONSE_ELASTIC &&
           pairs_elastic(o) && pairs_keep_structure(o, 0) && o->radius == o->radius_max &&
           !o->use_speed;
}

/* The axes msd counts: all but x, along the flow, under shear
 * (displacement.h). */
static int msd_axes(const run_options *o)
{
    return o->dim - (o->shear != 0.0);
}

/* msd / (2 d t): along every axis counted, so a walled axis makes it
 * meaningless. */
static double self_diffusion(const run_options *o, const run_result *r)
{
    for (int d = 0; d < o->dim; d++)
        if (o->boundary[d] != CAROM_BOUNDARY_PERIODIC)
            return NAN;
    double t = r->end_time - r->start_time;
    return t > 0.0 ? r->mean_square_displacement / (2.0 * msd_axes(o) * t) : NAN;
}

/* Enskog's D for the scene: equal smooth spheres of mass 1 in
 * equilibrium (rough ones diffuse otherwise); under shear, at the run's
 * mean temperature relative to the profile, the slowly sheared limit
 * (equal spheres that all meet, elastic and smooth, as the viscosity's). */
static int enskog_applies(const run_options *o)
{
    if (o->shear != 0.0)
        return !o->init && o->radius == o->radius_max && o->pass_through.n == 0 &&
               pairs_elastic(o) && pairs_keep_structure(o, 1);
    return report_reference_applies(o) && !o->init && pairs_keep_structure(o, 1);
}

static double enskog(const run_options *o, const run_result *r)
{
    double kt = o->shear != 0.0 ? r->shear_temperature
                                : 0.5 * (r->temperature_initial + r->temperature_final);
    return displacement_enskog(o->dim, options_packing_measured(o), o->radius, kt, 1.0);
}

/* shear=: the viscosity from the heat where contacts keep the energy
 * (elastic and smooth: spins would take energy the heat does not see);
 * Enskog's at the run's mean temperature relative to the profile, for
 * equal spheres of mass 1 that all meet. */
static double reported_shear_viscosity(const run_options *o, const run_result *r)
{
    return pairs_elastic(o) && pairs_keep_structure(o, 1) ? r->shear_viscosity : NAN;
}

static double shear_viscosity_error(const run_options *o, const run_result *r)
{
    return isfinite(reported_shear_viscosity(o, r)) ? r->shear_viscosity_error : NAN;
}

static double shear_enskog(const run_options *o, const run_result *r)
{
    if (!isfinite(reported_shear_viscosity(o, r)) || o->init || o->radius != o->radius_max ||
        o->pass_through.n > 0)
        return NAN;
    return carom_viscosity_enskog(o->dim, options_packing_measured(o), 2.0 * o->radius,
                                  r->shear_temperature, 1.0);
}

/* The sheared run's pressure tensor where every contact is smooth (a
 * rough one's impulse is not along its normal). */
static const shear_pressure *reported_shear_pressure(const run_options *o, const run_result *r)
{
    return pairs_keep_structure(o, 1) && r->shear_pressure.tensor[0] == r->shear_pressure.tensor[0]
               ? &r->shear_pressure
               : NULL;
}

static void print_value_error(FILE *out, const char *name, double value, double error)
{
    fprintf(out, "%s %.5g", name, value);
    if (isfinite(error))
        fprintf(out, " ± %.3g", error);
}

static void print_shear_pressure(const run_options *o, const run_result *r, FILE *out)
{
    const shear_pressure *p = reported_shear_pressure(o, r);
    if (!p)
        return;
    fprintf(out, "  pressure tensor    xx %.5g, yy %.5g%s", p->tensor[0], p->tensor[1],
            o->dim == 3 ? ", zz " : "");
    if (o->dim == 3)
        fprintf(out, "%.5g", p->tensor[2]);
    fprintf(out, ", xy %.5g\n  normal stresses   ", p->tensor[3]);
    print_value_error(out, " N1 = Pxx - Pyy", p->n1, p->n1_error);
    if (o->dim == 3)
        print_value_error(out, ", N2 = Pyy - Pzz", p->n2, p->n2_error);
    print_value_error(out, "; -Pxy/rate", p->eta, p->eta_error);
    fputc('\n', out);
}

static void print_shear(const run_options *o, const run_result *r, FILE *out)
{
    fprintf(out, "  shear              rate %g (Lees-Edwards), kT %.5g relative to the profile",
            o->shear, r->shear_temperature);
    if (r->shear_interval > 0.0 && o->thermostat > 0.0)
        fprintf(out, " (kept by the thermostat; measured every %.3g)", r->shear_interval);
    else if (r->shear_interval > 0.0)
        fprintf(out, " (rescaled every %.3g: %llu times)", r->shear_interval,
                (unsigned long long)r->shear_rescales);
    fprintf(out, "\n");
    double eta = reported_shear_viscosity(o, r);
    if (!isfinite(eta)) {
        fprintf(out, "  shear viscosity    none (contacts that lose energy, or rough ones)\n");
        return;
    }
    fprintf(out, "  shear viscosity    %.5g", eta);
    if (isfinite(r->shear_viscosity_error))
        fprintf(out, " ± %.3g", r->shear_viscosity_error);
    if (isfinite(shear_enskog(o, r)))
        fprintf(out, " (Enskog %.5g)", shear_enskog(o, r));
    fprintf(out, ", from the heat %.6g%s\n", r->shear_heat,
            o->thermostat > 0.0 ? " (less what the bath gave)" : "");
    print_shear_pressure(o, r, out);
}

static void print_diffusion(const run_options *o, const run_result *r, FILE *out)
{
    fprintf(out, "  msd%s %.6g over t = %g",
            o->shear == 0.0 ? "               " : o->dim == 3 ? " (y, z)        " : " (y)           ",
            r->mean_square_displacement, r->end_time - r->start_time);
    double d = self_diffusion(o, r);
    if (isfinite(d) && o->shear != 0.0)
        fprintf(out, "  (D across the flow = msd/(2 %d t) = %.5g", msd_axes(o), d);
    else if (isfinite(d))
        fprintf(out, "  (D = msd/(2 dim t) = %.5g", d);
    if (isfinite(d) && enskog_applies(o))
        fprintf(out, "; Enskog: %.5g, ratio %.3f", enskog(o, r), d / enskog(o, r));
    fprintf(out, "%s\n", isfinite(d) ? ")" : "");
}

/* One of Enskog's transport coefficients (carom_viscosity_enskog,
 * carom_bulk_viscosity_enskog, carom_conductivity_enskog). */
typedef double enskog_fn(int dim, double packing, double sigma, double kT, double mass);

/* Enskog's coefficient f for the scene, under the conditions of his D
 * (equal smooth spheres or disks in an elastic fluid; NaN otherwise):
 * sigma = 2 radius, mass 1, at the run's mean temperature. */
static double transport_enskog(const run_options *o, const run_result *r, enskog_fn *f)
{
    if (!enskog_applies(o))
        return NAN;
    double kt = 0.5 * (r->temperature_initial + r->temperature_final);
    return f(o->dim, options_packing_measured(o), 2.0 * o->radius, kt, 1.0);
}

/* "  NAME  value ± error at lag L (Enskog E) -> FILE"; where the error is
 * undefined (the bulk viscosity's with fewer than three windows of the
 * lag in the run) the line says so instead. */
static void print_transport(const char *name, double value, double error, double lag,
                            double enskog_value, const char *file, FILE *out)
{
    if (isfinite(error))
        fprintf(out, "  %-18s %.4g ± %.4g at lag %g", name, value, error, lag);
    else
        fprintf(out, "  %-18s %.4g (no error: too few windows of the lag) at lag %g", name, value,
                lag);
    if (isfinite(enskog_value))
        fprintf(out, " (Enskog %.4g)", enskog_value);
    fprintf(out, file ? " -> %s\n" : "\n", file);
}

/* g(sigma) from the collisional pressure: Z - 1 = 4 eta g in 3D, 2 eta g
 * in 2D (equal spheres in equilibrium). */
static double contact_from_pressure(const run_options *o, const run_result *r)
{
    if (!report_reference_applies(o) || !isfinite(r->rdf_contact))
        return NAN;
    double eta = options_packing_measured(o);
    return (r->compressibility - 1.0) / ((o->dim == 2 ? 2.0 : 4.0) * eta);
}

static double contact_reference(const run_options *o, const run_result *r)
{
    if (!report_reference_applies(o) || !isfinite(r->rdf_contact))
        return NAN;
    return report_reference_contact(o->dim, options_packing_measured(o));
}

static void print_structure(const run_options *o, const run_result *r, FILE *out)
{
    fprintf(out, "  g(r)               %zu samples up to r = %g, bins of %.4g", r->rdf_samples,
            r->rdf_max, r->rdf_bin);
    fprintf(out, o->rdf_file ? " -> %s\n" : "\n", o->rdf_file);
    if (!isfinite(r->rdf_contact))
        return;
    fprintf(out, "  contact value      g(sigma+) = %.4g", r->rdf_contact);
    if (isfinite(contact_from_pressure(o, r)))
        fprintf(out, "  (from Z: %.4g; %s: %.4g)", contact_from_pressure(o, r),
                o->dim == 2 ? "Henderson" : "Carnahan-Starling", contact_reference(o, r));
    fputc('\n', out);
}

static double collision_rate(const run_result *r)
{
    return r->wall_seconds > 0.0 ? (double)r->stats.collisions / r->wall_seconds : 0.0;
}

static double relative_drift(const run_result *r)
{
    if (!(r->kinetic_energy_initial > 0.0))
        return r->kinetic_energy_final == r->kinetic_energy_initial ? 0.0 : NAN;
    return (r->kinetic_energy_final - r->kinetic_energy_initial) / r->kinetic_energy_initial;
}

/* Relative change of the total energy, translation and rotation. */
static double total_drift(const run_result *r)
{
    double before = r->kinetic_energy_initial + r->rotational_energy_initial;
    double after = r->kinetic_energy_final + r->rotational_energy_final;
    if (!(before > 0.0))
        return after == before ? 0.0 : NAN;
    return (after - before) / before;
}

/* "0-1, 1-1" (pass_through='s or sense='s pairs, v), into text. */
static void pairs_text(const species_values *v, char *text, size_t size)
{
    size_t used = 0;
    text[0] = '\0';
    for (int q = 0; q < v->n && used < size; q++) {
        int w = snprintf(text + used, size - used, "%s%d-%d", q ? ", " : "", v->who[q][0],
                         v->who[q][1]);
        if (w < 0)
            break;
        used += (size_t)w;
    }
}

static void print_species(const run_options *o, FILE *out)
{
    fprintf(out, "  species            %d (", o->species);
    for (int k = 0; k < o->species; k++)
        fprintf(out, "%s%zu", k ? ", " : "", o->species_count[k]);
    fprintf(out, " %s)", o->dim == 2 ? "disks" : "spheres");
    char text[RUN_PASS_MAX * 8];
    if (o->pass_through.n > 0) {
        pairs_text(&o->pass_through, text, sizeof text);
        fprintf(out, "; passing through each other: %s", text);
    }
    if (o->sense.n > 0) {
        pairs_text(&o->sense, text, sizeof text);
        fprintf(out, "; sensing each other: %s", text);
    }
    fputc('\n', out);
}

/* One line: pair_restitution='s pairs and species_wall_restitution='s
 * species, and what the others keep. */
static void print_restitution(const run_options *o, FILE *out)
{
    const species_values *pairs = &o->pair_restitution, *walls = &o->species_wall_restitution;
    fputs("  restitution       ", out);
    if (pairs->n > 0) {
        fputs(" pairs", out);
        for (int q = 0; q < pairs->n; q++)
            fprintf(out, "%s %d-%d: %g", q ? "," : "", pairs->who[q][0], pairs->who[q][1],
                    pairs->value[q][0]);
        fprintf(out, " (the others %g)%s", o->restitution, walls->n > 0 ? ";" : "");
    }
    if (walls->n > 0) {
        fputs(" walls: species", out);
        for (int q = 0; q < walls->n; q++)
            fprintf(out, "%s %d: %g", q ? "," : "", walls->who[q][0], walls->value[q][0]);
        fprintf(out, " (the others %g)", o->wall_restitution);
    }
    fputc('\n', out);
}

/* One line: pair_friction='s pairs and species_wall_friction='s species
 * (tangential restitution beta and Coulomb's mu, inf: no limit), and what
 * the others keep. */
static void print_friction(const run_options *o, FILE *out)
{
    const species_values *pairs = &o->pair_friction, *walls = &o->species_wall_friction;
    fputs("  friction          ", out);
    if (pairs->n > 0) {
        fputs(" pairs", out);
        for (int q = 0; q < pairs->n; q++)
            fprintf(out, "%s %d-%d: beta %g mu %g", q ? "," : "", pairs->who[q][0],
                    pairs->who[q][1], pairs->value[q][0], pairs->value[q][1]);
        fprintf(out, " (the others beta %g mu %g)%s", o->tangential_restitution, o->friction,
                walls->n > 0 ? ";" : "");
    }
    if (walls->n > 0) {
        fputs(" walls: species", out);
        for (int q = 0; q < walls->n; q++)
            fprintf(out, "%s %d: beta %g mu %g", q ? "," : "", walls->who[q][0],
                    walls->value[q][0], walls->value[q][1]);
        fprintf(out, " (the others beta %g mu %g)", o->wall_tangential_restitution,
                o->wall_friction);
    }
    fputc('\n', out);
}

static const char *motion_word(const run_options *o)
{
    static const char *const words[] = {"ballistic", "orbits", "forces", "field"};
    return words[o->motion];
}

/* Computing (wall-clock) seconds per simulated second of the measured run. */
static double computing_per_simulated(const run_options *o, const run_result *r)
{
    return o->time > 0.0 ? r->wall_seconds / o->time : NAN;
}

static const char *boundary_word(const run_options *o)
{
    int walls = 0, periodic = 0;
    for (int d = 0; d < o->dim; d++) {
        if (o->boundary[d] == CAROM_BOUNDARY_WALLS)
            walls++;
        else
            periodic++;
    }
    return walls && periodic ? "mixed" : walls ? "walls" : "periodic";
}

void report_summary(FILE *out, const run_options *o, const run_result *r)
{
    const carom_stats *s = &r->stats;
    fprintf(out, "carom %s: %dD, %zu %s", CAROM_VERSION_STRING, o->dim, o->n,
            o->dim == 2 ? "disks" : "spheres");
    if (o->radius == o->radius_max)
        fprintf(out, " of radius %g", o->radius);
    else
        fprintf(out, " of radius %g-%g", o->radius, o->radius_max);
    fprintf(out, ", box %g x %g", o->box[0], o->box[1]);
    if (o->dim == 3)
        fprintf(out, " x %g", o->box[2]);
    fprintf(out, " (%s), packing %.4g", boundary_word(o), o->packing);
    if (o->compress > 0.0)
        fprintf(out, " grown to %.4g", r->packing_compressed);
    if (o->scenario)
        fprintf(out, ", scenario %s", o->scenario);
    fprintf(out, "\n");
    fprintf(out, "  simulated time     %g measured (after %g of equilibration)\n", o->time,
            o->equilibrate);
    fprintf(out, "  collisions         %llu\n", (unsigned long long)s->collisions);
    fprintf(out, "  events             %llu (%llu collisions, %llu wall hits, %llu cell "
                 "crossings, %llu list rebuilds, %llu invalid)\n",
            (unsigned long long)s->events, (unsigned long long)s->collisions,
            (unsigned long long)s->wall_hits, (unsigned long long)s->cell_crossings,
            (unsigned long long)s->list_rebuilds, (unsigned long long)s->invalid_events);
    if (o->motion != MOTION_BALLISTIC)
        fprintf(out, "  driven (%s)%*s %llu bound collisions, %llu bound resets, %llu late "
                     "contacts, %llu bound breaks\n", motion_word(o),
                (int)(9 - strlen(motion_word(o))), "", (unsigned long long)s->bound_collisions,
                (unsigned long long)s->bound_resets, (unsigned long long)s->late_contacts,
                (unsigned long long)s->bound_breaks);
    fprintf(out, "  wall time          %.3f s  (%.4g collisions/s, %.4g s per simulated s)\n",
            r->wall_seconds, collision_rate(r), computing_per_simulated(o, r));
    if (r->stats.prefetch_advances > 0)
        fprintf(out, "  CPU time           %.3f s  (with the loading thread: prefetch=off for one "
                     "thread)\n",
                r->cpu_seconds);
    char error_text[40] = "";
    if (!isnan(r->compressibility_error))
        snprintf(error_text, sizeof error_text, " ± %.2g", r->compressibility_error);
    if (report_reference_applies(o)) {
        double z_ref = report_reference_z(o->dim, options_packing_measured(o));
        fprintf(out, "  Z = PV/NkT         %.5g%s  (%s: %.5g, %+.2f%%)\n", r->compressibility,
                error_text, o->dim == 2 ? "Henderson" : "Carnahan-Starling", z_ref,
                100.0 * (r->compressibility / z_ref - 1.0));
    } else {
        fprintf(out, "  Z = PV/NkT         %.5g%s  (no equilibrium reference for this scene)\n",
                r->compressibility, error_text);
    }
    fprintf(out, "  kinetic energy     %.10g -> %.10g  (relative change %.3g)\n",
            r->kinetic_energy_initial, r->kinetic_energy_final, relative_drift(r));
    if (r->rough) {
        if (o->pair_friction.n > 0 || o->species_wall_friction.n > 0)
            fprintf(out, "  rough spheres      tangential restitution by pair and species "
                         "(friction below), inertia %g m r^2\n",
                    o->inertia_factor);
        else
            fprintf(out, "  rough spheres      tangential restitution %g (%g at walls and "
                         "surfaces), inertia %g m r^2\n",
                    o->tangential_restitution, o->wall_tangential_restitution,
                    o->inertia_factor);
        fprintf(out, "  rotational energy  %.10g -> %.10g  (kT %.5g -> %.5g; total energy "
                     "relative change %.3g)\n",
                r->rotational_energy_initial, r->rotational_energy_final,
                r->rotational_temperature_initial, r->rotational_temperature_final, total_drift(r));
    }
    fprintf(out, "  max overlap        %.3g  (relative to the contact distance)\n",
            r->max_overlap);
    fprintf(out, "  peak memory        %.1f MB\n", (double)peak_rss_bytes() / 1e6);
    if (o->species > 1 || o->pass_through.n > 0 || o->sense.n > 0)
        print_species(o, out);
    if (o->sense.n > 0 && o->response != CAROM_RESPONSE_NONE)
        fprintf(out, "  sensed contacts    %llu (%.4g per unit time)\n",
                (unsigned long long)r->stats.sensed_contacts,
                (double)r->stats.sensed_contacts / (r->end_time - r->start_time));
    if (o->sense.n > 0 && o->response != CAROM_RESPONSE_NONE)
        fprintf(out, "  sensed partings    %llu\n", (unsigned long long)r->stats.sensed_partings);
    if (o->pair_restitution.n > 0 || o->species_wall_restitution.n > 0)
        print_restitution(o, out);
    if (o->pair_friction.n > 0 || o->species_wall_friction.n > 0)
        print_friction(o, out);
    if (o->thermostat > 0.0)
        fprintf(out, "  thermostat         Andersen, kT = %g, rate %g per sphere: %llu velocities "
                     "redrawn\n",
                o->temperature, o->thermostat, (unsigned long long)r->thermostat_redraws);
    if (o->msd)
        print_diffusion(o, r, out);
    if (o->shear != 0.0)
        print_shear(o, r, out);
    if (o->nplanes)
        fprintf(out, "  planes             %d fixed (%zu spheres of the placement left out behind "
                     "them)\n",
                o->nplanes, o->behind_planes);
    if (o->nsegments)
        fprintf(out, "  segments           %d fixed (%zu disks of the placement left out on "
                     "them)\n",
                o->nsegments, o->on_segments);
    if (o->segments_file)
        fprintf(out, "  segments_file      %s: %zu segments\n", o->segments_file,
                o->segments_from_file);
    if (o->ntriangles)
        fprintf(out,
                "  triangles          %d fixed (%zu spheres of the placement left out on "
                "them)\n",
                o->ntriangles, o->on_triangles);
    if (o->mesh)
        fprintf(out,
                "  mesh               %s: %zu triangles (%zu faces without an area and %zu "
                "points or lines skipped)\n",
                o->mesh, o->mesh_loaded.triangles, o->mesh_loaded.degenerate,
                o->mesh_loaded.points_lines);
    if (o->rdf)
        print_structure(o, r, out);
    if (o->viscosity)
        print_transport("viscosity", r->viscosity, r->viscosity_error, r->transport_lag,
                        transport_enskog(o, r, carom_viscosity_enskog), o->viscosity_file, out);
    if (o->bulk_viscosity)
        print_transport("bulk viscosity", r->bulk_viscosity, r->bulk_viscosity_error,
                        r->transport_lag, transport_enskog(o, r, carom_bulk_viscosity_enskog),
                        o->bulk_viscosity_file, out);
    if (o->conductivity)
        print_transport("conductivity", r->conductivity, r->conductivity_error, r->transport_lag,
                        transport_enskog(o, r, carom_conductivity_enskog), o->conductivity_file,
                        out);
    if (o->trajectory)
        fprintf(out, "  trajectory         %s (%ld frames)\n", o->trajectory, r->frames);
    if (o->collision_log)
        fprintf(out, "  collision log      %s\n", o->collision_log);
    if (o->final)
        fprintf(out, "  final state        %s\n", o->final);
}

/* ---- JSON ---- */

static void json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c < 0x20)
            fprintf(out, "\\u%04x", c);
        else
            fputc(c, out);
    }
    fputc('"', out);
}

static void json_number(FILE *out, double x)
{
    if (isfinite(x))
        fprintf(out, "%.17g", x);
    else
        fputs("null", out);
}

static void json_key(FILE *out, const char *key, int *first)
{
    fputs(*first ? "\n  " : ",\n  ", out);
    *first = 0;
    json_string(out, key);
    fputs(": ", out);
}

static void json_num(FILE *out, const char *key, double x, int *first)
{
    json_key(out, key, first);
    json_number(out, x);
}

static void json_int(FILE *out, const char *key, unsigned long long x, int *first)
{
    json_key(out, key, first);
    fprintf(out, "%llu", x);
}

static void json_str(FILE *out, const char *key, const char *s, int *first)
{
    json_key(out, key, first);
    if (s)
        json_string(out, s);
    else
        fputs("null", out);
}

static void json_vector(FILE *out, const char *key, const double *v, int n, int *first)
{
    json_key(out, key, first);
    fputc('[', out);
    for (int d = 0; d < n; d++) {
        if (d)
            fputs(", ", out);
        json_number(out, v[d]);
    }
    fputc(']', out);
}

/* A symmetric tensor's parts (shear.h) as dim rows of dim numbers. */
static void json_shear_tensor(FILE *out, const char *key, const double parts[SHEAR_PARTS],
                              int dim, int *first)
{
    static const int part[3][3] = {{0, 3, 4}, {3, 1, 5}, {4, 5, 2}};
    json_key(out, key, first);
    fputc('[', out);
    for (int a = 0; a < dim; a++) {
        fputs(a ? ", [" : "[", out);
        for (int b = 0; b < dim; b++) {
            if (b)
                fputs(", ", out);
            json_number(out, parts[part[a][b]]);
        }
        fputc(']', out);
    }
    fputc(']', out);
}

/* key: v's items, each [a, b] for a pair (pairs) or [s] for a species,
 * then its `numbers` numbers. */
static void json_species_values(FILE *out, const char *key, const species_values *v, int pairs,
                                int numbers, int *first)
{
    json_key(out, key, first);
    fputc('[', out);
    for (int q = 0; q < v->n; q++) {
        fprintf(out, "%s[%d", q ? ", " : "", v->who[q][0]);
        if (pairs)
            fprintf(out, ", %d", v->who[q][1]);
        for (int k = 0; k < numbers; k++) {
            fputs(", ", out);
            json_number(out, v->value[q][k]);
        }
        fputc(']', out);
    }
    fputc(']', out);
}

void report_json(FILE *out, const run_options *o, const run_result *r)
{
    const carom_stats *s = &r->stats;
    int first = 1;
    fputc('{', out);
    json_str(out, "version", CAROM_VERSION_STRING, &first);
    json_int(out, "dim", (unsigned long long)o->dim, &first);
    json_int(out, "n", (unsigned long long)o->n, &first);
    json_num(out, "sim_time", o->time, &first); /* the world ran exactly to start + time */
    json_num(out, "equilibrate", o->equilibrate, &first);
    json_num(out, "start_time", r->start_time, &first);
    json_num(out, "end_time", r->end_time, &first);
    json_int(out, "collisions", s->collisions, &first);
    json_int(out, "events", s->events, &first);
    json_key(out, "events_by_type", &first);
    /* Seed 000's event types (cell crossings are its entering and leaving
     * events); "invalid" is the older name of invalid_events. */
    fprintf(out, "{\"collisions\": %llu, \"wall_hits\": %llu, \"cell_crossings\": %llu, "
                 "\"list_rebuilds\": %llu, "
                 "\"bound_resets\": %llu, \"bound_collisions\": %llu, "
                 "\"late_contacts\": %llu, \"bound_breaks\": %llu, \"invalid_events\": %llu, "
                 "\"invalid\": %llu}",
            (unsigned long long)s->collisions, (unsigned long long)s->wall_hits,
            (unsigned long long)s->cell_crossings, (unsigned long long)s->list_rebuilds,
            (unsigned long long)s->bound_resets,
            (unsigned long long)s->bound_collisions, (unsigned long long)s->late_contacts,
            (unsigned long long)s->bound_breaks, (unsigned long long)s->invalid_events,
            (unsigned long long)s->invalid_events);
    json_num(out, "wall_seconds", r->wall_seconds, &first);
    json_num(out, "cpu_seconds", r->cpu_seconds, &first);
    json_key(out, "prefetch_thread", &first);
    fputs(s->prefetch_advances > 0 ? "true" : "false", out);
    json_key(out, "reorders", &first);
    fprintf(out, "%llu", (unsigned long long)s->reorders);
    json_num(out, "list_skin", r->list_skin, &first);
    json_num(out, "collisions_per_second", collision_rate(r), &first);
    json_num(out, "computing_seconds_per_simulated_second", computing_per_simulated(o, r),
             &first);
    json_num(out, "events_per_second",
             r->wall_seconds > 0.0 ? (double)s->events / r->wall_seconds : 0.0, &first);
    json_num(out, "equilibrate_wall_seconds", r->equilibrate_wall_seconds, &first);
    json_num(out, "kinetic_energy_initial", r->kinetic_energy_initial, &first);
    json_num(out, "kinetic_energy_final", r->kinetic_energy_final, &first);
    json_num(out, "kinetic_energy_relative_change", relative_drift(r), &first);
    json_num(out, "temperature_initial", r->temperature_initial, &first);
    json_num(out, "temperature_final", r->temperature_final, &first);
    if (r->rough) {
        json_num(out, "rotational_energy_initial", r->rotational_energy_initial, &first);
        json_num(out, "rotational_energy_final", r->rotational_energy_final, &first);
        json_num(out, "rotational_temperature_initial", r->rotational_temperature_initial, &first);
        json_num(out, "rotational_temperature_final", r->rotational_temperature_final, &first);
        json_num(out, "energy_relative_change", total_drift(r), &first);
    }
    json_vector(out, "momentum_final", r->momentum_final, o->dim, &first);
    json_num(out, "compressibility", r->compressibility, &first);
    json_num(out, "compressibility_error", r->compressibility_error, &first);
    json_num(out, "pressure_blocks", (double)r->pressure_blocks, &first);
    json_num(out, "compressibility_reference",
             report_reference_applies(o) ? report_reference_z(o->dim, options_packing_measured(o)) : NAN,
             &first);
    json_num(out, "max_overlap", r->max_overlap, &first);
    if (o->shear != 0.0) {
        json_num(out, "shear_rate", o->shear, &first);
        json_num(out, "shear_interval", r->shear_interval, &first);
        json_num(out, "shear_offset", r->shear_offset, &first);
        json_num(out, "shear_rescales", (double)r->shear_rescales, &first);
        json_num(out, "shear_temperature", r->shear_temperature, &first);
        json_num(out, "shear_heat", r->shear_heat, &first);
        json_num(out, "shear_viscosity", reported_shear_viscosity(o, r), &first);
        json_num(out, "shear_viscosity_error", shear_viscosity_error(o, r), &first);
        json_num(out, "shear_viscosity_enskog", shear_enskog(o, r), &first);
        const shear_pressure *p = reported_shear_pressure(o, r);
        double none[SHEAR_PARTS] = {NAN, NAN, NAN, NAN, NAN, NAN};
        json_shear_tensor(out, "shear_pressure_tensor", p ? p->tensor : none, o->dim, &first);
        json_num(out, "shear_normal_stress_1", p ? p->n1 : NAN, &first);
        json_num(out, "shear_normal_stress_1_error", p ? p->n1_error : NAN, &first);
        json_num(out, "shear_normal_stress_2", p ? p->n2 : NAN, &first);
        json_num(out, "shear_normal_stress_2_error", p ? p->n2_error : NAN, &first);
        json_num(out, "shear_viscosity_virial", p ? p->eta : NAN, &first);
        json_num(out, "shear_viscosity_virial_error", p ? p->eta_error : NAN, &first);
    }
    if (o->thermostat > 0.0) {
        json_num(out, "thermostat_rate", o->thermostat, &first);
        json_num(out, "thermostat_redraws", (double)r->thermostat_redraws, &first);
    }
    if (o->msd) {
        json_num(out, "mean_square_displacement", r->mean_square_displacement, &first);
        json_num(out, "self_diffusion", self_diffusion(o, r), &first);
        json_num(out, "self_diffusion_enskog", enskog_applies(o) ? enskog(o, r) : NAN, &first);
    }
    if (o->nplanes) {
        json_int(out, "planes", (unsigned long long)o->nplanes, &first);
        json_int(out, "behind_planes", (unsigned long long)o->behind_planes, &first);
    }
    if (o->nsegments) {
        json_int(out, "segments", (unsigned long long)o->nsegments, &first);
        json_int(out, "on_segments", (unsigned long long)o->on_segments, &first);
    }
    if (o->segments_file) {
        /* The file and its segments (among `segments`, after segments='s). */
        json_key(out, "segments_file", &first);
        fputs("{\"file\": ", out);
        json_string(out, o->segments_file);
        fprintf(out, ", \"segments\": %zu}", o->segments_from_file);
    }
    if (o->ntriangles) {
        json_int(out, "triangles", (unsigned long long)o->ntriangles, &first);
        json_int(out, "on_triangles", (unsigned long long)o->on_triangles, &first);
    }
    if (o->mesh) {
        /* The file, its triangles loaded (among `triangles`), the faces
         * skipped and the bounds of the loaded corners. */
        const mesh_stats *m = &o->mesh_loaded;
        json_key(out, "mesh", &first);
        fputs("{\"file\": ", out);
        json_string(out, o->mesh);
        fprintf(out,
                ", \"triangles\": %zu, \"degenerate\": %zu, \"points_lines\": %zu, "
                "\"faces\": %zu, \"scale\": ",
                m->triangles, m->degenerate, m->points_lines, m->faces);
        json_number(out, o->mesh_scale);
        for (int b = 0; b < 3; b++) {
            const double *v = b == 0 ? o->mesh_shift : b == 1 ? m->lower : m->upper;
            fprintf(out, ", \"%s\": [", b == 0 ? "shift" : b == 1 ? "lower" : "upper");
            for (int d = 0; d < 3; d++) {
                if (d)
                    fputs(", ", out);
                json_number(out, v[d]);
            }
            fputc(']', out);
        }
        fputc('}', out);
    }
    if (o->rdf) {
        json_int(out, "rdf_samples", (unsigned long long)r->rdf_samples, &first);
        json_num(out, "rdf_max", r->rdf_max, &first);
        json_num(out, "rdf_bin", r->rdf_bin, &first);
        json_num(out, "rdf_seconds", r->rdf_seconds, &first);
        json_num(out, "rdf_contact", r->rdf_contact, &first);
        json_num(out, "rdf_contact_from_pressure", contact_from_pressure(o, r), &first);
        json_num(out, "rdf_contact_reference", contact_reference(o, r), &first);
        json_str(out, "rdf_file", o->rdf_file, &first);
    }
    if (options_transport(o)) {
        /* eta, kappa and/or lambda at the lag, from samples of the stress
         * and heat integrals every interval (the same instants for all) */
        json_num(out, "transport_lag", r->transport_lag, &first);
        json_num(out, "transport_interval", o->transport_interval, &first);
        json_int(out, "transport_samples", (unsigned long long)r->transport_samples, &first);
        json_num(out, "transport_seconds", r->transport_seconds, &first);
    }
    if (o->viscosity) {
        json_num(out, "viscosity", r->viscosity, &first);
        json_num(out, "viscosity_error", r->viscosity_error, &first);
        json_num(out, "viscosity_enskog", transport_enskog(o, r, carom_viscosity_enskog),
                 &first);
        json_str(out, "viscosity_file", o->viscosity_file, &first);
    }
    if (o->bulk_viscosity) {
        json_num(out, "bulk_viscosity", r->bulk_viscosity, &first);
        json_num(out, "bulk_viscosity_error", r->bulk_viscosity_error, &first);
        json_num(out, "bulk_viscosity_enskog",
                 transport_enskog(o, r, carom_bulk_viscosity_enskog), &first);
        json_str(out, "bulk_viscosity_file", o->bulk_viscosity_file, &first);
    }
    if (o->conductivity) {
        json_num(out, "conductivity", r->conductivity, &first);
        json_num(out, "conductivity_error", r->conductivity_error, &first);
        json_num(out, "conductivity_enskog", transport_enskog(o, r, carom_conductivity_enskog),
                 &first);
        json_str(out, "conductivity_file", o->conductivity_file, &first);
    }
    json_num(out, "virial", s->virial, &first);
    json_num(out, "wall_momentum", s->wall_momentum, &first);
    long long rss = peak_rss_bytes();
    json_num(out, "peak_rss_bytes", rss >= 0 ? (double)rss : NAN, &first);
    json_num(out, "packing", o->packing, &first);
    if (o->compress > 0.0) {
        json_num(out, "packing_compressed", r->packing_compressed, &first);
        json_num(out, "compress_rate", o->compress_rate, &first);
        json_num(out, "compress_seconds", r->compress_seconds, &first);
    }
    /* The temperature velocities were drawn at, or else the one measured. */
    int drawn = !o->use_speed && (!o->init || o->temperature_given);
    json_num(out, "temperature", drawn ? o->temperature : r->temperature_initial, &first);
    json_int(out, "seed", (unsigned long long)o->seed, &first);
    json_vector(out, "box", o->box, o->dim, &first);
    json_str(out, "boundary", boundary_word(o), &first);
    json_num(out, "radius", o->radius, &first);
    json_num(out, "radius_max", o->radius_max, &first);
    json_vector(out, "gravity", o->gravity, o->dim, &first);
    json_num(out, "restitution", o->restitution, &first);
    json_num(out, "wall_restitution", o->wall_restitution, &first);
    json_num(out, "tangential_restitution", o->tangential_restitution, &first);
    json_num(out, "wall_tangential_restitution", o->wall_tangential_restitution, &first);
    json_num(out, "inertia_factor", o->inertia_factor, &first);
    json_num(out, "friction", o->friction, &first); /* null: no limit */
    json_num(out, "wall_friction", o->wall_friction, &first);
    json_str(out, "response", o->response == CAROM_RESPONSE_NONE ? "none" : "elastic", &first);
    json_int(out, "species", (unsigned long long)o->species, &first);
    json_key(out, "species_counts", &first);
    fputc('[', out);
    for (int k = 0; k < o->species; k++)
        fprintf(out, "%s%zu", k ? ", " : "", o->species_count[k]);
    fputc(']', out);
    /* [a, b] (a <= b): the pairs passing through each other. [a, b, e]
     * and [s, e]: the pairs and species given their own restitution, the
     * others keep restitution and wall_restitution. [a, b, beta, mu] and
     * [s, beta, mu] (mu null: no limit): the pairs and species given
     * their own friction; the others keep tangential_restitution and
     * friction, wall_tangential_restitution and wall_friction. */
    json_species_values(out, "pass_through", &o->pass_through, 1, 0, &first);
    json_species_values(out, "sense", &o->sense, 1, 0, &first);
    if (o->sense.n > 0) /* their contacts in the measured run (not among the collisions) */
        json_int(out, "sensed_contacts", s->sensed_contacts, &first);
    if (o->sense.n > 0) /* and the partings of sensing pairs in contact */
        json_int(out, "sensed_partings", s->sensed_partings, &first);
    json_species_values(out, "pair_restitution", &o->pair_restitution, 1, 1, &first);
    json_species_values(out, "species_wall_restitution", &o->species_wall_restitution, 0, 1,
                        &first);
    json_species_values(out, "pair_friction", &o->pair_friction, 1, 2, &first);
    json_species_values(out, "species_wall_friction", &o->species_wall_friction, 0, 2, &first);
    if (o->species > 1) /* each species' kT at the end (null: none of it) */
        json_vector(out, "species_temperature", r->species_temperature_final, o->species,
                    &first);
    json_str(out, "motion", motion_word(o), &first);
    if (o->motion == MOTION_ORBITS)
        json_str(out, "orbits", o->orbits, &first);
    if (o->motion == MOTION_FORCES || o->motion == MOTION_FIELD) {
        double bounds[2] = {o->accel_min, o->accel_max};
        json_vector(out, "accel_bound", bounds, 2, &first);
    }
    if (o->motion == MOTION_FORCES)
        json_num(out, "force_interval", o->force_interval, &first);
    if (o->motion == MOTION_FIELD) {
        json_num(out, "field_speed", o->field_speed, &first);
        json_num(out, "field_gain", o->field_gain, &first);
        json_num(out, "field_step", o->field_step, &first);
    }
    json_str(out, "scenario", o->scenario, &first);
    json_str(out, "init", o->init, &first);
    json_int(out, "frames", (unsigned long long)r->frames, &first);
    fputs("\n}\n", out);
}
