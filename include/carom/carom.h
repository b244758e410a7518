/* carom — exact event-driven collision detection among moving spheres.
 *
 * Public API of the core library. Everything is prefixed carom_/CAROM_.
 * The library never prints and never exits: functions return a
 * carom_status and leave a readable message in the world (or in a
 * carom_error for functions that have no world yet).
 *
 * Dimension is chosen at run time (2 or 3). Vectors are always double[3];
 * in 2D the z components are ignored and kept at 0.
 */
#ifndef CAROM_CAROM_H
#define CAROM_CAROM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CAROM_VERSION_STRING "0.1.0"

typedef enum carom_status {
    CAROM_OK = 0,
    CAROM_ERR_INVALID_ARGUMENT, /* a NaN, a nonpositive radius, a bad enum... */
    CAROM_ERR_OUT_OF_MEMORY,
    CAROM_ERR_OVERLAP,          /* two spheres overlap where they must not */
    CAROM_ERR_OUTSIDE_BOX,      /* a sphere is (partly) outside a walled box */
    CAROM_ERR_BOX_TOO_SMALL,    /* the grid cannot be built for this box */
    CAROM_ERR_NO_SUCH_SPHERE,   /* stale or unknown sphere id */
    CAROM_ERR_IO,               /* file missing, unreadable, unwritable */
    CAROM_ERR_PARSE,            /* malformed file contents */
    CAROM_ERR_IN_CALLBACK,      /* a call that changes the world, made from
                                   inside one of its callbacks */
    CAROM_ERR_STUCK             /* time cannot move on: events without end
                                   at one instant (a sphere squeezed between
                                   spheres of infinite mass closing in) */
} carom_status;

#define CAROM_ERROR_MESSAGE_SIZE 320

/* Where functions without a world report what went wrong. */
typedef struct carom_error {
    carom_status status;
    char message[CAROM_ERROR_MESSAGE_SIZE];
} carom_error;

const char *carom_status_name(carom_status status);

typedef enum carom_boundary {
    CAROM_BOUNDARY_PERIODIC = 0,
    CAROM_BOUNDARY_WALLS = 1
} carom_boundary;

typedef enum carom_response {
    CAROM_RESPONSE_ELASTIC = 0, /* impulse with masses and restitution */
    CAROM_RESPONSE_NONE = 1     /* report only: spheres pass through */
} carom_response;

/* How a world finds the spheres a sphere may meet. AUTO: per-sphere
 * neighbour lists with a skin where the scene allows and they pay (dense:
 * packing at least 0.4 in 3D, or 0.28 when the radii spread by 1.5 or
 * more, 0.62 in 2D; radii within a factor of about 2; none driven, none
 * far larger than the rest), else cells (with species that pass through
 * each other, the packing is the one each sphere meets: the mean over
 * the spheres of the packing of the species it meets); the choice
 * changes speed, never results. CELLS: always cells; LISTS: lists
 * wherever the scene allows, however dilute (for comparisons). */
typedef enum carom_neighbours {
    CAROM_NEIGHBOURS_AUTO = 0,
    CAROM_NEIGHBOURS_CELLS = 1,
    CAROM_NEIGHBOURS_LISTS = 2
} carom_neighbours;

/* The loading helper: a second thread that runs ahead of the event loop
 * through the event queue and loads into the caches what the next events
 * will read, so that a world too large for the caches waits less for
 * memory. It only reads: results are the same to the last bit with or
 * without it. It checks that it pays, pausing regularly to compare the
 * loop's speed alone; while it does not (the threads share a core, or the
 * machine is busy), its pauses grow up to a second. AUTO: on for worlds
 * of at least 50,000 spheres with neighbour lists (see carom_neighbours)
 * or one level of cells (spheres of similar sizes, none driven or far
 * larger), in advances of 5,000 events or more, when the process may use
 * two CPUs or more; OFF: one thread, always (for many simulations run
 * side by side); ON: in every advance (tests). The same setting lets a
 * build (the first advance, and each re-sort) make the neighbour lists
 * and first events in two halves on two threads (AUTO: worlds of 50,000
 * spheres or more, two CPUs); the results are again the same to the
 * last bit. */
typedef enum carom_prefetch {
    CAROM_PREFETCH_AUTO = 0,
    CAROM_PREFETCH_OFF = 1,
    CAROM_PREFETCH_ON = 2
} carom_prefetch;

/* Memory order. A prediction reads the records of a sphere's neighbours,
 * which is fastest when spheres near each other in space are stored near
 * each other; as spheres wander, that order decays. AUTO: a world of at
 * least 50,000 spheres (none driven) sorts its records along a
 * space-filling curve when it is built (the first advance), and again
 * whenever its collisions show that the order has decayed half of the
 * way to a random one (docs/performance-notes.md). OFF: only
 * carom_world_sort_spatially sorts. Ids never change; a sort brings
 * every sphere to the world's time and predicts every event again, as an
 * advance's end and a first build do, so event times may differ in their
 * last bits from a world that does not sort. */
typedef enum carom_reorder {
    CAROM_REORDER_AUTO = 0,
    CAROM_REORDER_OFF = 1
} carom_reorder;

typedef enum carom_contact_kind {
    CAROM_CONTACT_SPHERE = 0, /* sphere i meets sphere j */
    CAROM_CONTACT_WALL = 1,   /* sphere i meets a wall of the box */
    CAROM_CONTACT_PLANE = 2,  /* sphere i meets a fixed plane (carom_world_add_plane) */
    CAROM_CONTACT_SEGMENT = 3, /* sphere i meets a fixed segment (carom_world_add_segment) */
    CAROM_CONTACT_TRIANGLE = 4 /* sphere i meets a fixed triangle (carom_world_add_triangle) */
} carom_contact_kind;

