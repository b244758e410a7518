/* Tiny test helpers: CHECK(cond) and CHECK_NEAR(a, b, tol) report the
 * file and line of a failure and make the test exit nonzero. */
#ifndef CAROM_TEST_CHECK_H
#define CAROM_TEST_CHECK_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static int check_failures;

#define CHECK(cond)                                                          \
    do {                                                                     \
        if (!(cond)) {                                                       \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, \
                    #cond);                                                  \
            check_failures++;                                                \
        }                                                                    \
    } while (0)

#define CHECK_NEAR(a, b, tol)                                                  \
    do {                                                                       \
        double check_a_ = (a), check_b_ = (b);                                 \
        if (!(fabs(check_a_ - check_b_) <= (tol))) {                           \
            fprintf(stderr, "%s:%d: %s = %.17g, expected %s = %.17g (tol %g)\n", \
                    __FILE__, __LINE__, #a, check_a_, #b, check_b_, (double)(tol)); \
            check_failures++;                                                  \
        }                                                                      \
    } while (0)

#define CHECK_REPORT() (check_failures ? (fprintf(stderr, "%d failure(s)\n", check_failures), 1) : 0)

#endif
