/* names.c — the arrays of names of the enums (each list lives beside its
 * enum, see names.h); the asserts stop the build when an array and its
 * enum disagree in length. */
#include <stddef.h>

#include "world.h"

NAMES_DEFINE(vehicle_kind_names, VEHICLE_KIND_LIST, VEHICLE_KIND_COUNT);
NAMES_DEFINE(drive_names, DRIVE_LIST, DRIVE_COUNT);
NAMES_DEFINE(avoid_names, AVOID_LIST, AVOID_COUNT);
NAMES_DEFINE(sight_names, SIGHT_LIST, SIGHT_COUNT);
NAMES_DEFINE(sensor_names, SENSOR_LIST, SENSOR_COUNT);
NAMES_DEFINE(aim_names, AIM_LIST, AIM_COUNT);
NAMES_DEFINE(speed_rule_names, SPEED_RULE_LIST, SPEED_RULE_COUNT);
NAMES_DEFINE(steer_names, STEER_LIST, STEER_COUNT);
/* the event kinds' list is events.def, with their fields */
const char *const event_kind_names[] = {
#define EVENT_KIND(id, name) [id] = name,
#include "events.def"
    NULL
};
_Static_assert(sizeof event_kind_names / sizeof event_kind_names[0] == EVENT_KIND_COUNT + 1,
               "event_kind_names: one name per value, values 0 .. count-1");
NAMES_DEFINE(miss_reason_names, MISS_REASON_LIST, MISS_REASON_COUNT);
NAMES_DEFINE(aim_reason_names, AIM_REASON_LIST, AIM_REASON_COUNT);
NAMES_DEFINE(brake_reason_names, BRAKE_REASON_LIST, BRAKE_REASON_COUNT);

/* Team colours have no enum: a team keeps an index into this list. */
const char *const world_colors[] = {
    "red", "blue", "green", "yellow", "magenta", "cyan", "white", NULL
};
_Static_assert(sizeof world_colors / sizeof world_colors[0] == WORLD_NCOLORS + 1,
               "world_colors: WORLD_NCOLORS names");