/* One contact, as given to the contact callback. The callback may change
 * velocity_after[0] (sphere i) and velocity_after[1] (sphere j) to impose
 * its own response; the engine uses whatever is there when it returns,
 * if those are finite numbers (otherwise the contact keeps the velocities
 * it had before the callback, and the advance stops after that event with
 * CAROM_ERR_INVALID_ARGUMENT and a message naming the sphere).
 *
 * Callbacks (this one, and a driver's probe and kick) run in the middle of
 * the world's work and must not change the world: the calls that would
 * (adding, removing, setting a velocity, reprobing, advancing, stepping,
 * sorting) return CAROM_ERR_IN_CALLBACK there and change nothing. Queries
 * are fine. To remove a sphere on contact, note it and remove it when the
 * advance has returned (carom_world_advance_to_limited can return after a
 * few events). Freeing the world inside a callback is not allowed. */
typedef struct carom_contact {
    carom_contact_kind kind;
    double time;
    uint32_t i;       /* sphere id */
    uint32_t j;       /* sphere id (CAROM_CONTACT_SPHERE only); which of the
                         two is i follows from the engine's bookkeeping, not
                         from their ids */
    int wall;         /* 2*axis + (0 low face, 1 high face) (CAROM_CONTACT_WALL);
                         the plane's index (CAROM_CONTACT_PLANE); the segment's
                         index (CAROM_CONTACT_SEGMENT); the triangle's index
                         (CAROM_CONTACT_TRIANGLE); -1 otherwise */
    double normal[3]; /* unit vector from i towards j (or towards the wall) */
    double impulse;   /* magnitude of the impulse the built-in response applied */
    double velocity_after[2][3];
    double depth;     /* 0 for a contact found at its time; > 0 when a driven
                         sphere broke its acceleration bound and probing found
                         the two already overlapping by this much (the contact
                         is reported late, never skipped) */
    int parting;      /* 1: two spheres that sense each other
                         (carom_world_set_sense), reported when they came
                         to touch, part now (the normal points from i to j
                         as they separate); 2: their contact ended without
                         their parting, at a change the application made:
                         sphere i was removed, or the pair no longer
                         senses (a species or table change); reported at
                         the start of the next call that processes
                         events, at the time of the change, with the
                         velocities and normal of then and depth their
                         overlap (0 if apart); a removed sphere's id no
                         longer names a sphere, and changes to
                         velocity_after are not taken; 0 for every other
                         contact */
} carom_contact;

typedef void (*carom_contact_fn)(void *user_data, carom_contact *contact);

typedef uint32_t carom_sphere_id;

/* Driven spheres (unknown trajectories). The application moves a driven
 * sphere with its own integrator and promises a bound A on the norm of its
 * acceleration; the world never assumes more. It follows the sphere with a
 * time-varying bound (a sphere of radius r + A (t - t0)^2 / 2 around
 * x0 + v0 (t - t0), Kim, Guibas and Shin 2005) and probes the true state
 * through the driver only when a bound says a contact may be near. A
 * contact of a driven sphere separates at least at
 * sqrt(2 A 1e-10 (r_i + r_j)) (A of both spheres together, plus gravity
 * if the other sphere falls), whatever the restitution, and two spheres
 * touching within 1e-10 (r_i + r_j) that approach or separate slower than
 * about that are such a contact ("pressed"), so that a driven sphere
 * pushed onto a wall, an immovable sphere or a stack comes to rest in
 * small bounces without sinking in. A contact slower
 * than that speed gains energy up to its kinetic energy (README,
 * "Numerical rules"). */
typedef struct carom_driver {
    /* Required. Position and velocity of driven sphere id at time t. For
     * one sphere, t never decreases from one call to the next. */
    void (*probe)(void *user_data, carom_sphere_id id, double t, double position[3],
                  double velocity[3]);
    /* Optional. The world's collision response changed the velocity of
     * driven sphere id by delta_v at time t (its position is continuous);
     * the application's integrator must take the change on. NULL: contacts
     * do not move driven spheres (they act as infinite masses). */
    void (*kick)(void *user_data, carom_sphere_id id, double t, const double delta_v[3]);
    void *user_data;
} carom_driver;

