/* events.h: the run's event list (stage events, marks, job control, guard).
 *
 * Event kinds are stageload's (stage, load, reload, release, mark) plus
 * stagetop's own (pause, resume, kill, exit, budget).  Unknown kinds read
 * from a trace are kept as ST_EV_OTHER with their kind name. */
#ifndef STAGETOP_EVENTS_H
#define STAGETOP_EVENTS_H

#include <stddef.h>
#include <stdint.h>
#include "stagetop/error.h"

enum st_event_kind {
    ST_EV_STAGE, ST_EV_LOAD, ST_EV_RELOAD, ST_EV_RELEASE, ST_EV_MARK,
    ST_EV_PAUSE, ST_EV_RESUME, ST_EV_KILL, ST_EV_EXIT, ST_EV_BUDGET, ST_EV_SLEEP,
    ST_EV_OTHER
};

/* Which optional fields an event holds. */
enum st_event_field {
    ST_EVF_STAGE = 1u << 0,   /* stage */
    ST_EVF_NAME = 1u << 1,    /* name (model name, budget reason) */
    ST_EVF_NOTE = 1u << 2,    /* note (free text) */
    ST_EVF_NBYTES = 1u << 3,  /* nbytes */
    ST_EVF_SECONDS = 1u << 4, /* seconds */
    ST_EVF_VALUE = 1u << 5,   /* value (exit code, signal, budget reading) */
    ST_EVF_LIMIT = 1u << 6    /* limit (budget limit) */
};

typedef struct st_event {
    uint32_t t_ms;   /* milliseconds since the start */
    uint8_t kind;    /* enum st_event_kind */
    uint16_t has;    /* enum st_event_field bits */
    char kind_name[16]; /* for ST_EV_OTHER, the kind as read */
    char stage[64];
    char name[96];
    char note[160];
    uint64_t nbytes;
    double seconds;
    int64_t value;
    int64_t limit;
} st_event;

typedef struct st_event_list {
    st_event *v;
    size_t len, cap;
    size_t max;       /* the list takes no more than this (0 = 1,000,000), stages and the
                         exit aside: those are always kept */
    uint64_t dropped; /* events refused because the list was full */
} st_event_list;

/* "stage", "load", ...; NULL for ST_EV_OTHER. */
const char *st_event_kind_name(int kind);
/* ST_EV_* for a name, ST_EV_OTHER when unknown. */
int st_event_kind_from_name(const char *name);

/* Zero the event and set t_ms and kind. */
void st_event_init(st_event *ev, uint32_t t_ms, int kind);
/* Copy s into a fixed field, truncating at a UTF-8 boundary. */
void st_event_set_str(char *field, size_t size, const char *s);

void st_event_list_init(st_event_list *l, size_t max);
/* Append a copy; ST_ENOMEM, or ST_OK with dropped++ when full.  A stage and
 * the exit are appended past max: a stage after a million marks keeps its
 * window (its samples are its own, not the stage before), the exit its
 * status. */
int st_event_list_add(st_event_list *l, const st_event *ev, st_error *err);
void st_event_list_free(st_event_list *l);

#endif
