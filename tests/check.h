/* Tiny test helpers: CHECK(cond), CHECK_NEAR(a, b, tol), CHECK_REL(a, b,
 * rel) and CHECK_OK(carom call) report the file and line of a failure and
 * make the test exit nonzero; RUN(test) runs a test function and prints
 * whether it passed. */
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

#define CHECK_REL(a, b, rel)                                                                \
    do {                                                                                    \
        double cr_a_ = (a), cr_b_ = (b);                                                    \
        if (!(cr_a_ == cr_b_ || fabs(cr_a_ - cr_b_) <= (rel) * fabs(cr_b_))) {              \
            fprintf(stderr, "%s:%d: %s = %.17g, expected %s = %.17g (rel %g)\n", __FILE__, \
                    __LINE__, #a, cr_a_, #b, cr_b_, (double)(rel));                         \
            check_failures++;                                                               \
        }                                                                                   \
    } while (0)

#define CHECK_OK(expr)                                                                    \
    do {                                                                                  \
        carom_status ok_st_ = (expr);                                                     \
        if (ok_st_ != CAROM_OK) {                                                         \
            fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #expr,          \
                    carom_status_name(ok_st_));                                           \
            check_failures++;                                                             \
        }                                                                                 \
    } while (0)

#define RUN(test)                                                 \
    do {                                                          \
        int before_ = check_failures;                             \
        test();                                                   \
        fprintf(stderr, "%-28s %s\n", #test,                       \
                check_failures == before_ ? "ok" : "FAILED");     \
    } while (0)

#define CHECK_REPORT() (check_failures ? (fprintf(stderr, "%d failure(s)\n", check_failures), 1) : 0)

#endif
