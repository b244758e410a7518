/* Unit tests of the root finders (src/roots.c). */
#include "check.h"
#include "roots.h"

int main(void)
{
    /* Spheres at distance 2, contact 1, approaching at speed 1: meet at 1. */
    CHECK_NEAR(roots_first_upcrossing_quadratic(1.0 - 4.0, 2.0 * 2.0, -1.0), 1.0, 1e-15);
    /* Touching and receding: never. */
    CHECK(isinf(roots_first_upcrossing_quadratic(0.0, -1.0, -1.0)));
    /* Touching and approaching: now. */
    CHECK(roots_first_upcrossing_quadratic(0.0, 1.0, -1.0) == 0.0);
    return CHECK_REPORT();
}
