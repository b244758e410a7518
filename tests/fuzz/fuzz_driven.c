/* libFuzzer target: driven spheres (unknown trajectories, seed 000) among
 * ballistic ones, on worlds made from any bytes, checked by arithmetic of
 * its own.
 *
 * The bytes choose the world as for fuzz_world.c (fuzz_worlds.h), then
 * whether the driver takes kicks, then up to MAX_DRIVEN driven spheres
 * and up to MAX_BALLISTIC ballistic ones. A driven sphere moves on a
 * circle (radius and speed over many orders of magnitude, none: a
 * straight line) whose centre drifts at a constant velocity, plus the
 * velocity changes the world's kicks give it; its acceleration is the
 * circle's, v^2 / R, and the bound it is given is that times 1 + 2^-k,
 * so it always keeps its bound. Without kicks it stays inside a walled
 * box by itself (its circle does), and contacts do not move it: an
 * obstacle that moves, through which another driven sphere passes.
 *
 * Checked, besides what fuzz_worlds.h checks after every advance (no
 * overlap beyond the tolerance of a contact with a driven sphere, inside
 * a walled box, finite states):
 * - the driver is probed at times that never decrease for a sphere, and
 *   within the advance's span; kicks come only when it takes them, each
 *   just after a reported contact of its sphere at its time (in a
 *   report-only world, a wall's);
 * - every reported sphere contact is one: the two are a contact distance
 *   apart at its time, within the tolerance, and no contact is late
 *   (depth > tolerance), since no bound is ever broken; a wall contact
 *   touches its wall;
 * - no probe finds a driven sphere outside its bound (stats.bound_breaks);
 * - the advance's recorded contacts (def.record_contacts) are as many as
 *   the callback saw, the last one the same;
 * - the world is at the time asked;
 * - where every driven sphere takes kicks, the bytes left after the
 *   spheres may add a fixed plane across a corner of a walled world, up
 *   to three fixed segments to a 2D one and a fixed triangle (cut into 16) to a 3D
 *   one (both repeated across periodic axes; fuzz_worlds.h): a plane, segment or triangle contact touches its
 *   plane, segment or triangle (its nearest image), and no
 *   sphere is ever behind a plane or nearer a segment or triangle than
 *   its radius beyond a contact's tolerance.
 * - scene queries (check_queries, fuzz_worlds.h) agree with the states,
 *   driven spheres where their driver puts them;
 * - species, as fuzz_world.c gives them (with contact laws by species,
 *   set_laws in fuzz_worlds.h): one world in four (the step
 *   byte's top two bits; the bytes read as before otherwise) gives its
 *   spheres species 0 to 2 and reads two more bytes after the header
 *   (after gravity's). A driven sphere's species is the high half of its
 *   mass byte modulo 3, a ballistic one's as read_sphere (fuzz_worlds.h)
 *   reads it. The first byte, the table: bits 0-5 say whether the pairs
 *   (0,0) (0,1) (0,2) (1,1) (1,2) (2,2) pass through each other, bit 6
 *   sets the table after the spheres are added rather than before, bit 7
 *   gives the species by carom_world_set_species after each add rather
 *   than by the definition. A driven sphere's placement leaves out the
 *   pairs that pass through (a ballistic sphere placed touching one it
 *   passes through, driven or not, is placed overlapping it, as
 *   read_sphere does); the overlap checks leave them out; a sphere
 *   contact, whether reported to the callback (at once, mid-advance) or
 *   recorded, between spheres that pass through each other aborts. The
 *   second byte, changes: after step k (1 to 5) whose bit k - 1 is set,
 *   with the driven spheres mid-flight, a change (the top 3 bits plus k,
 *   modulo 8: one of the six pairs flipped, or a sphere's species, driven
 *   or not, moved on by 1 or 2; moved on by 1, the sphere is the one
 *   nearest a driven sphere that meets it without overlapping it, its
 *   likeliest next partner), taken or refused as the spheres'
 *   overlaps say: one that makes spheres overlapping by more than 2e-10
 *   of their contact distance (plus a driven contact's tolerance,
 *   driven_slack, where a driven sphere is one of them) meet must be
 *   refused with CAROM_ERR_OVERLAP and change nothing (table and species
 *   read back); one under which no pair it concerns that meets overlaps
 *   by more than 0.5e-10 less that tolerance, and any change in a
 *   report-only world, must be taken. In a world that responds whose
 *   table sets an odd number of pairs apart, those pairs sense each other
 *   instead (carom_world_set_sense): their contacts and partings come
 *   with impulse 0, touching within the tolerance (or, placed
 *   overlapping, at an advance's start with their overlap as depth),
 *   and nothing else changes.
 * Except where two bodies that contacts do not move (obstacles, driven
 * spheres without kicks, walls), one of them a sphere that moves, can
 * squeeze a sphere between them: no motion then keeps it out of both.
 * Ballistic squeezes stop the advance with CAROM_ERR_STUCK (allowed
 * there); a driven sphere's goes on, its contacts late and deeper, with
 * overlaps (not checked there). Built only with -DCAROM_FUZZ=ON and
 * clang. */
