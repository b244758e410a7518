/* carom stress: the time integrals of a world's pressure tensor and heat
 * flux, exactly, for transport coefficients (shear and bulk viscosity
 * and thermal conductivity by the Einstein-Helfand route,
 * carom_viscosity, carom_bulk_viscosity and carom_conductivity below).
 *
 * The pressure tensor of spheres in a periodic box, times its volume V,
 * is a kinetic part, sum_i m_i v_i v_i^T, that changes only at contacts,
 * plus an impulsive part: a contact of spheres a and b, b at r_ab from a
 * (the contact normal n times the contact distance r_a + r_b), whose
 * momentum b gains is dp, adds r_ab dp^T at its instant. The integral
 *
 *     S(t) = integral from t0 to t of P V dt'
 *          = sum over flights of (sum_i m_i v_i v_i^T) (their duration)
 *            + sum over contacts of r_ab dp^T
 *
 * is then a finite sum, which an observer fed every contact can keep
 * exactly: carom_stress keeps each sphere's velocity from the contacts it
 * is given and nothing else. Its trace over dim is the pressure's
 * integral (2 E t + virial: Z); its off-diagonal parts are the momentum
 * carried across a plane (shear stress). With rough spheres dp has a
 * tangential part and S need not be symmetric.
 *
 * The heat flux's integral is kept the same way: between contacts
 * sum_i e_i v_i, e_i = m_i v_i^2 / 2, and at a contact r_ab times the
 * energy carried from a to b, (dE_b - dE_a) / 2 (in an elastic contact
 * of smooth spheres dE_b = -dE_a):
 *
 *     Q(t) = sum over flights of (sum_i e_i v_i) (their duration)
 *            + sum over contacts of r_ab (dE_b - dE_a) / 2.
 *
 * It counts translational energy only (spins are not seen), and it is
 * the heat flux of a fluid whose sum_i v_i is zero (equal masses, no net
 * momentum); otherwise it also carries the energy of the mass that
 * flows. So carom_stress_heat_integral is refused (S is not) for
 * spheres of unequal masses, a total momentum above 1e-9 of sum m|v| at
 * the start, and after a contact that changed the two spheres'
 * translational energy (rough or inelastic; beyond round-off and the
 * least separating speed a grazing contact is given, restitution_min_speed).
 *
 * Use: create one, make the world with def.on_contact =
 * carom_stress_on_contact and def.user_data = the observer (or call
 * carom_stress_on_contact from your own callback with every contact),
 * add the spheres, carom_stress_start, advance, carom_stress_integral.
 * Contacts before the start are not counted.
 *
 * It holds only where velocities change at sphere contacts: the start is
 * refused (CAROM_ERR_INVALID_ARGUMENT) for a box that is not periodic
 * along every axis, gravity, growing spheres, driven spheres, fixed
 * triangles or segments (which periodic worlds may have), spheres of infinite mass
 * and a world without spheres. A contact with a plane, segment or
 * triangle, and any other change of velocity (a thermostat, a
 * callback that changes velocities without keeping momentum,
 * carom_world_set_velocity), or of the spheres (added or removed), is
 * found, at the sphere's next contact (whose momentum changes, from the
 * velocities the observer knew, then do not cancel) or by
 * carom_stress_integral, which compares its velocities and radii with
 * the world's (a growth started and stopped again since the start);
 * the integral is then refused: it is never silently wrong. No globals; the library never
 * prints. 40 bytes a sphere.
 */
#ifndef CAROM_STRESS_H
#define CAROM_STRESS_H

#include <stddef.h>

#include "carom.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct carom_stress carom_stress;

/* NULL and *error filled when out of memory. */
carom_stress *carom_stress_create(carom_error *error);
void carom_stress_free(carom_stress *stress);

/* A carom_contact_fn: user_data is the observer. Contacts of spheres are
 * counted once started; any other contact makes the next
 * carom_stress_integral fail. */
void carom_stress_on_contact(void *stress, carom_contact *contact);

/* Starts (or starts again) the integral at the world's time, from its
 * spheres' velocities now. */
carom_status carom_stress_start(carom_stress *stress, const carom_world *world);

/* S from the start to the world's time now, row-major
 * (integral[3 * a + b]: momentum along b carried across a plane normal
 * to a; zero rows and columns beyond dim). Refused if anything but the
 * contacts it was given changed the velocities since the start. */
carom_status carom_stress_integral(carom_stress *stress, const carom_world *world,
                                   double integral[9]);

/* Q from the start to the world's time now (zero beyond dim); refused
 * as carom_stress_integral is, and where Q is not the heat flux (above:
 * unequal masses, net momentum, a rough or inelastic contact). */
carom_status carom_stress_heat_integral(carom_stress *stress, const carom_world *world,
                                        double heat[3]);

/* The message of the last refusal ("" if none). */
const char *carom_stress_error_message(const carom_stress *stress);

