/* events.h — an event's fields, as its readers give them: the trace's
 * line and a Lua bot's world.events entry (events.def lists them, once,
 * and says what each reader makes of each type). */
#ifndef BOTFIELD_EVENTS_H
#define BOTFIELD_EVENTS_H

struct event;

enum event_field_type {
    EVF_VEHICLE, EVF_VEHICLE_OR_NULL, EVF_NUM, EVF_INT, EVF_BOOL, EVF_NAME, EVF_INDEX
};

/* What each reader adds to an EVF_INDEX (events.def says why). */
#define EVENT_INDEX_BASE_TRACE 0
#define EVENT_INDEX_BASE_LUA 1

/* The most fields an event has (an aim with a solution: 8). */
#define EVENT_FIELDS_MAX 8

struct event_field {
    const char *key;
    enum event_field_type type;
    long i;                 /* VEHICLE(_OR_NULL): the index; INT, BOOL, INDEX */
    double num;             /* NUM */
    const char *str;        /* NAME */
};

/* The fields of e, in the order of its trace line, after its type and
 * tick: how many it has, of which the first EVENT_FIELDS_MAX are in out. */
int event_fields(const struct event *e, struct event_field out[EVENT_FIELDS_MAX]);

#endif