#include "fuzz_worlds.h"

#define MAX_DRIVEN 3
#define MAX_BALLISTIC 16
#define MAX_SPHERES (MAX_DRIVEN + MAX_BALLISTIC)
#define EVENT_BUDGET 20000
#define SPHERE_BYTES 15

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A driven sphere's path: position centre + drift t + radius (cos(omega t
 * + phase) e1 + sin(...) e2) + kick_x + kick_v t, where the kicks at t_k
 * add dv (t - t_k). */
typedef struct path {
    double centre[3], drift[3];
    double radius, omega, phase;
    int e1, e2; /* the circle's plane: two axes */
    double kick_x[3], kick_v[3];
    double last_probe;
} path;

typedef struct harness {
    world_spec s;
    carom_world *w;
    int kicks;
    placed p[MAX_SPHERES];
    int n;
    path paths[MAX_DRIVEN];
    int driven;       /* p[0 .. driven-1] are driven */
    double t_from, t_to; /* the advance under way */
    carom_contact last;  /* the last contact reported */
    uint64_t reported;   /* contacts reported in the advance under way */
    int species_later;   /* species by carom_world_set_species after each add */
} harness;

static int index_of(const harness *h, carom_sphere_id id)
{
    for (int i = 0; i < h->n; i++)
        if (h->p[i].id == id)
            return i;
    fail("a callback named a sphere the harness does not know", (double)id);
    return -1;
}

static void path_at(const path *q, double t, double x[3], double v[3])
{
    double angle = q->omega * t + q->phase, c = cos(angle), s = sin(angle);
    for (int k = 0; k < 3; k++) {
        x[k] = q->centre[k] + q->drift[k] * t + q->kick_x[k] + q->kick_v[k] * t;
        v[k] = q->drift[k] + q->kick_v[k];
    }
    x[q->e1] += q->radius * c;
    x[q->e2] += q->radius * s;
    v[q->e1] -= q->radius * q->omega * s;
    v[q->e2] += q->radius * q->omega * c;
}

static void probe(void *user_data, carom_sphere_id id, double t, double position[3],
                  double velocity[3])
{
    harness *h = user_data;
    int i = index_of(h, id);
    if (i >= h->driven)
        fail("a ballistic sphere was probed", (double)i);
    path *q = &h->paths[i];
    if (t < q->last_probe)
        fail("a driven sphere was probed back in time", t - q->last_probe);
    if (!(t >= h->t_from && t <= h->t_to))
        fail("a driven sphere was probed outside the advance", t);
    q->last_probe = t;
    path_at(q, t, position, velocity);
}

static void kick(void *user_data, carom_sphere_id id, double t, const double delta_v[3])
{
    harness *h = user_data;
    int i = index_of(h, id);
    if (!h->kicks || i >= h->driven)
        fail("a kick where none may come", (double)i);
    const carom_contact *c = &h->last;
    if (c->time != t || (c->i != id && (c->kind != CAROM_CONTACT_SPHERE || c->j != id)))
        fail("a kick without a contact of its sphere at its time", t);
    if (h->s.report_only && c->kind == CAROM_CONTACT_SPHERE)
        fail("a kick from a contact in a report-only world", t);
    path *q = &h->paths[i];
    for (int k = 0; k < 3; k++) {
        if (!isfinite(delta_v[k]))
            fail("a kick is not finite", delta_v[k]);
        q->kick_v[k] += delta_v[k];
        q->kick_x[k] -= delta_v[k] * t;
    }
}

