/* The `carom view` and `carom render` commands (built when the viewer's
 * optional dependencies are found; see tools/viewer/CMakeLists.txt).
 *
 * Contract: like every command of `carom`, they return 0 on success or a
 * nonzero exit code with a one-line message in *error (main prints it). */
#ifndef CAROM_VIEWER_VIEWER_H
#define CAROM_VIEWER_VIEWER_H

#include "cli.h"

int view_command(int argc, char **argv, cli_error *error);
int render_command(int argc, char **argv, cli_error *error);

#endif
