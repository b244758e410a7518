/* Species: which pairs of spheres meet, pass through each other, or
 * sense each other.
 *
 * Contract: every sphere has a species (sphere_info.species, below
 * CAROM_SPECIES_MAX) and each pair of species one mode: meet (the
 * default), pass through (bit b of pass_set[a]) or sense (bit b of
 * sense[a]), symmetric. The predictions read pass_through, the pairs
 * that do not meet: those set to pass, and in a world that responds
 * those set to sense (in a report-only world sensing is meeting: the
 * contact is reported and nothing else happens); species_filter is set
 * while any bit is, sensing while some pair senses in a world that
 * responds. spheres_meet (world_internal.h) is the one test of meeting:
 * the pair scans of the predictions (world_predict.c) drop the
 * candidates that do not meet before timing them, the neighbour lists
 * (world_lists.c) hold only spheres that meet or sense, and the overlap
 * checks (world_build.c, world_big.c, world_check.c,
 * world_driven_meet.c) skip those that do not meet, so such pairs never
 * collide and may overlap. Sensing pairs (spheres_sense) are timed as in
 * a report-only world (world_predict.c: each contact from outside, once)
 * and reported without a response (world_events.c), remembered in
 * reported[] as there; a pair reported is in contact (the world's set
 * sensed) until it parts, which is reported too; a change of mode or
 * species that stops a pair sensing ends its contact there, reported
 * at the next advance (parting = 2, world_sensing.c). A
 * sensing pair with a driven sphere is timed by its bounds as a meeting
 * is, and lingers in contact as in a report-only world
 * (world_driven_meet.c: reported when it touches, its parting when
 * probing finds it apart). Pairs placed overlapping are reported at the
 * next advance (world_sensing.c). Not with growing spheres. Nothing else
 * changes: walls, planes, segments and triangles meet every sphere, and
 * the cells hold every sphere whatever its species.
 *
 * A change that makes pairs meet is checked against the spheres' places
 * now (after the first advance; before it, or while the spheres grow,
 * the next advance checks) and undone if two spheres that would meet
 * overlap. A changed table predicts every event again at once (the
 * world builds again); a sphere that changes species is brought to the
 * world's time and predicts its own events again, and the events of
 * others that name it turn stale (its counter). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "world_internal.h"

static int species_valid(uint32_t s)
{
    return s < CAROM_SPECIES_MAX;
}

int carom_world_passes_through(const carom_world *w, uint32_t a, uint32_t b)
{
    if (!species_valid(a) || !species_valid(b))
        return 0;
    return (int)((w->pass_set[a] >> b) & 1u);
}

int carom_world_senses(const carom_world *w, uint32_t a, uint32_t b)
{
    if (!species_valid(a) || !species_valid(b))
        return 0;
    return (int)((w->sense[a] >> b) & 1u);
}

/* Whether spheres of species a and b meet (the table spheres_meet reads). */
static int spheres_species_meet(const carom_world *w, uint32_t a, uint32_t b)
{
    return !((w->pass_through[a] >> b) & 1u);
}

/* What pair a-b does: meet, pass through or sense. */
enum pair_mode { PAIR_MEET, PAIR_PASS, PAIR_SENSE };

static enum pair_mode pair_mode_of(const carom_world *w, uint32_t a, uint32_t b)
{
    return (w->pass_set[a] >> b) & 1u ? PAIR_PASS : (w->sense[a] >> b) & 1u ? PAIR_SENSE
                                                                            : PAIR_MEET;
}

static void set_bit(uint32_t *table, uint32_t a, uint32_t b, int on)
{
    if (on) {
        table[a] |= 1u << b;
        table[b] |= 1u << a;
    } else {
        table[a] &= ~(1u << b);
        table[b] &= ~(1u << a);
    }
}

/* Pair a-b set to mode, and the tables the predictions read made from
 * the two that are set: in a report-only world a sensing pair meets (it
 * is reported, and nothing else happens to any pair that meets). */