static void sphere_state(harness *h, int i, double x[3])
{
    carom_sphere_state st;
    if (carom_world_get_sphere(h->w, h->p[i].id, &st) != CAROM_OK)
        fail("a sphere in contact cannot be read", (double)i);
    memcpy(x, st.position, sizeof st.position);
}

static void on_contact(void *user_data, carom_contact *c)
{
    harness *h = user_data;
    h->last = *c;
    h->reported++;
    if (!(c->time >= h->t_from && c->time <= h->t_to))
        fail("a contact outside the advance", c->time);
    if (c->time != carom_world_time(h->w))
        fail("a contact at another time than the world's", c->time - carom_world_time(h->w));
    int i = index_of(h, c->i);
    double xi[3];
    sphere_state(h, i, xi);
    if (c->kind == CAROM_CONTACT_WALL) {
        int axis = c->wall / 2;
        double face = c->wall % 2 ? h->s.box[axis] - h->p[i].r : h->p[i].r;
        if (!(fabs(xi[axis] - face) <= driven_slack(&h->s, h->p[i].r)))
            fail("a wall contact away from its wall", (xi[axis] - face) / h->p[i].r);
        return;
    }
    if (c->kind == CAROM_CONTACT_PLANE) {
        double n[3], d;
        if (carom_world_get_plane(h->w, (uint32_t)c->wall, n, &d) != CAROM_OK)
            fail("a plane contact on no plane", (double)c->wall);
        double gap = n[0] * xi[0] + n[1] * xi[1] + n[2] * xi[2] - d - h->p[i].r;
        if (!(fabs(gap) <= driven_slack(&h->s, h->p[i].r)))
            fail("a plane contact away from its plane", gap / h->p[i].r);
        return;
    }
    if (c->kind == CAROM_CONTACT_SEGMENT) {
        if (c->wall < 0 || (size_t)c->wall >= carom_world_segment_count(h->w))
            fail("a segment contact on no segment", (double)c->wall);
        double gap = segment_distance(h->w, &h->s, (uint32_t)c->wall, xi) - h->p[i].r;
        if (!(fabs(gap) <= driven_slack(&h->s, h->p[i].r)))
            fail("a segment contact away from its segment", gap / h->p[i].r);
        return;
    }
    if (c->kind == CAROM_CONTACT_TRIANGLE) {
        if (c->wall < 0 || (size_t)c->wall >= carom_world_triangle_count(h->w))
            fail("a triangle contact on no triangle", (double)c->wall);
        double gap = world_triangle_distance(h->w, &h->s, (uint32_t)c->wall, xi) - h->p[i].r;
        if (!(fabs(gap) <= driven_slack(&h->s, h->p[i].r)))
            fail("a triangle contact away from its triangle", gap / h->p[i].r);
        return;
    }
    if (c->kind != CAROM_CONTACT_SPHERE)
        return;
    int j = index_of(h, c->j);
    if (!meet(&h->s, &h->p[i], &h->p[j]) && !(h->s.sensing && c->impulse == 0.0))
        fail("a contact between spheres that pass through each other",
             (double)(h->p[i].species * FUZZ_SPECIES + h->p[j].species));
    if (c->parting && meet(&h->s, &h->p[i], &h->p[j]))
        fail("a parting of spheres that meet", (double)i);
    double xj[3];
    sphere_state(h, j, xj);
    double sigma = h->p[i].r + h->p[j].r;
    double slack = driven_slack(&h->s, sigma);
    if (c->depth > 0.0 && !meet(&h->s, &h->p[i], &h->p[j])) {
        /* A sensing pair placed overlapping (or made to sense so by a
         * change): reported at the advance's start, with its overlap. */
        if (c->time != h->t_from || c->parting)
            fail("a sensing pair's contact with a depth, not at the advance's start",
                 c->time - h->t_from);
        if (!(fabs(distance(&h->s, xi, xj) - sigma + c->depth) <= slack))
            fail("a placed sensing pair's depth is not its overlap", c->depth / sigma);
        return;
    }
    if (!(c->depth <= slack)) {
        if (h->s.squeezes)
            return;
        fail("a late contact, though every bound was kept", c->depth / sigma);
    }
    double gap = distance(&h->s, xi, xj) - sigma;
    if (!(fabs(gap) <= slack))
        fail("a contact of spheres that are not touching", gap / sigma);
}