/* Definition of a world, with defaults from carom_world_default_def(). */
typedef struct carom_world_def {
    int dim;                        /* 2 or 3 (default 3) */
    double box[3];                  /* box lengths; the box is [0, L) per axis */
    carom_boundary boundary[3];     /* per axis (default periodic) */
    double gravity[3];              /* uniform acceleration (default 0) */
    double restitution;             /* sphere-sphere, in [0,1] (default 1) */
    double wall_restitution;        /* sphere-wall, in [0,1] (default 1) */
    double restitution_min_speed;   /* > 0. Below this normal speed contacts
                                       are elastic (no inelastic collapse), and
                                       every contact separates at least this
                                       fast (no endless zero-speed contact of a
                                       sphere resting under gravity); default
                                       1e-6 */
    carom_response response;        /* default CAROM_RESPONSE_ELASTIC */
    carom_contact_fn on_contact;    /* optional, called for every contact */
    void *user_data;
    size_t capacity_hint;           /* expected number of spheres (optional) */
    carom_driver driver;            /* needed when any sphere is driven */
    carom_neighbours neighbours;    /* default CAROM_NEIGHBOURS_AUTO */
    carom_prefetch prefetch;        /* default CAROM_PREFETCH_AUTO */
    carom_reorder reorder;          /* default CAROM_REORDER_AUTO */
    int record_contacts;            /* 1: keep every contact of an advance
                                       for carom_world_recorded_contacts
                                       (default 0) */
    int count_images;               /* 1: count each sphere's crossings of
                                       periodic faces, for unwrapped
                                       positions (carom_world_get_image;
                                       24 bytes a sphere; default 0) */
    /* Rough spheres: a contact also reverses the tangential velocity of
     * the surfaces where they touch, scaled by the tangential restitution
     * beta in [-1, 1]: -1 smooth (the default: spins play no part), 1
     * perfectly rough (elastic in rotation too), 0 the surfaces stop
     * slipping. Sphere-sphere and sphere-surface (walls, planes, segments,
     * triangles) each have their own. Spins: carom_world_get_spin. */
    double tangential_restitution;      /* sphere-sphere (default -1) */
    double wall_tangential_restitution; /* sphere-surface (default -1) */
    double inertia_factor;          /* moment of inertia k m r^2: k in (0, 1];
                                       0 (default): a solid sphere (2/5) in
                                       3D, a solid disk (1/2) in 2D */
    /* Coulomb's limit on rough contacts: the tangential impulse is at
     * most mu times the normal one; where beta would ask for more, the
     * surfaces slide (the impulse against their slip, of that size:
     * Walton's model). >= 0; INFINITY (the default): no limit; 0: smooth. */
    double friction;                /* sphere-sphere (default INFINITY) */
    double wall_friction;           /* sphere-surface (default INFINITY) */
} carom_world_def;

carom_world_def carom_world_default_def(void);

/* A sphere to add. mass may be INFINITY: an obstacle that no collision
 * moves and gravity does not pull (it keeps the velocity it is given).
 * driven = 1 makes it a driven sphere (see carom_driver) whose
 * acceleration never exceeds accel_bound (>= 0; gravity is the
 * application's business for it); its position and velocity are then
 * probed from the driver when the world needs them, and the ones given
 * here are ignored. */
typedef struct carom_sphere_def {
    double position[3];
    double velocity[3];
    double radius;
    double mass;
    int driven;
    double accel_bound;
    uint32_t species;  /* 0 (default) to CAROM_SPECIES_MAX - 1: which pairs
                          meet (carom_world_set_pass_through) */
} carom_sphere_def;

carom_sphere_def carom_sphere_default_def(void);

/* State of one sphere at the world's current time (a driven sphere's is
 * probed from the driver). */
typedef struct carom_sphere_state {
    double position[3];
    double velocity[3];
    double radius;
    double mass;
    uint64_t collisions; /* number of changes to it so far that its events
                            follow: velocity changes (contacts,
                            carom_world_set_velocity), moves and species
                            changes */
    uint32_t species;
} carom_sphere_state;

/* Counters and sums over the measured interval (since the last
 * carom_world_reset_stats or creation). */
typedef struct carom_stats {
    double start_time;        /* simulated time when the stats were reset */
    double elapsed;           /* simulated time since then */
    uint64_t events;          /* every event popped, valid or not */
    uint64_t collisions;      /* sphere-sphere contacts */
    uint64_t wall_hits;
    uint64_t cell_crossings;  /* and rescans of big spheres kept out of the grid */
    uint64_t list_rebuilds;   /* a sphere moved its skin from its neighbour
                                 list's centre and made its list again */
    uint64_t invalid_events;  /* stale predictions discarded */
    double virial;            /* sum over collisions of impulse * contact distance */
    double wall_momentum;     /* sum of |impulse| given to walls */
    double max_overlap;       /* largest (contact distance - distance)/contact
                                 distance of a colliding pair at its event */
    double kinetic_energy_start;
    /* Driven spheres only (seed 000's event types: cell crossings are its
     * entering and leaving events). */
    uint64_t bound_resets;     /* a bound grew to its limit and was renewed */
    uint64_t bound_collisions; /* two bounds (or a bound and a wall) met:
                                  the spheres were probed; counts contacts
                                  found too */
    uint64_t late_contacts;    /* probing found spheres already overlapping
                                  (an acceleration bound was broken) */
    uint64_t prefetch_advances; /* advances (event loops) the loading helper
                                   ran in (see carom_prefetch) */
    uint64_t reorders;          /* sorts of the spheres' records (see
                                   carom_reorder) */
    uint64_t bound_breaks;      /* probes (at a bound's meeting or reset)
                                   that found a driven sphere outside its
                                   bound, beyond 1e-9 of its scale: the
                                   driver broke its acceleration bound or
                                   did not take a kick. Contacts may then
                                   be late or missed (0 in a sound run;
                                   announced jumps, through
                                   carom_world_reprobe_sphere, are not
                                   counted) */
    uint64_t sensed_contacts;   /* contacts of sensing pairs reported in a
                                   world that responds
                                   (carom_world_set_sense; not among the
                                   collisions) */
    uint64_t sensed_partings;   /* partings of sensing pairs in contact
                                   reported (carom_contact.parting 1, or 2
                                   for a contact ended at a removal or
                                   change): after every advance, the pairs
                                   in contact are sensed_contacts minus
                                   this */
} carom_stats;

typedef struct carom_world carom_world;

/* Creates an empty world; returns NULL and fills *error on failure. */
carom_world *carom_world_create(const carom_world_def *def, carom_error *error);
void carom_world_free(carom_world *world);

/* Message of the last failed call on this world ("" if none). */
const char *carom_world_error_message(const carom_world *world);

