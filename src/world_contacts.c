/* Reporting a contact: to the application's callback (def.on_contact),
 * and into the record of the current advance (def.record_contacts),
 * which carom_world_recorded_contacts hands out afterwards.
 *
 * The record holds each contact as the callback left it, in the order
 * the contacts happened; it is emptied when a call that processes events
 * starts (world_process_until; a call made of several, the heat bath's,
 * empties it once and keeps it across them: recorded_kept). Recording never changes what the world
 * does: with no callback, the contact is built and kept, nothing else.
 * When the record cannot grow, the event loop stops after this event with
 * CAROM_ERR_OUT_OF_MEMORY (callback_failed), the record kept so far. */
#include <stdlib.h>

#include "world_internal.h"

static int record_grow(carom_world *w)
{
    size_t room = w->recorded_room ? 2 * w->recorded_room : 64;
    if (room > SIZE_MAX / sizeof(carom_contact))
        return 0;
    carom_contact *grown = realloc(w->recorded, room * sizeof(carom_contact));
    if (!grown)
        return 0;
    w->recorded = grown;
    w->recorded_room = room;
    return 1;
}

/* (world_internal.h) */
int world_report_contact(carom_world *w, carom_contact *c)
{
    if (w->def.on_contact)
        w->def.on_contact(w->def.user_data, c);
    if (w->def.record_contacts) {
        if (w->recorded_count == w->recorded_room && !record_grow(w)) {
            world_fail(w, CAROM_ERR_OUT_OF_MEMORY,
                       "out of memory recording contacts (%zu kept in this advance)",
                       w->recorded_count);
            w->callback_failed = CAROM_ERR_OUT_OF_MEMORY; /* the loop stops */
        } else {
            w->recorded[w->recorded_count++] = *c;
        }
    }
    return w->def.on_contact != NULL;
}

/* (world_internal.h) */
void world_contacts_clear(carom_world *w)
{
    w->recorded_count = 0;
}

const carom_contact *carom_world_recorded_contacts(const carom_world *w, size_t *count)
{
    *count = w->recorded_count;
    return w->recorded;
}