static void set_mode(carom_world *w, uint32_t a, uint32_t b, enum pair_mode mode)
{
    set_bit(w->pass_set, a, b, mode == PAIR_PASS);
    set_bit(w->sense, a, b, mode == PAIR_SENSE);
    int responds = w->def.response != CAROM_RESPONSE_NONE;
    w->species_filter = w->sensing = 0;
    for (int s = 0; s < CAROM_SPECIES_MAX; s++) {
        w->pass_through[s] = w->pass_set[s] | (responds ? w->sense[s] : 0u);
        w->species_filter |= w->pass_through[s] != 0;
        w->sensing |= responds && w->sense[s] != 0;
    }
    if (w->sensing && w->has_driven)
        w->contacts_linger = 1; /* sensing pairs with a driven sphere linger */
}

/* Whether a change's overlaps are checked now: a built world whose
 * spheres may not overlap and do not grow (growing ones are checked by
 * the next advance, which builds again). */
static int check_now(const carom_world *w)
{
    return w->built && w->def.response != CAROM_RESPONSE_NONE && !(w->growth_rate > 0.0);
}

/* Marks the live spheres of species a or b to be checked by the next
 * advance, which builds again. */
static void check_later(carom_world *w, uint32_t a, uint32_t b)
{
    for (uint32_t i = 0; i < w->count; i++)
        if (w->info[i].alive && (w->info[i].species == a || w->info[i].species == b))
            w->info[i].unchecked = 1;
}

/* Checks every live sphere of species a against the spheres it meets. */
static carom_status check_species(carom_world *w, uint32_t a)
{
    for (uint32_t i = 0; i < w->count; i++) {
        if (!w->info[i].alive || w->info[i].species != a)
            continue;
        carom_status st = world_check_placed(w, i);
        if (st != CAROM_OK)
            return st;
    }
    return CAROM_OK;
}

/* The memory of reports, for sensing pairs in a world that responds:
 * every slot empty (with no room for spheres yet, the first reserve makes
 * it, world.c). */
static carom_status reported_reserve(carom_world *w)
{
    if (w->reported || w->capacity == 0)
        return CAROM_OK;
    w->reported = malloc(w->capacity * sizeof *w->reported);
    if (!w->reported)
        return world_fail(w, CAROM_ERR_OUT_OF_MEMORY, "out of memory for sensing pairs");
    for (size_t i = 0; i < w->capacity; i++)
        for (int k = 0; k < REPORTED_MAX; k++)
            w->reported[i].e[k] = (reported_contact){SPHERE_NONE, 0, 0, -INFINITY, -INFINITY};
    return CAROM_OK;
}

/* For the lingering pairs (world_driven_meet.c): spheres a and b (ids)
 * no longer linger in contact (they no longer meet or sense, or now
 * meet and respond). */
static int no_longer_linger(const void *ctx, uint32_t a, uint32_t b)
{
    const carom_world *w = ctx;
    return !world_driven_pair_lingers(w, world_slot_of(w, a), world_slot_of(w, b));
}

/* For the sensing pairs in contact: spheres a and b (ids) no longer
 * sense each other (their contact ends without parting). */
static int no_longer_sense(const void *ctx, uint32_t a, uint32_t b)
{
    const carom_world *w = ctx;
    return !spheres_sense(w, world_slot_of(w, a), world_slot_of(w, b));
}

/* Pair a-b changes to mode; the spheres that now meet are checked for
 * overlaps (and the change undone if two do), and every event is
 * predicted again. */
static carom_status change_mode(carom_world *w, uint32_t a, uint32_t b, enum pair_mode mode)
{
    enum pair_mode old = pair_mode_of(w, a, b);
    if (old == mode)
        return CAROM_OK;
    int met = spheres_species_meet(w, a, b);
    if (world_sensing_room_to_end(w, SPHERE_NONE) != CAROM_OK)
        return CAROM_ERR_OUT_OF_MEMORY;
    set_mode(w, a, b, mode);
    if (w->sensing && reported_reserve(w) != CAROM_OK) {
        set_mode(w, a, b, old);
        return CAROM_ERR_OUT_OF_MEMORY;
    }
    w->events_at_instant = 0;
    if (!met && spheres_species_meet(w, a, b) && w->def.response != CAROM_RESPONSE_NONE) {
        if (check_now(w)) {
            carom_status st = check_species(w, a);
            if (st == CAROM_OK && b != a)
                st = check_species(w, b);
            if (st != CAROM_OK) {
                set_mode(w, a, b, old);
                return st;
            }
        } else {
            check_later(w, a, b);
        }
    }
    /* Every prediction again, with the new table, now: until a world is
     * built again, changes to it are checked by the next advance (as
     * growing spheres are in any case). */
    world_sensing_end_unparted(w, SPHERE_NONE, no_longer_sense);
    pair_set_remove_if(&w->lingering, no_longer_linger, w);
    if (!w->built)
        return CAROM_OK;
    world_unbuild(w);
    return w->growth_rate > 0.0 ? CAROM_OK : world_build(w, 0);
}