/* Adds a sphere at the world's current time. Before the first advance,
 * overlaps and box checks are deferred to the first advance (so building
 * a world of N spheres is O(N)); afterwards they are checked at once.
 * A sphere too large for the world's grid (or a fixed plane, segment or
 * triangle added) makes the world build itself again at the next
 * advance; spheres added or moved until then are checked by that
 * advance (only they: the others' states come from the world's own
 * events), which returns the error naming one that fails, with the world
 * left at its time. A report-only world (CAROM_RESPONSE_NONE), whose
 * spheres pass through each other, checks only the box: a sphere may be
 * added overlapping others, and such a pair is first reported when it
 * comes into contact again after separating. */
carom_status carom_world_add_sphere(carom_world *world, const carom_sphere_def *def,
                                    carom_sphere_id *id_out);
carom_status carom_world_remove_sphere(carom_world *world, carom_sphere_id id);
carom_status carom_world_set_velocity(carom_world *world, carom_sphere_id id,
                                      const double velocity[3]);
/* Moves a sphere (not a driven one) to a new position at the world's
 * time, keeping its velocity: a teleport. The new position is checked as
 * a sphere added then is (inside a walled box; overlapping no other
 * sphere, unless report-only; before the first advance, by that
 * advance); on failure the sphere stays where it was and the error names
 * what is in the way. Contacts on the way are not found: there is no way.
 * O(1) but for a sphere kept out of the grid for its size (carom_world
 * then builds itself again, O(N)). */
carom_status carom_world_set_position(carom_world *world, carom_sphere_id id,
                                      const double position[3]);
/* For a driven sphere: the application moved it in a way its bound did not
 * allow (a jump, a new acceleration bound): the world probes it now and
 * starts a new bound with accel_bound (>= 0). Contacts the jump skipped
 * over are not found; overlaps it creates are reported with their depth. */
carom_status carom_world_reprobe_sphere(carom_world *world, carom_sphere_id id,
                                        double accel_bound);
carom_status carom_world_get_sphere(const carom_world *world, carom_sphere_id id,
                                    carom_sphere_state *out);
/* With def.count_images: the periodic image of a sphere, such that its
 * position from carom_world_get_sphere plus image[k] * box[k] along every
 * axis is its unwrapped position, which never jumps by a box length (for
 * mean-square displacements). It continues the coordinates the sphere was
 * added (or last moved, carom_world_set_position) with, even from outside
 * the box. 0 along walled axes (and z in 2D). A driven sphere's image
 * follows the world's view of it (the application knows its own
 * coordinates). Under Lees-Edwards shear (carom_world_set_shear) the
 * unwrapped x also adds image[1] * carom_world_shear_offset(world): a
 * sphere in the image above moves with it (its unwrapped position
 * continues through changes of rate; carom_world_set_shear_offset moves
 * it by image[1] times the jump, and so does stopping the shear, rate 0,
 * the offset going back to 0). CAROM_ERR_INVALID_ARGUMENT if
 * def.count_images is 0, CAROM_ERR_NO_SUCH_SPHERE for an id that is not
 * live. */
carom_status carom_world_get_image(const carom_world *world, carom_sphere_id id,
                                   int64_t image[3]);
/* With def.count_images: makes the sphere's image now the given one (for a
 * restart from a trajectory that kept images; the dynamics do not change).
 * Nonzero components along axes that are not periodic (and z in 2D) are
 * refused with CAROM_ERR_INVALID_ARGUMENT, as is a world without
 * def.count_images; CAROM_ERR_NO_SUCH_SPHERE for an id that is not live. */
carom_status carom_world_set_image(carom_world *world, carom_sphere_id id,
                                   const int64_t image[3]);

/* Angular velocity of a sphere (its spin: radians per unit time, about
 * its centre), the same at every time between contacts (nothing exerts a
 * torque but contacts). In 2D only spin[2] (about z) may be nonzero. Every
 * sphere starts with none. With smooth contacts (both tangential
 * restitutions -1) spins never change and change nothing. With rough
 * ones, a contact gives the two sides equal and opposite impulses at the
 * point of contact: each side's angular momentum about that point, and
 * the momentum of the two, are kept; the normal relative speed there
 * turns into -e times itself (as for smooth spheres) and the tangential
 * one into -beta times itself. The moment of inertia is def.inertia_factor
 * m r^2 with the radius at the time (growing spheres keep their spin). A
 * sphere of infinite mass has infinite inertia: other spheres never change
 * its spin, and what it has moves the surfaces it touches (a spinning
 * wheel); against a fixed surface it turns as any sphere does (the
 * outcome does not depend on the mass, as for its bounce). The tangential impulse is applied before the contact callback,
 * which sees the velocities after it; set_spin may be called from the
 * callback (spins do not take part in predictions). Driven spheres keep
 * their spins for the application to read; the velocity change a rough
 * contact gives them is kicked to their driver with the normal one.
 * CAROM_ERR_NO_SUCH_SPHERE for an id that is not live;
 * CAROM_ERR_INVALID_ARGUMENT for a spin that is not finite or, in 2D, has
 * an x or y component. */
carom_status carom_world_get_spin(const carom_world *world, carom_sphere_id id, double spin[3]);
carom_status carom_world_set_spin(carom_world *world, carom_sphere_id id, const double spin[3]);

