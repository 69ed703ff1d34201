/* params.h — a vehicle's settings from the map: the methods it uses (each
 * enum with the names a map file gives its values) and struct
 * vehicle_params, expanded from params.def with the defaults.
 *
 * To add a setting: a PARAM line in params.def (the struct field, its
 * default, equality and hash follow), then a row in the key table
 * (src/io/keys.c) for its key, range and help. */
#ifndef BOTFIELD_PARAMS_H
#define BOTFIELD_PARAMS_H

#include "names.h"

/* How a tank drives (key behaviour). */
#define DRIVE_LIST(X)                                               \
    X(DRIVE_WANDER, "wander") X(DRIVE_PATROL, "patrol")         \
    X(DRIVE_STRAIGHT, "straight") X(DRIVE_HOLD, "hold")
enum drive { DRIVE_LIST(NAMES_ENUM) };
#define DRIVE_COUNT (0 DRIVE_LIST(NAMES_COUNT))
extern const char *const drive_names[DRIVE_COUNT + 1];

/* Collision avoidance (key avoid). */
#define AVOID_LIST(X)                                                   \
    X(AVOID_NONE, "none") X(AVOID_CLASSIC, "classic")                   \
    X(AVOID_PREDICTIVE, "predictive")
enum avoid_method { AVOID_LIST(NAMES_ENUM) };
#define AVOID_COUNT (0 AVOID_LIST(NAMES_COUNT))
extern const char *const avoid_names[AVOID_COUNT + 1];

/* Occlusion (key sight; the trace's sight lines). */
#define SIGHT_LIST(X) X(SIGHT_CLASSIC, "classic") X(SIGHT_EXACT, "exact")
enum sight_method { SIGHT_LIST(NAMES_ENUM) };
#define SIGHT_COUNT (0 SIGHT_LIST(NAMES_COUNT))
extern const char *const sight_names[SIGHT_COUNT + 1];

/* Where the view cone points (key sensor): the hull's heading, the
 * turret's direction, or a radar that turns on its own (radar_rate). */
#define SENSOR_LIST(X)                                                  \
    X(SENSOR_HULL, "hull") X(SENSOR_TURRET, "turret") X(SENSOR_RADAR, "radar")
enum sensor_mount { SENSOR_LIST(NAMES_ENUM) };
#define SENSOR_COUNT (0 SENSOR_LIST(NAMES_COUNT))
extern const char *const sensor_names[SENSOR_COUNT + 1];

/* The intercept solver (key aim; the trace's aim lines). */
#define AIM_LIST(X)                                                     \
    X(AIM_NONE, "none") X(AIM_CLASSIC, "classic") X(AIM_EXACT, "exact")
enum aim_method { AIM_LIST(NAMES_ENUM) };
#define AIM_COUNT (0 AIM_LIST(NAMES_COUNT))
extern const char *const aim_names[AIM_COUNT + 1];

/* A car's speed rule (key speed_rule). */
#define SPEED_RULE_LIST(X)                                              \
    X(SPEED_RULE_NONE, "none") X(SPEED_RULE_CLASSIC, "classic")         \
    X(SPEED_RULE_EXACT, "exact")
enum speed_rule { SPEED_RULE_LIST(NAMES_ENUM) };
#define SPEED_RULE_COUNT (0 SPEED_RULE_LIST(NAMES_COUNT))
extern const char *const speed_rule_names[SPEED_RULE_COUNT + 1];

/* A car's steering (key steer): the article's head for the next centre,
 * or a planned racing line with its own speed profile (race_line.h). */
#define STEER_LIST(X) X(STEER_CLASSIC, "classic") X(STEER_LINE, "line")
enum steer_method { STEER_LIST(NAMES_ENUM) };
#define STEER_COUNT (0 STEER_LIST(NAMES_COUNT))
extern const char *const steer_names[STEER_COUNT + 1];

/* A vehicle's settings from the map: fixed for the whole run.  Angles and
 * rates are radians and radians per second here.  Every field is a PARAM
 * line of params.def (what each means is said there). */
struct vehicle_params {
#define PARAM(type, field, unit, def) type field;
#include "params.def"
};

/* A default from params.def in the unit it is kept in. */
#define PARAM_VALUE_NUM(x) (x)
#define PARAM_VALUE_INT(x) (x)
#define PARAM_VALUE_DEG(x) deg2rad(x)
#define PARAM_VALUE(unit, x) PARAM_VALUE_##unit(x)

#endif
