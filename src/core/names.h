/* names.h — an enum and the names of its values from one list.
 *
 * An enum whose values have names (in map files, the trace, the viewer)
 * is written as a list of X(ID, "name") lines beside it; the enum, the
 * count and the array of names all expand that one list, so a value
 * cannot lack a name or get another's:
 *
 *   #define WIDGET_LIST(X) X(WIDGET_ONE, "one") X(WIDGET_TWO, "two")
 *   enum widget { WIDGET_LIST(NAMES_ENUM) };
 *   #define WIDGET_COUNT (0 WIDGET_LIST(NAMES_COUNT))
 *   extern const char *const widget_names[WIDGET_COUNT + 1];
 *
 * and in names.c, where every array is defined beside a _Static_assert on
 * its length:
 *
 *   NAMES_DEFINE(widget_names, WIDGET_LIST, WIDGET_COUNT);
 *
 * The arrays end with NULL (the key table reads them as lists) and are
 * indexed by value, never by position in a second list. */
#ifndef BOTFIELD_NAMES_H
#define BOTFIELD_NAMES_H

#define NAMES_ENUM(id, name) id,
#define NAMES_COUNT(id, name) + 1
#define NAMES_ITEM(id, name) [id] = name,

#define NAMES_DEFINE(array, list, count)                                \
    const char *const array[] = { list(NAMES_ITEM) NULL };             \
    _Static_assert(sizeof array / sizeof array[0] == (count) + 1,       \
                   #array ": one name per value, values 0 .. count-1")

#endif
