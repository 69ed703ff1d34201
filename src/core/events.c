/* events.c — an event's fields from the one list, events.def. */
#include "events.h"
#include "world.h"

static struct event_field field(const char *key, enum event_field_type type, long i,
                                double num, const char *str)
{
    return (struct event_field){ key, type, i, num, str };
}

/* VALUE in the member its type uses. */
#define FIELD_VEHICLE(key, v) field(key, EVF_VEHICLE, (v), 0, NULL)
#define FIELD_VEHICLE_OR_NULL(key, v) field(key, EVF_VEHICLE_OR_NULL, (v), 0, NULL)
#define FIELD_NUM(key, v) field(key, EVF_NUM, 0, (v), NULL)
#define FIELD_INT(key, v) field(key, EVF_INT, (long)(v), 0, NULL)
#define FIELD_BOOL(key, v) field(key, EVF_BOOL, (v) != 0, 0, NULL)
#define FIELD_NAME(key, v) field(key, EVF_NAME, 0, 0, (v))
#define FIELD_INDEX(key, v) field(key, EVF_INDEX, (long)(v), 0, NULL)

int event_fields(const struct event *e, struct event_field out[EVENT_FIELDS_MAX])
{
    int n = 0;
#define EVENT_FIELD(KIND, KEY, TYPE, WHEN, VALUE)                       \
    if (e->kind == (KIND) && (WHEN)) {                                  \
        if (n < EVENT_FIELDS_MAX)                                       \
            out[n] = FIELD_##TYPE(KEY, VALUE);                          \
        n++;                                                            \
    }
#include "events.def"
    return n;
}
