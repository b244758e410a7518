/* The keys about species: species=, species_fraction= and the keys that
 * name species or pairs of species, pass_through=, sense=, pair_restitution=,
 * species_wall_restitution=, pair_friction= and species_wall_friction=.
 * Interface in options.h (options_get_species in options_parse.h).
 *
 * Contract: options_get_species fills o->species, o->species_fraction and
 * one species_values per key naming species, read by one parser: items
 * separated by commas, each a pair a-b (kept as a <= b) or a species s,
 * then after a ':' its key's numbers, each checked against its range.
 * Every species and pair is kept once: given twice with the same numbers
 * it is kept once, with others refused. Species must be below
 * CAROM_SPECIES_MAX, and without an init file below species= too
 * (options_check_species_keys, which setup_scene calls again with the
 * file's species). Failures are usage errors naming the key, its value
 * and where it came from.
 */
#include "options_parse.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* A species number at *s, before end (blanks allowed around it): 1 and
 * *s past it and its blanks, the number kept from overflowing (beyond
 * 999, some number above 999), else 0. */
static int parse_species_number(const char **s, const char *end, unsigned long *out)
{
    const char *p = *s;
    while (p < end && isspace((unsigned char)*p))
        p++;
    if (p == end || !isdigit((unsigned char)*p))
        return 0;
    *out = 0;
    for (; p < end && isdigit((unsigned char)*p); p++)
        if (*out < 1000)
            *out = 10 * *out + (unsigned long)(*p - '0');
    while (p < end && isspace((unsigned char)*p))
        p++;
    *s = p;
    return 1;
}

/* "a-b" in [s, end) (blanks allowed around each number): 1 and the two
 * numbers (as parse_species_number gives them), else 0. */
static int parse_species_pair(const char *s, const char *end, unsigned long pair[2])
{
    if (!parse_species_number(&s, end, &pair[0]) || s == end || *s++ != '-')
        return 0;
    return parse_species_number(&s, end, &pair[1]) && s == end;
}

/* A species beyond the library's table (0 to CAROM_SPECIES_MAX - 1) in
 * key's value: a usage error naming it. */
static int species_beyond_table(const config *c, config_key key, unsigned long k,
                                cli_error *error)
{
    char problem[96];
    if (k < 1000)
        snprintf(problem, sizeof problem, "species %lu out of range (0 to %d)", k,
                 CAROM_SPECIES_MAX - 1);
    else /* (kept from overflowing: not the number given) */
        snprintf(problem, sizeof problem, "a species out of range (0 to %d)",
                 CAROM_SPECIES_MAX - 1);
    return options_bad_value(c, key, error, problem);
}

/* A key whose items name a pair of species or a species, each with
 * `numbers` numbers after a ':' (none: no ':'; two: separated by ':',
 * the second optional). */
typedef struct species_key {
    config_key key;
    int pairs;            /* items name a pair a-b (else a species s) */
    int numbers;          /* 0, 1 or 2 */
    const char *expected; /* the problem of a malformed item */
    struct {
        const char *name; /* in messages */
        double lo, hi;    /* its range (hi infinite: lo and above, inf included) */
    } number[2];
} species_key;

/* pass_through=a-b,...: pairs of species that pass through each other. */
static const species_key pass_through_key = {
    .key = KEY_PASS_THROUGH,
    .pairs = 1,
    .expected = "expected pairs of species a-b separated by commas (pass_through=0-1,1-1)",
};

/* sense=a-b,...: pairs of species that sense each other (pass through,
 * each contact reported). */
static const species_key sense_key = {
    .key = KEY_SENSE,
    .pairs = 1,
    .expected = "expected pairs of species a-b separated by commas (sense=0-1)",
};

/* pair_restitution=a-b:e,...: pairs of species and their coefficient of
 * restitution. */
static const species_key pair_restitution_key = {
    .key = KEY_PAIR_RESTITUTION,
    .pairs = 1,
    .numbers = 1,
    .expected = "expected items a-b:e (species a and b, a coefficient e) separated by commas "
                "(pair_restitution=0-1:0.8,1-1:0.5)",
    .number = {{"the coefficient", 0.0, 1.0}},
};

