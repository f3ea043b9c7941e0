/* events.c: event kinds, the bounded event list, UTF-8-safe field copies. */
#include "stagetop/events.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stagetop/utf8.h"

#define ST_EVENT_LIST_DEFAULT_MAX 1000000

static const char *const kind_names[] = {
    [ST_EV_STAGE] = "stage",   [ST_EV_LOAD] = "load",     [ST_EV_RELOAD] = "reload",
    [ST_EV_RELEASE] = "release", [ST_EV_MARK] = "mark",   [ST_EV_PAUSE] = "pause",
    [ST_EV_RESUME] = "resume", [ST_EV_KILL] = "kill",     [ST_EV_EXIT] = "exit",
    [ST_EV_BUDGET] = "budget", [ST_EV_SLEEP] = "sleep",
};

const char *st_event_kind_name(int kind)
{
    if (kind < 0 || kind >= ST_EV_OTHER)
        return NULL;
    return kind_names[kind];
}

int st_event_kind_from_name(const char *name)
{
    if (!name)
        return ST_EV_OTHER;
    for (int k = 0; k < ST_EV_OTHER; k++)
        if (strcmp(kind_names[k], name) == 0)
            return k;
    return ST_EV_OTHER;
}

void st_event_init(st_event *ev, uint32_t t_ms, int kind)
{
    memset(ev, 0, sizeof *ev);
    ev->t_ms = t_ms;
    ev->kind = (uint8_t)(kind >= 0 && kind <= ST_EV_OTHER ? kind : ST_EV_OTHER);
}

void st_event_set_str(char *field, size_t size, const char *s)
{
    if (!field || size == 0)
        return;
    if (!s)
        s = "";
    size_t n = strlen(s);
    if (n >= size) {
        n = size - 1;
        /* Back off to the start of the sequence that the cut splits. */
        for (size_t back = 1; back <= 3 && back <= n; back++) {
            unsigned char c = (unsigned char)s[n - back];
            if ((c & 0xC0) != 0x80) {
                if ((c & 0x80) && st_utf8_lead_len(c) > back)
                    n -= back;
                break;
            }
        }
    }
    memmove(field, s, n);
    field[n] = '\0';
}

void st_event_list_init(st_event_list *l, size_t max)
{
    memset(l, 0, sizeof *l);
    l->max = max ? max : ST_EVENT_LIST_DEFAULT_MAX;
}

int st_event_list_add(st_event_list *l, const st_event *ev, st_error *err)
{
    size_t max = l->max ? l->max : ST_EVENT_LIST_DEFAULT_MAX;
    if (l->len >= max && ev->kind != ST_EV_STAGE && ev->kind != ST_EV_EXIT) {
        l->dropped++;
        return ST_OK;
    }
    if (l->len == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 64;
        if (cap > max && l->len < max)
            cap = max; /* up to max in one step; past it (stages, the exit) doubling again */
        if (cap <= l->len || cap > SIZE_MAX / sizeof *l->v)
            return st_error_set(err, ST_ENOMEM, ENOMEM, "out of memory for %zu events", l->len);
        st_event *v = realloc(l->v, cap * sizeof *v);
        if (!v)
            return st_error_set(err, ST_ENOMEM, ENOMEM, "out of memory for %zu events", cap);
        l->v = v;
        l->cap = cap;
    }
    l->v[l->len++] = *ev;
    return ST_OK;
}

void st_event_list_free(st_event_list *l)
{
    free(l->v);
    l->v = NULL;
    l->len = l->cap = 0;
}
