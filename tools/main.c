/* The `carom` command: argument dispatch and the `run` command's flow
 * (config -> options -> scene -> simulation -> report). Every error ends
 * here as one line "carom: <message>" on stderr and a nonzero exit. */
#include <stdio.h>
#include <string.h>

#include "carom/carom.h"
#include "carom/scene.h"
#include "cli.h"
#include "config.h"
#include "motion.h"
#include "options.h"
#include "report.h"
#include "setup.h"
#include "simulate.h"
#if defined(CAROM_HAVE_VIEW) || defined(CAROM_HAVE_RENDER)
#include "viewer/viewer.h"
#endif

/* Usage lines of the optional commands (tools/viewer). */
#ifdef CAROM_HAVE_VIEW
#define VIEW_USAGE "  carom view [CONFIG_FILE] [key=value ...]   (see carom view --help)\n"
#else
#define VIEW_USAGE ""
#endif
#ifdef CAROM_HAVE_RENDER
#define VIEWER_USAGE VIEW_USAGE \
    "  carom render [CONFIG_FILE] [key=value ...] frames=K out=DIR|FILE.mp4\n"
#else
#define VIEWER_USAGE VIEW_USAGE
#endif

static void print_help(FILE *out)
{
    fprintf(out,
            "carom %s - exact event-driven collision detection of hard spheres in 2D/3D\n"
            "\n"
            "usage:\n"
            "  carom run [CONFIG_FILE] [key=value ...] [--json]\n"
            VIEWER_USAGE
            "  carom --help\n"
            "  carom --version\n"
            "\n"
            "`carom run` builds a scene, runs `equilibrate` units of simulated time\n"
            "(excluded from every statistic), then the measured run of `time` units,\n"
            "and prints a summary (or, with --json, one JSON object) on stdout.\n"
            "With no arguments it runs the default scene: 3D hard spheres, n=4000,\n"
            "packing=0.3, periodic, temperature=1, equilibrate=2, time=20, seed=1.\n"
            "\n"
            "CONFIG_FILE holds one `key = value` per line; `#` starts a comment, blank\n"
            "lines are ignored. key=value arguments override the file, and a later\n"
            "setting of a key replaces an earlier one. scenario= presets fill in the\n"
            "keys you do not give.\n"
            "\n"
            "keys:\n",
            CAROM_VERSION_STRING);
    for (int k = 0; k < KEY_COUNT; k++)
        fprintf(out, "  %-17s %s\n", config_key_name((config_key)k),
                config_key_help((config_key)k));
    fprintf(out,
            "\n"
            "scenarios:\n"
            "  seed004  2D, 8123 disks of radius 0.5 in a 150x150 box with walls, gravity 1,\n"
            "           restitution 0.9, restitution_min_speed 1 (hard disks never rest:\n"
            "           a smaller value makes settled stacks bounce ever faster): they\n"
            "           settle into dense stacks (time 20)\n"
            "  seed003  2D, 150 circles of radius 0.25 in a 10x15 grid in a 10x15 box with\n"
            "           elastic walls, kT 1 (time 10)\n"
            "  seed000  3D box 200^3 with walls, 1000 spheres of radii uniform in 0.1-10 at\n"
            "           random places, random directions, speeds uniform in\n"
            "           2.5*sqrt(3)-25*sqrt(3), ballistic (time 15)\n"
            "  kgs-forces  seed000's scene driven by random forces (Kim, Guibas, Shin\n"
            "           2005, 4.2): motion=forces, accel_bound 10,20, force_interval 0.1,\n"
            "           elastic (time 15); for n > 3500 the box grows to keep the\n"
            "           density of 1000 spheres in 200^3\n"
            "  kgs-field  1000 particles of radii 1-10 at rest in a 200^3 box with walls,\n"
            "           driven by a circulating velocity field (4.3): motion=field,\n"
            "           accel_bound 30 (time 7)\n"
            "\n"
            "motion (driven spheres; the world only knows each sphere's acceleration\n"
            "bound and probes its state through the driver):\n"
            "  ballistic  free flight between events (default)\n"
            "  orbits     sphere k moves on the circle of line k of orbits=FILE:\n"
            "             `cx cy cz R omega phase radius`, position (cx + R cos(omega t +\n"
            "             phase), cy + R sin(omega t + phase), cz), bound R omega^2;\n"
            "             contacts do not move it; needs box=. With response=none the\n"
            "             collision_log lists every contact start\n"
            "  forces     random acceleration of norm <= A (A uniform in accel_bound),\n"
            "             redrawn every force_interval; collisions kick the velocity\n"
            "  field      acceleration gain*(u(x) - v) clamped to A, recomputed every\n"
            "             field_step, towards a field u of speed field_speed rising along\n"
            "             the box's vertical centre line and sinking along its sides\n"
            "\n"
            "The start is a lattice when packing > 0.1 (or lattice= is given), random\n"
            "placement otherwise. Files (init, final, trajectory) are extended XYZ as\n"
            "ASE and OVITO read it:\n"
            "  N\n"
            "  Lattice=\"Lx 0 0 0 Ly 0 0 0 Lz\" "
            "Properties=species:S:1:pos:R:3:velo:R:3:radius:R:1:mass:R:1\n"
            "    pbc=\"T T T\" Time=t dim=3\n"
            "  S x y z vx vy vz radius mass        (one line per sphere)\n"
            "S is the species: S0, S1, ... in runs with species (species=), S = S0.\n"
            "dim=2 marks a 2D file (z columns 0); mass is optional (default 1, inf allowed).\n"
            "A sheared run (shear=) tilts the Lattice, \"Lx 0 0 offset Ly 0 0 0 Lz\": the\n"
            "offset of its images, which an init file's tilt gives the run back.\n"
            "With init, positions, velocities, radii and masses are used exactly;\n"
            "velocities are redrawn only if temperature (or speed) is given.\n"
            "collision_log lines are `time i j` (i < j, ids in input order, from 0).\n"
            "\n"
            "Exit status: 0 success, 1 runtime error, 2 usage or input error.\n");
}