/* species_wall_restitution=s:e,...: species and their coefficient of
 * restitution with walls, planes, segments and triangles. */
static const species_key species_wall_restitution_key = {
    .key = KEY_SPECIES_WALL_RESTITUTION,
    .numbers = 1,
    .expected = "expected items s:e (a species s, a coefficient e) separated by commas "
                "(species_wall_restitution=0:0.5,1:0.9)",
    .number = {{"the coefficient", 0.0, 1.0}},
};

/* pair_friction=a-b:beta[:mu],...: pairs of species, their tangential
 * restitution and Coulomb's mu (friction='s when not given; inf: no
 * limit, as friction='s default). */
static const species_key pair_friction_key = {
    .key = KEY_PAIR_FRICTION,
    .pairs = 1,
    .numbers = 2,
    .expected = "expected items a-b:beta or a-b:beta:mu (species a and b, a tangential "
                "restitution beta, Coulomb's mu) separated by commas "
                "(pair_friction=0-1:1,1-1:0:0.5)",
    .number = {{"the tangential restitution", -1.0, 1.0},
               {"the friction coefficient", 0.0, INFINITY}},
};

/* species_wall_friction=s:beta[:mu],...: species, their tangential
 * restitution and Coulomb's mu (wall_friction='s when not given) with
 * walls, planes, segments and triangles. */
static const species_key species_wall_friction_key = {
    .key = KEY_SPECIES_WALL_FRICTION,
    .numbers = 2,
    .expected = "expected items s:beta or s:beta:mu (a species s, a tangential restitution "
                "beta, Coulomb's mu) separated by commas (species_wall_friction=0:1,1:0:0.5)",
    .number = {{"the tangential restitution", -1.0, 1.0},
               {"the friction coefficient", 0.0, INFINITY}},
};

/* The pair or species of an item of k's value, [s, end): who (a <= b; a
 * species s as s, s) and its name in messages, item. */
static int parse_who(const config *c, const species_key *k, const char *s, const char *end,
                     unsigned char who[2], char *item, size_t size, cli_error *error)
{
    unsigned long n[2];
    if (k->pairs ? !parse_species_pair(s, end, n)
                 : (!parse_species_number(&s, end, &n[0]) || s != end))
        return options_bad_value(c, k->key, error, k->expected);
    if (!k->pairs)
        n[1] = n[0];
    for (int side = 0; side < 2; side++)
        if (n[side] >= CAROM_SPECIES_MAX)
            return species_beyond_table(c, k->key, n[side], error);
    who[0] = (unsigned char)(n[0] < n[1] ? n[0] : n[1]);
    who[1] = (unsigned char)(n[0] < n[1] ? n[1] : n[0]);
    if (k->pairs)
        snprintf(item, size, "pair %d-%d", who[0], who[1]);
    else
        snprintf(item, size, "species %d", who[0]);
    return 0;
}

/* The numbers of an item of k's value after its ':', [s, end), each in
 * its range (value[1] keeps its default when an optional second is not
 * given); `item` names the pair or species in the message. */
static int parse_numbers(const config *c, const species_key *k, const char *s, const char *end,
                         const char *item, double value[2], cli_error *error)
{
    for (int q = 0; q < k->numbers; q++) {
        const char *colon = q + 1 < k->numbers ? memchr(s, ':', (size_t)(end - s)) : NULL;
        const char *stop = colon ? colon : end;
        const char *name = k->number[q].name;
        double lo = k->number[q].lo, hi = k->number[q].hi;
        int (*parse)(const config *, config_key, const char *, size_t, double *, cli_error *) =
            isinf(hi) ? options_parse_limit : options_parse_number;
        if (parse(c, k->key, s, (size_t)(stop - s), &value[q], error))
            return error->exit_code;
        if (value[q] < lo || value[q] > hi) {
            char problem[160];
            if (isinf(hi))
                snprintf(problem, sizeof problem, "%s: %s must be >= %g, not %g", item, name, lo,
                         value[q]);
            else
                snprintf(problem, sizeof problem, "%s: %s must be in [%g, %g], not %g", item,
                         name, lo, hi, value[q]);
            return options_bad_value(c, k->key, error, problem);
        }
        if (!colon)
            break;
        s = colon + 1;
    }
    return 0;
}

