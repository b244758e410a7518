/* The tangential part of a rough contact (the contact law's tangential
 * restitution beta and friction mu: world_contact_laws.c).
 *
 * Contract: at a contact with unit normal n, the surfaces' relative
 * velocity at the point of contact has a tangential part u_t (the
 * centres' relative velocity plus the spins' surface speeds, less its
 * part along n). An impulse J_t along u_t, applied with opposite signs at
 * the point of contact, turns u_t into -beta u_t. It changes the
 * velocities (J_t / m) and the spins (r n x J_t / I, I = k m r^2); the
 * normal part of the contact (response.c) is untouched by it. Then
 *   u_t changes by (1/m_a + 1/m_b) (1 + 1/k) J_t,
 * so J_t = -(1 + beta) u_t / ((1/m_a + 1/m_b) (1 + 1/k)). Against a fixed
 * surface only the sphere moves: its velocity changes by
 * -(1 + beta) k / (1 + k) u_t whatever its mass (an infinite mass too, as
 * its normal bounce does), its spin by -(1 + beta) / ((1 + k) r) n x u_t.
 * Coulomb's limit (the law's friction mu; def.friction's default
 * infinite): the tangential impulse is at most mu times the normal one
 * (against a fixed surface, the tangential change of velocity at most mu
 * times the normal one). Beyond it the surfaces slide: J_t keeps its
 * direction, against u_t, with that largest size (Walton's model).
 * beta = -1 gives no impulse: smooth worlds do not call these
 * (world_internal.h's inline checks). */
#include <math.h>

#include "vec.h"
#include "world_internal.h"

/* The factor that brings a tangential impulse (or change of velocity) of
 * size |t| within mu times the normal one: 1 when it is within. */
static double coulomb_scale(const double t[3], double normal, double mu)
{
    if (isinf(mu))
        return 1.0;
    double size = sqrt(t[0] * t[0] + t[1] * t[1] + t[2] * t[2]), limit = mu * normal;
    return size > limit ? limit / size : 1.0;
}

/* The part of u across n (u less its component along unit n). */
static void tangential_part(double out[3], const double u[3], const double n[3])
{
    double along = vec_dot(u, n);
    for (int k = 0; k < 3; k++)
        out[k] = u[k] - along * n[k];
}

void response_rough_pair_apply(carom_world *w, uint32_t i, uint32_t j, const contact_law *law,
                               const double n[3], double ia, double ib, double normal_impulse)
{
    double beta = law->tangential_restitution;
    sphere *a = &w->spheres[i], *b = &w->spheres[j];
    double *spin_a = w->spin[world_id_of(w, i)], *spin_b = w->spin[world_id_of(w, j)];
    double grown = growth_factor(w, a->t), ra = a->radius * grown, rb = b->radius * grown;
    /* b's surface relative to a's at the point of contact a + ra n. */
    double arm[3], surface[3], u[3], ut[3];
    for (int k = 0; k < 3; k++)
        arm[k] = ra * spin_a[k] + rb * spin_b[k];
    vec_cross(surface, arm, n);
    for (int k = 0; k < 3; k++)
        u[k] = b->v[k] - a->v[k] - surface[k];
    tangential_part(ut, u, n);
    double k_factor = w->inertia_factor;
    double scale = -(1.0 + beta) / ((ia + ib) * (1.0 + 1.0 / k_factor));
    double jt[3], turn[3]; /* the impulse on b (a gets -jt), and n x jt */
    for (int k = 0; k < 3; k++)
        jt[k] = scale * ut[k];
    double slide = coulomb_scale(jt, normal_impulse, law->friction);
    for (int k = 0; k < 3; k++)
        jt[k] *= slide;
    vec_cross(turn, n, jt);
    for (int k = 0; k < 3; k++) {
        a->v[k] -= ia * jt[k];
        b->v[k] += ib * jt[k];
        spin_a[k] -= ia / (k_factor * ra) * turn[k];
        spin_b[k] -= ib / (k_factor * rb) * turn[k];
    }
}

void response_rough_surface_apply(carom_world *w, uint32_t i, const contact_law *law,
                                  const double towards[3], double normal_change)
{
    double beta = law->tangential_restitution;
    sphere *s = &w->spheres[i];
    double *spin = w->spin[world_id_of(w, i)];
    double r = s->radius * growth_factor(w, s->t);
    /* The sphere's surface at the point of contact s + r towards. */
    double arm[3], surface[3], u[3], ut[3], turn[3];
    for (int k = 0; k < 3; k++)
        arm[k] = r * towards[k];
    vec_cross(surface, spin, arm);
    for (int k = 0; k < 3; k++)
        u[k] = s->v[k] + surface[k];
    tangential_part(ut, u, towards);
    double k_factor = w->inertia_factor;
    double dv[3]; /* the change of velocity, then of spin: -(1 + beta) / ((1 + k) r) n x u_t */
    for (int k = 0; k < 3; k++)
        dv[k] = -(1.0 + beta) * k_factor / (1.0 + k_factor) * ut[k];
    double slide = coulomb_scale(dv, normal_change, law->friction);
    vec_cross(turn, towards, ut);
    for (int k = 0; k < 3; k++) {
        s->v[k] += slide * dv[k];
        spin[k] -= slide * (1.0 + beta) / ((1.0 + k_factor) * r) * turn[k];
    }
}