/* Species: which pairs of spheres meet. Every sphere has a species, 0 to
 * CAROM_SPECIES_MAX - 1 (carom_sphere_def.species, default 0), and the
 * world a symmetric table saying which species pass through each other;
 * by default every pair meets. Spheres of two such species never
 * collide, are never reported (no contact, no callback) and may overlap
 * (they may be added overlapping, and carom_world_max_overlap_now leaves
 * such pairs out); walls, planes, segments and triangles still meet
 * every sphere, and queries still find every sphere. Mixtures of
 * statistical mechanics (Widom-Rowlinson: like species pass through;
 * Asakura-Oosawa: the polymers pass through each other; an ideal gas
 * among hard spheres) and a game engine's collision layers (ghosts,
 * debris that only hits the scenery). Predictions test the species of
 * each candidate only once some pair passes through.
 *
 * carom_world_set_pass_through: species a and b (a == b: spheres of one
 * species) pass through each other (pass = 1) or meet (pass = 0).
 * carom_world_set_species: a sphere changes species (not from a
 * callback). After the first advance, a change that makes pairs meet is
 * checked at once: if two spheres that would meet overlap now (beyond a
 * relative 1e-10, as for spheres added), it is refused with
 * CAROM_ERR_OVERLAP naming them, and nothing changes (before the first
 * advance, that advance checks). A report-only world allows overlaps, and
 * a pair that starts to meet while overlapping is first reported when it
 * comes into contact again after separating. The table changed: every
 * event is predicted again at once (O(N); while the spheres grow, at the
 * next advance); a sphere's species changed: its events.
 * CAROM_ERR_INVALID_ARGUMENT for a species out of range. */
#define CAROM_SPECIES_MAX 32
carom_status carom_world_set_pass_through(carom_world *world, uint32_t a, uint32_t b, int pass);
/* 1 if species a and b pass through each other, 0 if they meet (and for
 * species out of range). */
int carom_world_passes_through(const carom_world *world, uint32_t a, uint32_t b);
carom_status carom_world_set_species(carom_world *world, carom_sphere_id id, uint32_t species);

/* Sensing pairs: a game engine's sensors (triggers), a detector's
 * counting, who-touched-whom without a push. Species a and b (a == b:
 * spheres of one species) that sense each other (sense = 1) pass through
 * each other, as if they passed through (carom_world_set_pass_through),
 * and every contact is reported: each time two of them come to touch
 * from outside, the contact callback and the recorded contacts get a
 * CAROM_CONTACT_SPHERE contact at that exact time with impulse 0 and the
 * velocities unchanged (a callback may change them, as for any
 * contact), once, not again while they overlap; and when they part
 * (their distance rising back through the sum of the radii), a second
 * one with parting = 1: a game engine's begin and end of touch. Two
 * that overlap where they are placed (added, built, moved, or by a change
 * of species or of this table that makes them sense each other, deeper
 * than 1e-9 of the sum of the radii, or within that and approaching) are
 * reported at the start of the next call that processes events, at the
 * world's time, with depth > 0 the overlap; a sphere moved
 * (carom_world_set_position) keeps the contacts it still overlaps, and
 * the others' partings are reported there too. Every contact reported
 * has exactly one parting (a game engine's end of touch): reported when
 * the pair parts, or, when either sphere is removed or the pair stops
 * sensing (a change of species or of this table) first, with parting = 2
 * at the start of the next call that processes events (before the
 * partings and contacts of spheres placed). So the pairs in contact are
 * those that overlap, after every advance. The contacts are counted in
 * carom_stats.sensed_contacts, the partings (both kinds) in
 * sensed_partings, neither among the
 * collisions (and add nothing to the virial). Every other pair goes on
 * as before: a sphere may collide with some species and sense others.
 * In a report-only world (CAROM_RESPONSE_NONE) sensing is meeting:
 * every contact is reported anyway (partings are not). A pair is in one mode: sensing
 * (sense = 1), passing through (carom_world_set_pass_through(..., 1)) or
 * meeting (either call with 0, the default); setting one mode ends the
 * others, and a change that makes pairs meet is checked for overlaps as
 * carom_world_set_pass_through's. Every event is predicted again (O(N)).
 * A contact at the same instant as its pair's last contact is not
 * reported again (when a sphere collides elsewhere at the instant it
 * touches a sensing partner; if the collision turns it away, the pair
 * parts at that instant too). A pair that touches, to round-off (within
 * 1e-9 of its contact distance), without approaching is not in contact;
 * it comes in when one is turned towards the other. A driven sphere
 * senses as any other: its
 * bound's meetings find the contact and the parting, each to within the
 * driven contact tolerance (1e-10 (r_i + r_j)) of where it happens, as
 * probed. Refused (CAROM_ERR_INVALID_ARGUMENT) in a world that responds
 * and has growing spheres (carom_world_set_growth), and growth is refused
 * in a world where some pair senses; and for species out of range.
 * carom_world_senses: 1 if species a and b sense each other (0 for
 * species out of range). */
carom_status carom_world_set_sense(carom_world *world, uint32_t a, uint32_t b, int sense);
int carom_world_senses(const carom_world *world, uint32_t a, uint32_t b);