/* "0.5" or "1:0.2": an item's numbers, as given twice tells them. */
static void numbers_text(int numbers, const double value[2], char *text, size_t size)
{
    if (numbers == 2)
        snprintf(text, size, "%g:%g", value[0], value[1]);
    else
        snprintf(text, size, "%g", value[0]);
}

/* The same pair or species given twice: refused with other numbers, kept
 * once with the same ones. */
static int given_twice(const config *c, const species_key *k, const char *item,
                       const double was[2], const double value[2], cli_error *error)
{
    int same = 1;
    for (int q = 0; q < k->numbers; q++)
        same &= was[q] == value[q];
    if (same)
        return 0;
    char before[64], after[64], problem[256];
    numbers_text(k->numbers, was, before, sizeof before);
    numbers_text(k->numbers, value, after, sizeof after);
    snprintf(problem, sizeof problem, "%s given twice, with %s and %s", item, before, after);
    return options_bad_value(c, k->key, error, problem);
}

/* k's value into v: items separated by commas, each a pair or a species
 * then (after a ':') its numbers; `second` is the second number's default
 * (an optional mu's). */
static int get_species_values(const config *c, const species_key *k, double second,
                              species_values *v, cli_error *error)
{
    v->n = 0;
    if (!config_is_set(c, k->key))
        return 0;
    v->origin = c->origin[k->key];
    v->text = c->value[k->key];
    for (const char *s = v->text;;) {
        const char *comma = strchr(s, ',');
        const char *end = comma ? comma : s + strlen(s);
        /* (without numbers, the whole item names the species) */
        const char *colon = k->numbers ? memchr(s, ':', (size_t)(end - s)) : end;
        if (!colon)
            return options_bad_value(c, k->key, error, k->expected);
        unsigned char who[2];
        char item[32];
        double value[2] = {0.0, second};
        if (parse_who(c, k, s, colon, who, item, sizeof item, error) ||
            (k->numbers && parse_numbers(c, k, colon + 1, end, item, value, error)))
            return error->exit_code;
        int known = 0;
        for (int q = 0; q < v->n && !known; q++)
            if (v->who[q][0] == who[0] && v->who[q][1] == who[1]) {
                if (given_twice(c, k, item, v->value[q], value, error))
                    return error->exit_code;
                known = 1;
            }
        if (!known) {
            memcpy(v->who[v->n], who, sizeof who);
            memcpy(v->value[v->n], value, sizeof value);
            v->n++;
        }
        if (!comma)
            return 0;
        s = comma + 1;
    }
}

/* species=K, species_fraction=f0,...: K species (1 to CAROM_SPECIES_MAX)
 * in these shares (normalised; default equal); an init file gives its
 * own. Then the keys that name species (after friction= and
 * wall_friction=, their mu's defaults). */