/* The refusals a change of a pair's mode shares (call, from a callback;
 * species out of range); CAROM_OK if none. */
static carom_status pair_change_refused(carom_world *w, const char *call, uint32_t a, uint32_t b)
{
    if (w->busy)
        return world_busy_failure(w, call);
    if (!species_valid(a) || !species_valid(b))
        return world_fail(w, CAROM_ERR_INVALID_ARGUMENT, "species must be below %d, not %u and %u",
                          CAROM_SPECIES_MAX, (unsigned)a, (unsigned)b);
    return CAROM_OK;
}

carom_status carom_world_set_pass_through(carom_world *w, uint32_t a, uint32_t b, int pass)
{
    carom_status refused = pair_change_refused(w, "carom_world_set_pass_through", a, b);
    return refused != CAROM_OK ? refused : change_mode(w, a, b, pass ? PAIR_PASS : PAIR_MEET);
}

carom_status carom_world_set_sense(carom_world *w, uint32_t a, uint32_t b, int sense)
{
    carom_status st = pair_change_refused(w, "carom_world_set_sense", a, b);
    if (st != CAROM_OK)
        return st;
    if (sense && w->def.response != CAROM_RESPONSE_NONE && w->growth_rate > 0.0)
        return world_fail(w, CAROM_ERR_INVALID_ARGUMENT,
                          "species %u and %u cannot sense each other in a world with growing "
                          "spheres (carom_world_set_growth)",
                          (unsigned)a, (unsigned)b);
    return change_mode(w, a, b, sense ? PAIR_SENSE : PAIR_MEET);
}

carom_status carom_world_set_species(carom_world *w, carom_sphere_id id, uint32_t species)
{
    if (w->busy)
        return world_busy_failure(w, "carom_world_set_species");
    if (id >= w->count || !w->info[world_slot_of(w, id)].alive)
        return world_fail(w, CAROM_ERR_NO_SUCH_SPHERE, "no sphere with id %u", (unsigned)id);
    if (!species_valid(species))
        return world_fail(w, CAROM_ERR_INVALID_ARGUMENT,
                          "sphere %u: species must be below %d, not %u", (unsigned)id,
                          CAROM_SPECIES_MAX, (unsigned)species);
    uint32_t i = world_slot_of(w, id);
    uint8_t old = w->info[i].species;
    if (old == species)
        return CAROM_OK;
    if (world_sensing_room_to_end(w, id) != CAROM_OK)
        return CAROM_ERR_OUT_OF_MEMORY;
    w->info[i].species = (uint8_t)species;
    w->events_at_instant = 0;
    if (check_now(w)) {
        carom_status st = world_check_placed(w, i);
        if (st != CAROM_OK) {
            w->info[i].species = old;
            return st;
        }
    } else if (w->def.response != CAROM_RESPONSE_NONE) {
        w->info[i].unchecked = 1;
        if (w->growth_rate > 0.0)
            world_unbuild(w);
    }
    if (w->built && w->list_skin > 0.0) { /* lists hold the spheres it meets */
        world_lists_remove(w, i);
        world_lists_insert(w, i);
    }
    w->events[i].counter++; /* events of others that name it become stale */
    /* Driven pairs in contact (world_driven_meet.c) stay so while they
     * meet; a pair that starts to meet overlapping, in a report-only
     * world, is in contact from now (reported once it has separated). */
    pair_set_remove_with_if(&w->lingering, id, no_longer_linger, w);
    world_sensing_end_unparted(w, id, no_longer_sense);
    if (!w->built)
        return CAROM_OK;
    /* From now: a pair that passed through each other since either
     * record's time may have overlapped then (the scan would take that for
     * a collision now). */
    world_advance_sphere(w, &w->spheres[i], w->time);
    world_predict(w, i);
    carom_status st = world_sensing_note_overlaps(w, i); /* fails only for memory */
    if (st == CAROM_OK && w->has_driven && (w->def.response == CAROM_RESPONSE_NONE || w->sensing))
        st = world_driven_note_overlaps(w, i);
    return st;
}