/* The advance's recorded contacts against what the callback saw. */
static void check_recorded(const harness *h)
{
    size_t n;
    const carom_contact *c = carom_world_recorded_contacts(h->w, &n);
    if (n != h->reported)
        fail("the recorded contacts are not as many as the callback saw",
             (double)n - (double)h->reported);
    if (n > 0 && (c[n - 1].time != h->last.time || c[n - 1].i != h->last.i ||
                  c[n - 1].j != h->last.j || c[n - 1].kind != h->last.kind))
        fail("the last recorded contact is not the callback's last", c[n - 1].time);
    for (size_t k = 0; k < n; k++) {
        if (c[k].kind != CAROM_CONTACT_SPHERE)
            continue;
        int a = index_of(h, c[k].i), b = index_of(h, c[k].j);
        if (a == b)
            fail("a recorded sphere contact without two spheres", (double)a);
        if (!meet(&h->s, &h->p[a], &h->p[b]) && !(h->s.sensing && c[k].impulse == 0.0))
            fail("a recorded contact between spheres that pass through each other",
                 (double)(h->p[a].species * FUZZ_SPECIES + h->p[b].species));
    }
}

/* How far a pair's relative overlap may be off what the world sees: the
 * coordinates' rounding, and a driven contact's tolerance where a driven
 * sphere is one of them. */
static double overlap_tolerance(const world_spec *s, const placed *a, const placed *b)
{
    double sigma = a->r + b->r;
    double big = fmax(s->box[0], fmax(s->box[1], s->box[2]));
    double tol = 8.0 * 2.220446049250313e-16 * big / sigma;
    if (a->driven || b->driven)
        tol += driven_slack(s, sigma) / sigma;
    return tol;
}

/* Change number k (after step k) from the changes byte
 * (species_change_make); a sphere moved on by 1 is, when there are
 * driven spheres, the one nearest a driven sphere that it meets and does
 * not overlap: likeliest its next partner, whose event the change makes
 * stale mid-flight. */
static void change_species(harness *h, unsigned changes, unsigned k)
{
    world_spec *s = &h->s;
    placed *p = h->p;
    int n = h->n;
    species_change c;
    if (!species_change_make(s, n, changes, k, &c))
        return;
    if (c.j == 6 && h->driven > 0) {
        int d = (int)((changes * 5u + k) % (unsigned)h->driven);
        double best = INFINITY;
        for (int m = 0; m < n; m++) {
            double gap = distance(s, p[d].x, p[m].x) - p[d].r - p[m].r;
            if (m != d && meet(s, &p[d], &p[m]) && gap > -driven_slack(s, p[d].r + p[m].r) &&
                gap < best) {
                best = gap;
                c.sphere = m;
            }
        }
    }
    species_change_apply(h->w, s, p, n, &c, overlap_tolerance, "fuzz_driven");
}

/* Reads driven sphere h->n; 0 if it is left out (it would overlap, or its
 * circle does not fit in a walled box). */