int options_get_species(const config *c, run_options *o, cli_error *error)
{
    static const config_key from_file[] = {KEY_SPECIES, KEY_SPECIES_FRACTION};
    for (size_t k = 0; o->init && k < sizeof from_file / sizeof from_file[0]; k++)
        if (config_from_user(c, from_file[k]))
            return cli_fail(error, CLI_EXIT_USAGE,
                            "%s: %s=%s cannot be combined with init (the file %s gives the "
                            "species)",
                            c->origin[from_file[k]], config_key_name(from_file[k]),
                            c->value[from_file[k]], o->init);
    double x;
    if (options_get_whole(c, KEY_SPECIES, 1, 1, CAROM_SPECIES_MAX, &x, error))
        return error->exit_code;
    o->species = (int)x;
    for (int k = 0; k < o->species; k++)
        o->species_fraction[k] = 1.0 / o->species;
    if (config_is_set(c, KEY_SPECIES_FRACTION)) {
        double f[CAROM_SPECIES_MAX], sum = 0.0;
        int count;
        if (options_parse_list(c, KEY_SPECIES_FRACTION, f, CAROM_SPECIES_MAX, &count, error))
            return error->exit_code;
        if (count != o->species) {
            char problem[128];
            snprintf(problem, sizeof problem, "expected %d number%s, one per species (species=%d)",
                     o->species, o->species == 1 ? "" : "s", o->species);
            return options_bad_value(c, KEY_SPECIES_FRACTION, error, problem);
        }
        for (int k = 0; k < count; k++) {
            if (f[k] < 0.0)
                return options_bad_value(c, KEY_SPECIES_FRACTION, error,
                                         "fractions must be >= 0");
            sum += f[k];
        }
        if (!(sum > 0.0) || !isfinite(sum))
            return options_bad_value(c, KEY_SPECIES_FRACTION, error,
                                     "fractions must have a positive, finite sum");
        for (int k = 0; k < count; k++)
            o->species_fraction[k] = f[k] / sum;
    }
    if (get_species_values(c, &pass_through_key, 0.0, &o->pass_through, error) ||
        get_species_values(c, &sense_key, 0.0, &o->sense, error) ||
        get_species_values(c, &pair_restitution_key, 0.0, &o->pair_restitution, error) ||
        get_species_values(c, &species_wall_restitution_key, 0.0, &o->species_wall_restitution,
                           error) ||
        get_species_values(c, &pair_friction_key, o->friction, &o->pair_friction, error) ||
        get_species_values(c, &species_wall_friction_key, o->wall_friction,
                           &o->species_wall_friction, error))
        return error->exit_code;
    /* A pair is in one mode: passing through or sensing. */
    for (int q = 0; q < o->sense.n; q++)
        for (int p = 0; p < o->pass_through.n; p++)
            if (o->sense.who[q][0] == o->pass_through.who[p][0] &&
                o->sense.who[q][1] == o->pass_through.who[p][1])
                return cli_fail(error, CLI_EXIT_USAGE,
                                "%s: sense=%s: pair %d-%d also passes through (pass_through=%s "
                                "at %s): a pair either passes through or senses",
                                o->sense.origin, o->sense.text, o->sense.who[q][0],
                                o->sense.who[q][1], o->pass_through.text,
                                o->pass_through.origin);
    if (o->init)
        return 0; /* the file's species are checked once read (setup_scene) */
    char whose[32];
    snprintf(whose, sizeof whose, "species=%d", o->species);
    return options_check_species_keys(o, o->species, whose, error);
}

int options_check_species_keys(const run_options *o, int k, const char *whose, cli_error *error)
{
    const struct {
        config_key key;
        const species_values *v;
    } keys[] = {
        {KEY_PASS_THROUGH, &o->pass_through},
        {KEY_SENSE, &o->sense},
        {KEY_PAIR_RESTITUTION, &o->pair_restitution},
        {KEY_SPECIES_WALL_RESTITUTION, &o->species_wall_restitution},
        {KEY_PAIR_FRICTION, &o->pair_friction},
        {KEY_SPECIES_WALL_FRICTION, &o->species_wall_friction},
    };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        const species_values *v = keys[i].v;
        for (int q = 0; q < v->n; q++)
            if (v->who[q][1] >= k) /* (the larger of a pair) */
                return cli_fail(error, CLI_EXIT_USAGE,
                                "%s: %s=%s: species %d out of range (%s: species 0 to %d)",
                                v->origin, config_key_name(keys[i].key), v->text, v->who[q][1],
                                whose, k - 1);
    }
    return 0;
}

/* The numbers v gives pair a, b (in either order), or NULL. */
static const double *pair_values(const species_values *v, int a, int b)
{
    int lo = a < b ? a : b, hi = a < b ? b : a;
    for (int q = 0; q < v->n; q++)
        if (v->who[q][0] == lo && v->who[q][1] == hi)
            return v->value[q];
    return NULL;
}

double options_pair_restitution(const run_options *o, int a, int b)
{
    const double *e = pair_values(&o->pair_restitution, a, b);
    return e ? e[0] : o->restitution;
}

void options_pair_friction(const run_options *o, int a, int b, double *beta, double *mu)
{
    const double *law = pair_values(&o->pair_friction, a, b);
    *beta = law ? law[0] : o->tangential_restitution;
    *mu = law ? law[1] : o->friction;
}