/* Shear viscosity by the Einstein-Helfand route, from samples of S:
 * samples[k] = S at t0 + k * interval, k = 0 .. count - 1 (an elastic
 * fluid at temperature kT in volume V, area in 2D). For a lag of m
 * intervals, with D = S(t + lag) - S(t) over every origin t,
 *
 *     eta(lag) = < d^2 > / (2 V kT lag),
 *
 * d each independent shear part of D: the symmetrised off-diagonal
 * (D_ab + D_ba) / 2, a < b < dim, then (D_xx - D_yy) / 2 and in 3D
 * (D_xx + D_yy - 2 D_zz) / (2 sqrt 3): five in 3D, two in 2D, each with
 * the statistics of an off-diagonal part in an isotropic fluid. It tends
 * to the shear viscosity once the lag is long against the stress's
 * correlation time. *error_out (may be NULL): the standard error of the
 * values of the non-overlapping windows, each part of each window a
 * value of its own (NaN with fewer than two values).
 * NaN for m < 1, m >= count, or V, kT, interval not > 0. */
double carom_viscosity(const double (*samples)[9], size_t count, size_t m, int dim,
                       double interval, double volume, double kT, double *error_out);

/* Enskog's shear viscosity of equal hard spheres (dim 3) or disks (dim
 * 2; NaN for other dims or arguments out of range): diameter sigma, mass
 * m, packing fraction packing, in Chapman and Enskog's first
 * approximation, with Carnahan-Starling's contact value
 * chi = (1 - packing/2) / (1 - packing)^3 in 3D and Henderson's
 * chi = (1 - 7/16 packing) / (1 - packing)^2 in 2D:
 *     3D: eta_0 = 5 / (16 sigma^2) sqrt(m kT / pi),
 *         eta_E = eta_0 ((1 + 8/5 packing chi)^2 / chi + 768 / (25 pi) packing^2 chi)
 *               (= eta_0 (1/chi + 16/5 packing + 64/25 (1 + 12/pi) packing^2 chi));
 *     2D: eta_0 = 1 / (2 sigma) sqrt(m kT / pi),
 *         eta_E = eta_0 ((1 + packing chi)^2 / chi + 8 / pi packing^2 chi)
 *               (= eta_0 (1/chi + 2 packing + (1 + 8/pi) packing^2 chi), Gass 1971).
 * In 2D the measured eta(lag) keeps growing as log(lag) (long-time
 * tails): compare at a stated lag. */
double carom_viscosity_enskog(int dim, double packing, double sigma, double kT, double mass);

/* Bulk viscosity by the Einstein-Helfand route, from samples of S as
 * carom_viscosity's: with d = (tr D) / dim - P V lag, the change of the
 * isotropic part less its mean (P V from the samples' first and last,
 * (tr S_last - tr S_first) / (dim (count - 1) interval)),
 *
 *     kappa(lag) = < d^2 > / (2 V kT lag (1 - m / (count - 1))),
 *
 * the last factor undoing what taking the mean from the same run takes
 * from the variance (exactly, for a random walk). In an elastic fluid
 * tr K = 2 E is constant: d is the collisions' virial less its mean.
 * Error and NaN as carom_viscosity's, and NaN for m = count - 1; the
 * error NaN with fewer than three windows (their values, less the mean,
 * sum to about zero). */
double carom_bulk_viscosity(const double (*samples)[9], size_t count, size_t m, int dim,
                            double interval, double volume, double kT, double *error_out);

/* Enskog's bulk viscosity of equal hard spheres or disks (as
 * carom_viscosity_enskog's): wholly collisional, in the first approximation
 *     3D: kappa_E = eta_0 256 / (5 pi) packing^2 chi
 *                 (= (4/9) rho^2 sigma^4 chi sqrt(pi m kT)),
 *     2D: kappa_E = eta_0 16 / pi packing^2 chi
 *                 (= (1/2) rho^2 sigma^3 chi sqrt(pi m kT)),
 * eta_0 and chi as carom_viscosity_enskog's. */
double carom_bulk_viscosity_enskog(int dim, double packing, double sigma, double kT,
                                   double mass);

/* Thermal conductivity by the Einstein-Helfand route, from samples of Q
 * (as carom_viscosity's of S, k_B = 1):
 *
 *     lambda(lag) = < (Q_a(t + lag) - Q_a(t))^2 > / (2 V kT^2 lag),
 *
 * averaged over every origin and every axis a < dim. Needs sum_i v_i = 0
 * (equal masses without net momentum; see Q above). Error and NaN as
 * carom_viscosity's. */
double carom_conductivity(const double (*samples)[3], size_t count, size_t m, int dim,
                          double interval, double volume, double kT, double *error_out);

/* Enskog's thermal conductivity of equal hard spheres or disks (as
 * carom_viscosity_enskog's), in Chapman and Enskog's first approximation
 * (k_B = 1):
 *     3D: lambda_0 = 75 / (64 sigma^2) sqrt(kT / (pi m)),
 *         lambda_E = lambda_0 ((1 + 12/5 packing chi)^2 / chi
 *                              + 512 / (25 pi) packing^2 chi);
 *     2D: lambda_0 = 2 / sigma sqrt(kT / (pi m)),
 *         lambda_E = lambda_0 ((1 + 3/2 packing chi)^2 / chi + 4 / pi packing^2 chi)
 *                  (= lambda_0 (1/chi + 3 packing + (9/4 + 4/pi) packing^2 chi)). */
double carom_conductivity_enskog(int dim, double packing, double sigma, double kT, double mass);

#ifdef __cplusplus
}
#endif

#endif