/* Lees-Edwards boundaries: planar shear flow along x, its gradient along
 * y, at `rate` (a velocity profile u_x = rate (y - Ly/2) when steady).
 * The periodic image of the box above it (at y + Ly) is displaced along x
 * by rate Ly t (mod Lx) and moves at rate Ly; the one below, the reverse.
 * A sphere leaving through the top of the box enters at the bottom with
 * x shifted back by that displacement and rate Ly taken from its x
 * velocity (through the bottom, the reverse): its motion, seen from any
 * image, does not change. Pairs across the boundary meet through those
 * moving images, exactly, like any other pair; a contact across it is
 * reported with j's velocity_after the velocity of j's image that i
 * touched (j's own plus or minus rate Ly along x); so is a sensing
 * pair's contact and parting (carom_world_set_sense), and one placed
 * overlapping through the images is reported as in a world at rest. The
 * work the
 * boundaries do heats the spheres: at rate g, the kinetic energy of the
 * velocities relative to the profile grows at -g V P_xy (elastic
 * contacts), the route to the shear viscosity -P_xy / g.
 * carom_world_temperature and carom_world_compressibility take the
 * velocities as they are, the flow's kinetic energy included.
 * 0 (the default) ends it; a new rate goes on from the displacement
 * reached, and the next advance predicts every event again (O(N)).
 * Refused (CAROM_ERR_INVALID_ARGUMENT, naming the reason) for a rate
 * that is not finite, and in a world with walls along x or y, gravity,
 * driven spheres, report-only response, growing spheres,
 * or fixed planes, segments or triangles; the next
 * advance fails the same way when one of these is added later. A sheared
 * world keeps every sphere in one dense level of cells, as wide as its
 * largest sphere needs (no hierarchy of cells, no sphere kept out of the
 * grid, no hashed cells in a sparse box): widely spread radii run, more
 * slowly than in a world at rest. Dense
 * sheared worlds use neighbour lists as others do (carom_neighbours).
 * Sphere queries and casts (carom_world_query_sphere,
 * carom_world_cast_sphere) are refused in a sheared world: they would not
 * see across the sheared boundary. carom_world_shear_offset: the
 * displacement now, in [0, Lx). */
carom_status carom_world_set_shear(carom_world *world, double rate);
double carom_world_shear_rate(const carom_world *world);
double carom_world_shear_offset(const carom_world *world);
/* Sets the displacement of the image above now (for a restart: the
 * offset a sheared run ended at, so that its images do not jump); taken
 * mod Lx. The next advance checks every pair again (CAROM_ERR_OVERLAP
 * naming two that the jump made overlap) and predicts every event again.
 * Refused (CAROM_ERR_INVALID_ARGUMENT) for an offset that is not finite
 * and in a world that is not sheared. */
carom_status carom_world_set_shear_offset(carom_world *world, double offset);

/* Restitution by species: the coefficient of restitution of a contact
 * between spheres of species a and b (symmetric), and of a sphere of
 * species s with walls, planes, segments and triangles. They stand in for
 * def.restitution and def.wall_restitution, which every pair or species
 * not set keeps. Granular mixtures whose grains dissipate differently
 * (the species then cool to different temperatures), a game's materials
 * (a rubber ball, a lump of clay). restitution_min_speed applies as
 * always: slower contacts are elastic. A change takes effect from the
 * next contact and predicts nothing again (restitution changes no
 * contact time). CAROM_ERR_INVALID_ARGUMENT for a species out of range
 * or a coefficient outside [0, 1] (NaN included), and nothing changes. */
carom_status carom_world_set_pair_restitution(carom_world *world, uint32_t a, uint32_t b,
                                              double restitution);
carom_status carom_world_set_wall_restitution(carom_world *world, uint32_t species,
                                              double restitution);
/* The coefficients in force (def's unless set); NaN for species out of
 * range. */
double carom_world_pair_restitution(const carom_world *world, uint32_t a, uint32_t b);
double carom_world_wall_restitution(const carom_world *world, uint32_t species);

/* Friction by species: the tangential restitution beta in [-1, 1] (-1:
 * smooth) and Coulomb's coefficient mu >= 0 (INFINITY: no limit) of
 * contacts between species a and b (symmetric), and of species s with
 * walls, planes, segments and triangles, standing in for def's
 * tangential_restitution and friction (wall_tangential_restitution and
 * wall_friction), which the others keep; the rough-sphere model of
 * carom_world_get_spin. Grains of different materials, a game's ice and
 * rubber. A change applies from the next contact and predicts nothing
 * again. The world keeps spins while any coefficient in force is other
 * than -1 (carom_world_is_rough): a set that makes it rough gives every
 * sphere a spin of zero (CAROM_ERR_OUT_OF_MEMORY if there is no room
 * for them, and nothing changes); one that makes it smooth again leaves
 * the spins as they are. CAROM_ERR_INVALID_ARGUMENT for a species out of
 * range, beta outside [-1, 1] or mu below 0 (NaN included), and nothing
 * changes. The getters give the coefficients in force
 * (CAROM_ERR_INVALID_ARGUMENT for species out of range or NULL). */
carom_status carom_world_set_pair_friction(carom_world *world, uint32_t a, uint32_t b,
                                           double tangential_restitution, double friction);
carom_status carom_world_set_wall_friction(carom_world *world, uint32_t species,
                                           double tangential_restitution, double friction);
carom_status carom_world_pair_friction(const carom_world *world, uint32_t a, uint32_t b,
                                       double *tangential_restitution, double *friction);
carom_status carom_world_wall_friction(const carom_world *world, uint32_t species,
                                       double *tangential_restitution, double *friction);
/* 1 if the world keeps spins for rough contacts: its response is
 * CAROM_RESPONSE_ELASTIC and some tangential restitution in force (def's
 * or a species') is other than -1. */
int carom_world_is_rough(const carom_world *world);

/* Number of ids handed out so far (removed spheres keep their id). */
size_t carom_world_sphere_capacity(const carom_world *world);
/* Number of spheres present. */
size_t carom_world_sphere_count(const carom_world *world);
int carom_world_sphere_exists(const carom_world *world, carom_sphere_id id);

/* The definition the world was created with (dim, box, boundaries,
 * gravity, response...). */
const carom_world_def *carom_world_get_def(const carom_world *world);

double carom_world_time(const carom_world *world);
int carom_world_dim(const carom_world *world);

