/* Z's error by block averaging (see pressure_blocks.h). */
#include "pressure_blocks.h"

#include <math.h>

#define FIRST_BLOCK_EVENTS 512
#define LEAST_BLOCKS 16

void pressure_blocks_start(pressure_blocks *b, const carom_world *w)
{
    carom_stats s;
    carom_world_get_stats(w, &s);
    b->per_block = FIRST_BLOCK_EVENTS;
    b->events_closed = s.events;
    b->time_closed = carom_world_time(w);
    b->virial_closed = s.virial;
    b->count = 0;
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
    double now = carom_world_time(w);
    b->duration[b->count] = now - b->time_closed;
    b->virial[b->count] = s.virial - b->virial_closed;
    b->count++;
    b->events_closed = s.events;
    b->time_closed = now;
    b->virial_closed = s.virial;
    if (b->count < PRESSURE_BLOCKS_MAX)
        return;
    for (int k = 0; k < PRESSURE_BLOCKS_MAX / 2; k++) {
        b->duration[k] = b->duration[2 * k] + b->duration[2 * k + 1];
        b->virial[k] = b->virial[2 * k] + b->virial[2 * k + 1];
    }
    b->count = PRESSURE_BLOCKS_MAX / 2;
    b->per_block *= 2;
}

/* The standard error of the mean of Z over groups of `size` consecutive
 * blocks (the remainder joining the last group); z is their mean. */
static double group_error(const double *duration, const double *virial, int count, int size,
                          double z, double virial_rate)
{
    int groups = count / size;
    double sum = 0.0;
    for (int g = 0; g < groups; g++) {
        int end = g == groups - 1 ? count : (g + 1) * size;
        double d = 0.0, v = 0.0;
        for (int k = g * size; k < end; k++) {
            d += duration[k];
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
    double duration[PRESSURE_BLOCKS_MAX], virial[PRESSURE_BLOCKS_MAX];
    int count = b->count;
    for (int k = 0; k < count; k++) {
        duration[k] = b->duration[k];
        virial[k] = b->virial[k];
    }
    carom_stats s;
    carom_world_get_stats(w, &s);
    uint64_t partial = s.events - b->events_closed;
    double d = carom_world_time(w) - b->time_closed, v = s.virial - b->virial_closed;
    if (partial >= b->per_block / 2 || count == 0) {
        duration[count] = d;
        virial[count] = v;
        count++;
    } else {
        duration[count - 1] += d;
        virial[count - 1] += v;
    }
    *blocks = count;
    if (!isfinite(z) || count < LEAST_BLOCKS)
        return NAN;
    double total_time = 0.0, total_virial = 0.0;
    for (int k = 0; k < count; k++) {
        total_time += duration[k];
        total_virial += virial[k];
    }
    if (!(total_time > 0.0))
        return NAN;
    double rate = total_virial / total_time, error = 0.0;
    for (int size = 1; size <= 4; size *= 2) {
        double e = group_error(duration, virial, count, size, z, rate);
        if (isnan(e))
            return NAN;
        error = fmax(error, e);
    }
    return error;
}
