/* The large sphere's motion, inside the viewer's driver (driver.c).
 *
 * Contract: driver_big_probe and driver_big_kick are the world's driver
 * callbacks for the large sphere (user_data: the driver); its state is
 * advanced to the probe's time first. driver_steer_big sets its
 * acceleration for the next dt towards the drag target (0 when there is
 * no large sphere). driver_drag_to and driver_big_position are declared
 * in driver.h. */
#ifndef CAROM_VIEWER_DRIVER_BIG_H
#define CAROM_VIEWER_DRIVER_BIG_H

#include "driver.h"

void driver_big_probe(void *user, carom_sphere_id id, double t, double x[3], double v[3]);
void driver_big_kick(void *user, carom_sphere_id id, double t, const double dv[3]);
int driver_steer_big(driver *d, double dt);

#endif