/* The skin of the neighbour lists the world uses (see carom_neighbours):
 * a sphere remakes its list after moving this far. 0 when it uses cells,
 * and before the first advance (where the world makes its choice). The
 * skin is 0.2 of the mean diameter, 0.3 in worlds of 150,000 spheres or
 * more (too large for the caches), 0.4 in 3D below packing 0.4. */
double carom_world_list_skin(const carom_world *world);

/* Fixed planes: a plane keeps the spheres on the side its normal points
 * to, n . x >= offset + radius (n the normal made unit length, the
 * offset divided by its length: a normal (0, 0, 2) and offset 4 make a
 * floor at z = 2), and
 * responds like a wall of the box (def.wall_restitution,
 * restitution_min_speed; CAROM_CONTACT_PLANE contacts with the plane's
 * index in `wall`, counted among the wall hits). Spheres falling under
 * gravity hit it exactly (the contact time solves the quadratic). The
 * normal must have no component along a periodic axis (a wrap would move
 * a sphere across the plane) nor along z in 2D. Every live sphere must be
 * on the free side now (to a relative 1e-10 of its radius), and so must
 * every sphere added later (CAROM_ERR_OUTSIDE_BOX, naming the sphere and
 * the plane). Each prediction tests every plane: planes are for a few
 * surfaces (a floor, an incline, a wedge), not for meshes. Driven
 * spheres meet planes as they meet the box's walls (their bounds, then a
 * probe; only those the response can move bounce). Refused
 * (CAROM_ERR_INVALID_ARGUMENT) for a normal of zero length or with
 * non-finite numbers. Growing spheres (carom_world_set_growth) are
 * checked with the radius they have now. The world builds again (O(N))
 * at the next advance. index_out may be NULL;
 * planes are numbered 0, 1, ... in the order added. */
carom_status carom_world_add_plane(carom_world *world, const double normal[3], double offset,
                                   uint32_t *index_out);
size_t carom_world_plane_count(const carom_world *world);
/* The unit normal and offset of plane index; CAROM_ERR_INVALID_ARGUMENT
 * if there is no such plane. */
carom_status carom_world_get_plane(const carom_world *world, uint32_t index, double normal[3],
                                   double *offset);

/* Fixed segments (2D): a thin wall from a to b that spheres bounce off
 * on either side and around its two ends (a centre keeps at least its
 * radius from every point of the segment), like a wall of the box
 * (def.wall_restitution, restitution_min_speed), along the line from the
 * segment's nearest point to the centre; CAROM_CONTACT_SEGMENT contacts
 * with the segment's index in `wall`, counted among the wall hits. The
 * contact time is exact under gravity too (a quadratic at the faces, a
 * quartic at the ends). Several segments make a hopper, a funnel, a
 * ramp with an edge. Every live sphere must be clear of it now (to a
 * relative 1e-10 of its radius), and so must every sphere added later
 * (CAROM_ERR_OVERLAP, naming the sphere and the segment). A prediction
 * tests only the segments near the sphere's path (a tree of their boxes;
 * for a driven sphere, near its bound's), so a level of thousands costs
 * about what a few do. Growing spheres (carom_world_set_growth) meet them when their
 * growing surface reaches a face or an end, and are checked with the
 * radius they have now. Driven spheres' bounds meet them too. Along
 * periodic axes the segment repeats with the box: the world stores it
 * moved by -L, 0 and +L along each (up to 9 copies), and
 * contacts, casts and overlap errors name it by its index whichever copy
 * was met. Refused (CAROM_ERR_INVALID_ARGUMENT) in 3D worlds, for ends
 * that are not finite or outside the box [0, L], or equal.
 * The world builds again (O(N)) at the next advance. index_out may be
 * NULL; segments are numbered 0, 1, ... in the order added. */
carom_status carom_world_add_segment(carom_world *world, const double a[2], const double b[2],
                                     uint32_t *index_out);
size_t carom_world_segment_count(const carom_world *world);
/* The ends of segment index; CAROM_ERR_INVALID_ARGUMENT if there is no
 * such segment. */
carom_status carom_world_get_segment(const carom_world *world, uint32_t index, double a[2],
                                     double b[2]);

/* Fixed triangles (3D): a thin wall with corners a, b, c that spheres
 * bounce off on either side, around its edges and on its corners (a
 * centre keeps at least its radius from every point of the triangle),
 * like a wall of the box (def.wall_restitution, restitution_min_speed),
 * along the line from the triangle's nearest point to the centre;
 * CAROM_CONTACT_TRIANGLE contacts with the triangle's index in `wall`,
 * counted among the wall hits. The contact time is exact under gravity
 * too (a quadratic at the faces, quartics at the edges and corners).
 * Several triangles make a funnel, a silo, a ramp, a box with an
 * opening, the faces of a mesh. Every live sphere must be clear of it
 * now (to a relative 1e-10 of its radius), and so must every sphere
 * added later (CAROM_ERR_OVERLAP, naming the sphere and the triangle).
 * A prediction looks only at the triangles whose bounding boxes the
 * sphere's path could meet before its next wall or cell crossing (a tree
 * of the boxes), so meshes of thousands of small triangles cost little
 * more than a few; triangles that share an edge or a corner (exactly the
 * same corners) leave it to the lowest of them, which is then the one
 * named at a tie. Growing spheres (carom_world_set_growth) meet them when their
 * growing surface reaches a face, an edge or a corner; driven spheres'
 * bounds meet them too. Along periodic axes the triangle repeats with
 * the box (a floor over the whole periodic square is seamless: its
 * edges on the boundary meet the far side's): the world stores it
 * moved by -L, 0 and +L along each (up to 27 copies, memory and tree
 * alike), and contacts, casts and overlap errors name it by its index
 * whichever copy was met. Refused (CAROM_ERR_INVALID_ARGUMENT) in 2D
 * worlds (use segments), for corners that are not finite or outside the
 * box [0, L] on any axis, and for a triangle without area (its corners
 * on a line). The world builds again (O(N)) at the next advance.
 * index_out may be NULL; triangles are numbered 0, 1, ... in the order
 * added. */