static int read_driven(harness *h, byte_reader *r, double r0, double vmax)
{
    const world_spec *s = &h->s;
    placed *out = &h->p[h->n];
    path *q = &h->paths[h->n];
    memset(q, 0, sizeof *q);
    unsigned flags = take8(r);
    out->driven = 1;
    out->r = r0 * (0.5 + 1.5 * (double)take8(r) / 255.0) * (flags & 1 ? 4.0 : 1.0);
    unsigned mass_byte = take8(r);
    out->m = 0.25 * (double)(1 + (mass_byte & 15));
    out->species = s->species ? (mass_byte >> 4) % FUZZ_SPECIES : 0;
    static const int planes[3][2] = {{0, 1}, {1, 2}, {0, 2}};
    int plane = s->dim == 3 ? (int)((flags >> 1) % 3) : 0;
    q->e1 = planes[plane][0];
    q->e2 = planes[plane][1];
    unsigned size = take8(r) % 24;
    q->radius = size == 23 ? 0.0 : s->box[0] * ldexp(1.0, -(int)size);
    double speed = vmax * (double)(1 + take8(r)) / 256.0;
    q->omega = q->radius > 0.0 ? speed / q->radius : 0.0;
    q->phase = 6.283185307179586 * (double)take8(r) / 256.0;
    double accel = q->radius > 0.0 ? speed * speed / q->radius : 0.0;
    double margin = ldexp(1.0, -(int)(take8(r) % 24));
    for (int k = 0; k < 3; k++) {
        double u = (double)take16(r) / 65535.0;
        double drift = ((double)take16(r) / 32767.5 - 1.0) * vmax;
        int in_plane = k == q->e1 || k == q->e2;
        if (k >= s->dim) {
            q->centre[k] = 0.0;
        } else if (s->walls[k] && !h->kicks) {
            /* The whole circle inside, and no drift along this axis. */
            double lo = out->r * 1.001 + (in_plane ? q->radius : 0.0);
            double hi = s->box[k] - lo;
            if (!(hi > lo))
                return 0;
            q->centre[k] = lo + (hi - lo) * u;
            drift = 0.0;
        } else {
            q->centre[k] = s->box[k] * u;
        }
        q->drift[k] = k < s->dim ? drift : 0.0;
    }
    path_at(q, 0.0, out->x, out->v);
    for (int k = 0; k < s->dim; k++)
        if (s->walls[k] && !(out->x[k] >= out->r * 1.001 && out->x[k] <= s->box[k] - out->r * 1.001))
            return 0;
    for (int i = 0; i < h->n && !s->report_only; i++)
        if (meet(s, &h->p[i], out) &&
            distance(s, h->p[i].x, out->x) < (h->p[i].r + out->r) * (1.0 + 1e-9))
            return 0;
    carom_sphere_def sd = carom_sphere_default_def();
    memcpy(sd.position, out->x, sizeof sd.position);
    sd.radius = out->r;
    sd.mass = out->m;
    sd.driven = 1;
    sd.accel_bound = accel * (1.0 + margin);
    sd.species = h->species_later ? 0 : out->species;
    if (carom_world_add_sphere(h->w, &sd, &out->id) != CAROM_OK)
        fail("a driven sphere clear of the others was refused", (double)h->n);
    if (h->species_later && carom_world_set_species(h->w, out->id, out->species) != CAROM_OK)
        fail("a species given before the first advance was refused", (double)h->n);
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    byte_reader r = {data, size};
    harness h;
    memset(&h, 0, sizeof h);
    h.last.time = NAN; /* no contact yet */
    carom_world_def def;
    read_spec(&r, &h.s, &def);
    unsigned options = take8(&r);
    h.kicks = options & 1;
    h.s.driven_pass = !h.kicks;
    int driven_wanted = 1 + (int)((options >> 1) % MAX_DRIVEN);
    double r0 = ldexp(1.0, -(int)(take8(&r) % 24));       /* 1 .. 2^-23 */
    double vmax = ldexp(1.0, (int)(take8(&r) % 41) - 20); /* 2^-20 .. 2^20 */
    unsigned steps = 1 + take8(&r) % 6;
    unsigned step_byte = take8(&r);
    double step = ldexp(h.s.box[0] / vmax, -(int)(step_byte % 12));
    double g = h.s.gravity ? vmax * vmax / h.s.box[1] * (1.0 + take8(&r) % 8) : 0.0;
    /* Species (the top comment): the table and the changes. */
    h.s.species = step_byte >= 192;
    unsigned table = h.s.species ? take8(&r) : 0, changes = h.s.species ? take8(&r) : 0;
    for (int k = 0; k < 6; k++)
        if ((table >> k) & 1) {
            h.s.pass[pair_a[k]] |= 1u << pair_b[k];
            h.s.pass[pair_b[k]] |= 1u << pair_a[k];
        }
    /* The pairs apart sense each other when the table sets an odd number
     * apart (in a world that responds). */
    h.s.sensing = h.s.species && !h.s.report_only && __builtin_parity(table & 63u);
    int table_later = (table >> 6) & 1;
    h.species_later = (table >> 7) & 1;
    def.gravity[1] = -g;
    def.restitution_min_speed = 1e-6 * vmax;
    def.driver.probe = probe;
    def.driver.kick = h.kicks ? kick : NULL;
    def.driver.user_data = &h;
    def.on_contact = on_contact;
    def.user_data = &h;
    def.record_contacts = 1;

    carom_error error;
    h.w = carom_world_create(&def, &error);
    if (!h.w)
        return 0;
    if (h.s.species && !table_later)
        set_table(h.w, &h.s);
    if (h.s.species)
        set_laws(h.w, &h.s, &def, table * 256u + changes);
    /* Probes while adding come at time 0. */
    h.t_from = h.t_to = 0.0;
    while (h.n < driven_wanted && r.left > 0)
        if (read_driven(&h, &r, r0, vmax))
            h.n++;
    h.driven = h.n;
    int touching_any = 0;
    while (h.n < MAX_SPHERES && r.left >= SPHERE_BYTES) {
        int touching;
        placed *out = &h.p[h.n];
        if (!read_sphere(&r, &h.s, r0, vmax, h.p, h.n, out, &touching))
            continue;
        carom_sphere_def sd = carom_sphere_default_def();
        memcpy(sd.position, out->x, sizeof sd.position);
        memcpy(sd.velocity, out->v, sizeof sd.velocity);
        sd.radius = out->r;
        sd.mass = out->m;
        sd.species = h.species_later ? 0 : out->species;
        if (carom_world_add_sphere(h.w, &sd, &out->id) != CAROM_OK)
            fail("a sphere clear of the others and inside the box was refused", (double)h.n);
        if (h.species_later && carom_world_set_species(h.w, out->id, out->species) != CAROM_OK)
            fail("a species given before the first advance was refused", (double)h.n);
        h.s.obstacles += !isfinite(out->m);
        touching_any |= touching;
        h.n++;
    }
    if (h.s.species && table_later)
        set_table(h.w, &h.s);
    /* A plane and a segment from the bytes left, when every driven
     * sphere bounces. */
    if (h.kicks) {
        add_plane(h.w, &h.s, &r);
        add_segment(h.w, &h.s, &r);
        add_triangle(h.w, &h.s, &r);
    }
    int unmoved = h.s.obstacles + (h.kicks ? 0 : h.driven);
    int walled = h.s.walls[0] || h.s.walls[1] || (h.s.dim == 3 && h.s.walls[2]);
    int squeezable = unmoved >= 2 || (unmoved >= 1 && walled);
    h.s.squeezes = squeezable && !h.kicks;

    for (unsigned k = 1; k <= steps && h.driven > 0; k++) {
        uint64_t done = 0;
        int reached = 0;
        h.t_to = step * k;
        h.reported = 0;
        carom_status st = carom_world_advance_to_limited(h.w, h.t_to, EVENT_BUDGET, &done, &reached);
        if (st == CAROM_ERR_OVERLAP && touching_any && k == 1)
            break; /* a touching sphere's last bits made it overlap */
        if (st == CAROM_ERR_STUCK && squeezable)
            break;
        if (st == CAROM_ERR_BOX_TOO_SMALL && k == 1)
            break; /* spheres too large for a periodic box */
        if (st != CAROM_OK) {
            fprintf(stderr, "fuzz_driven: %s: %s\n", carom_status_name(st),
                    carom_world_error_message(h.w));
            fail("advance failed", h.t_to);
        }
        if (reached && carom_world_time(h.w) != h.t_to)
            fail("the world is not at the time asked", carom_world_time(h.w));
        check_recorded(&h);
        read_back(h.w, h.p, h.n);
        check_states(&h.s, h.p, h.n);
        if (!h.s.squeezes) {
            check_planes(h.w, &h.s, h.p, h.n);
            check_segments(h.w, &h.s, h.p, h.n);
            check_triangles(h.w, &h.s, h.p, h.n);
            check_queries(h.w, &h.s, h.p, h.n);
        }
        carom_stats stats;
        carom_world_get_stats(h.w, &stats);
        if (stats.bound_breaks > 0)
            fail("a probe outside its bound, though every bound was kept",
                 (double)stats.bound_breaks);
        if (!reached)
            break;
        h.t_from = h.t_to;
        if (h.s.species && k < steps && k <= 5 && ((changes >> (k - 1)) & 1))
            change_species(&h, changes, k);
    }
    carom_world_free(h.w);
    return 0;
}