static int run_command(int argc, char **argv, cli_error *error)
{
    config c;
    config_init(&c);
    int json = 0;
    const char *config_file = NULL;
    int status = 0;
    for (int i = 0; i < argc && !status; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--json")) {
            json = 1;
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            print_help(stdout);
            config_free(&c);
            return 0;
        } else if (a[0] == '-' && a[1] != '\0') {
            status = cli_fail(error, CLI_EXIT_USAGE, "unknown option '%s' (see carom --help)", a);
        } else if (strchr(a, '=')) {
            continue; /* applied after the config file */
        } else if (!config_file && config_key_lookup(a) == KEY_COUNT) {
            config_file = a;
        } else {
            status = cli_fail(error, CLI_EXIT_USAGE,
                              "argument '%s' is missing '=' (expected key=value)", a);
        }
    }
    if (!status && config_file)
        status = config_read_file(&c, config_file, error);
    for (int i = 0; i < argc && !status; i++)
        if (strchr(argv[i], '=') && argv[i][0] != '-')
            status = config_set_argument(&c, argv[i], error);

    carom_scene scene;
    carom_scene_init(&scene);
    run_options o;
    memset(&o, 0, sizeof o);
    motion m;
    motion_init(&m);
    if (!status)
        status = setup_read_init(&c, &scene, error);
    if (!status)
        status = options_apply_scenario(&c, error);
    if (!status)
        status = options_from_config(&c, &o, error);
    if (!status) {
        o.json = json;
        if (o.motion == MOTION_ORBITS) {
            status = motion_read_orbits(&o, &m, &scene, error);
            if (!status)
                status = setup_species(&o, &scene, error);
            if (!status)
                o.packing = setup_packing_fraction(&scene);
        } else {
            status = setup_scene(&o, &scene, error);
            if (!status)
                status = motion_create(&o, &scene, &m, error);
        }
    }
    run_result result;
    if (!status)
        status = simulate(&o, &scene, &m, &result, error);
    if (!status) {
        if (o.json)
            report_json(stdout, &o, &result);
        else
            report_summary(stdout, &o, &result);
        if (fflush(stdout) != 0)
            status = cli_fail(error, CLI_EXIT_RUNTIME, "error writing to stdout");
    }
    motion_free(&m);
    options_free(&o);
    carom_scene_free(&scene);
    config_free(&c);
    return status;
}

int main(int argc, char **argv)
{
    cli_error error = {0, ""};
    int status;
    if (argc < 2) {
        print_help(stderr);
        return CLI_EXIT_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        print_help(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("%s\n", CAROM_VERSION_STRING);
        return 0;
    }
    if (!strcmp(argv[1], "run"))
        status = run_command(argc - 2, argv + 2, &error);
#ifdef CAROM_HAVE_VIEW
    else if (!strcmp(argv[1], "view"))
        status = view_command(argc - 2, argv + 2, &error);
#endif
#ifdef CAROM_HAVE_RENDER
    else if (!strcmp(argv[1], "render"))
        status = render_command(argc - 2, argv + 2, &error);
#endif
    else
        status = cli_fail(&error, CLI_EXIT_USAGE, "unknown command '%s' (see carom --help)",
                          argv[1]);
    if (status) {
        fprintf(stderr, "carom: %s\n", error.message);
        return status;
    }
    return 0;
}