carom_status carom_world_add_triangle(carom_world *world, const double a[3], const double b[3],
                                      const double c[3], uint32_t *index_out);
size_t carom_world_triangle_count(const carom_world *world);
/* The corners of triangle index; CAROM_ERR_INVALID_ARGUMENT if there is
 * no such triangle. */
carom_status carom_world_get_triangle(const carom_world *world, uint32_t index, double a[3],
                                      double b[3], double c[3]);

/* Growing spheres (the Lubachevsky-Stillinger compression that makes
 * dense packings): from the world's time t0 on, every radius grows
 * linearly, r(t) = r(t0) (1 + rate (t - t0)); rate 0 stops the growth
 * and keeps the radii reached. Contacts stay exact: each pair (and each
 * sphere and wall, fixed plane or segment) meets when its growing contact
 * distance is reached, and parts as fast as it approached in the frame
 * of the growing surfaces (the normal relative velocity goes from v to
 * 2 s - v, s the contact distance's growth speed; restitution e:
 * s - e (v - s)), so the kinetic energy rises. While growing the world
 * uses cells only (no neighbour lists, no big spheres kept out of the
 * grid) and is built again, O(N), each time the radii have grown by a
 * tenth; spheres added or moved (carom_world_set_position) are checked
 * by the next advance, with their radius given as it is now.
 * carom_world_get_sphere gives the radius now. Refused (CAROM_ERR_INVALID_ARGUMENT) with
 * gravity, driven spheres or report-only response, and for a rate that
 * is not finite and >= 0. */
carom_status carom_world_set_growth(carom_world *world, double rate);
double carom_world_growth(const carom_world *world); /* the rate set (0: none) */
/* Volume (2D: area) of the spheres now over the box's. */
double carom_world_packing_fraction(const carom_world *world);

/* Sorts the spheres' records along a space-filling curve of their
 * positions now (see carom_reorder), at the world's current time; any
 * world, driven and report-only ones too (driven spheres are probed).
 * Ids do not change. */
carom_status carom_world_sort_spatially(carom_world *world);

/* Processes every event up to time t (inclusive) and moves every sphere to
 * t. Checks the initial state on the first call (overlap, outside box). */
carom_status carom_world_advance_to(carom_world *world, double t);

/* Processes at most max_events events; *processed receives how many.
 * Sphere positions are valid at carom_world_time() afterwards only
 * through carom_world_get_sphere (which extrapolates). */
carom_status carom_world_step_events(carom_world *world, uint64_t max_events,
                                     uint64_t *processed);

/* carom_world_advance_to in resumable pieces, for frame drivers with a
 * wall-clock budget: processes the events up to time t, at most max_events
 * of them. *reached is 1 when none is left before t (the world is then at
 * t with every position valid, as after carom_world_advance_to), 0 when
 * the budget ran out first (the world is at its last event's time; call
 * again to go on). No event is ever skipped. */
carom_status carom_world_advance_to_limited(carom_world *world, double t,
                                            uint64_t max_events, uint64_t *processed,
                                            int *reached);

/* The contacts of the last call that processed events
 * (carom_world_advance_to, carom_world_advance_to_limited,
 * carom_world_step_events; a heat bath's advance, thermostat.h, is one
 * call here), in the order they happened, when the world was created
 * with def.record_contacts = 1: events pulled after an advance instead
 * of (or as well as) a callback.
 * Each is as the contact callback left it (or as it would have seen it).
 * *count receives their number (0 without record_contacts). The array
 * belongs to the world and is valid until its next such call. Keeping
 * them costs sizeof(carom_contact) bytes each; when memory runs out the
 * advance stops after that event with CAROM_ERR_OUT_OF_MEMORY, the
 * contacts so far kept. */
const carom_contact *carom_world_recorded_contacts(const carom_world *world, size_t *count);

void carom_world_get_stats(const carom_world *world, carom_stats *out);
void carom_world_reset_stats(carom_world *world);

/* Derived quantities at the current time (finite-mass spheres only). */
double carom_world_kinetic_energy(const carom_world *world);
void carom_world_momentum(const carom_world *world, double out[3]);
/* kT = 2 KE / (dim * N) over finite-mass spheres. */
double carom_world_temperature(const carom_world *world);
/* Sum of I w^2 / 2 over finite-mass spheres (I = def.inertia_factor m r^2),
 * and kT = 2 E_rot / (d_rot N) with d_rot = 3 in 3D, 1 in 2D. */
double carom_world_rotational_energy(const carom_world *world);
double carom_world_rotational_temperature(const carom_world *world);
/* Volume (3D) or area (2D) of the box. */
double carom_world_volume(const carom_world *world);
/* Z = PV/(NkT) from the collision virial over the measured interval,
 * with kT the mean of its values at the start and now. NaN if undefined. */
double carom_world_compressibility(const carom_world *world);

/* Largest pair overlap at the current time, relative to the contact
 * distance (0 when no two spheres overlap). Uses the grid: O(N). */
double carom_world_max_overlap_now(const carom_world *world);

#ifdef __cplusplus
}
#endif
#endif
