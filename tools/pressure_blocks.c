/* Z's error by block averaging (see pressure_blocks.h). */
#include "pressure_blocks.h"

#include <math.h>

#define FIRST_BLOCK_EVENTS 512
#define LEAST_BLOCKS 16

/* The weight of the run so far: its duration, or with a bath the time
 * integral of the world's energy (carom_andersen_energy_given). */
static double weight_now(const pressure_blocks *b, const carom_world *w)
{
    double now = carom_world_time(w);
    if (!b->bath)
        return now - b->time_start;
    double given, moment;
    carom_andersen_energy_given(b->bath, &given, &moment);
    return b->energy_start * (now - b->time_start) + (given - b->given_start) * now -
           (moment - b->moment_start);
}

void pressure_blocks_start(pressure_blocks *b, const carom_world *w, const carom_andersen *bath)
{
    carom_stats s;
    carom_world_get_stats(w, &s);
    b->per_block = FIRST_BLOCK_EVENTS;
    b->events_closed = s.events;
    b->virial_closed = s.virial;
    b->count = 0;
    b->bath = bath;
    b->time_start = carom_world_time(w);
    b->energy_start = bath ? carom_world_kinetic_energy(w) + carom_world_rotational_energy(w) : 0.0;
    b->given_start = b->moment_start = 0.0;
    if (bath)
        carom_andersen_energy_given(bath, &b->given_start, &b->moment_start);
    b->weight_closed = 0.0;
}

uint64_t pressure_blocks_budget(const pressure_blocks *b, const carom_world *w)
{
    carom_stats s;
    carom_world_get_stats(w, &s);
    uint64_t done = s.events - b->events_closed;
    return done < b->per_block ? b->per_block - done : 1;
}

void pressure_blocks_note(pressure_blocks *b, const carom_world *w)
{
    carom_stats s;
    carom_world_get_stats(w, &s);
    if (s.events - b->events_closed < b->per_block)
        return;
    double weight = weight_now(b, w);
    b->weight[b->count] = weight - b->weight_closed;
    b->virial[b->count] = s.virial - b->virial_closed;
    b->count++;
    b->events_closed = s.events;
    b->weight_closed = weight;
    b->virial_closed = s.virial;
    if (b->count < PRESSURE_BLOCKS_MAX)
        return;
    for (int k = 0; k < PRESSURE_BLOCKS_MAX / 2; k++) {
        b->weight[k] = b->weight[2 * k] + b->weight[2 * k + 1];
        b->virial[k] = b->virial[2 * k] + b->virial[2 * k + 1];
    }
    b->count = PRESSURE_BLOCKS_MAX / 2;
    b->per_block *= 2;
}

double pressure_blocks_z(const pressure_blocks *b, const carom_world *w)
{
    if (!b->bath)
        return NAN;
    carom_stats s;
    carom_world_get_stats(w, &s);
    int d = carom_world_dim(w);
    int f = d + (carom_world_is_rough(w) ? (d == 2 ? 1 : 3) : 0);
    double integral = weight_now(b, w);
    return integral > 0.0 ? 1.0 + f * s.virial / (2.0 * d * integral) : NAN;
}

/* The standard error of the mean of Z over groups of `size` consecutive
 * blocks (the remainder joining the last group); z is their mean. */
static double group_error(const double *weight, const double *virial, int count, int size,
                          double z, double virial_rate)
{
    int groups = count / size;
    double sum = 0.0;
    for (int g = 0; g < groups; g++) {
        int end = g == groups - 1 ? count : (g + 1) * size;
        double d = 0.0, v = 0.0;
        for (int k = g * size; k < end; k++) {
            d += weight[k];
            v += virial[k];
        }
        if (!(d > 0.0))
            return NAN;
        double zg = virial_rate != 0.0 ? 1.0 + (z - 1.0) * (v / d) / virial_rate : 1.0;
        sum += (zg - z) * (zg - z);
    }
    return sqrt(sum / ((double)groups * (groups - 1)));
}

double pressure_blocks_error(const pressure_blocks *b, const carom_world *w, double z,
                             int *blocks)
{
    double weight[PRESSURE_BLOCKS_MAX], virial[PRESSURE_BLOCKS_MAX];
    int count = b->count;
    for (int k = 0; k < count; k++) {
        weight[k] = b->weight[k];
        virial[k] = b->virial[k];
    }
    carom_stats s;
    carom_world_get_stats(w, &s);
    uint64_t partial = s.events - b->events_closed;
    double d = weight_now(b, w) - b->weight_closed, v = s.virial - b->virial_closed;
    if (partial >= b->per_block / 2 || count == 0) {
        weight[count] = d;
        virial[count] = v;
        count++;
    } else {
        weight[count - 1] += d;
        virial[count - 1] += v;
    }
    *blocks = count;
    if (!isfinite(z) || count < LEAST_BLOCKS)
        return NAN;
    double total_weight = 0.0, total_virial = 0.0;
    for (int k = 0; k < count; k++) {
        total_weight += weight[k];
        total_virial += virial[k];
    }
    if (!(total_weight > 0.0))
        return NAN;
    double rate = total_virial / total_weight, error = 0.0;
    for (int size = 1; size <= 4; size *= 2) {
        double e = group_error(weight, virial, count, size, z, rate);
        if (isnan(e))
            return NAN;
        error = fmax(error, e);
    }
    return error;
}
