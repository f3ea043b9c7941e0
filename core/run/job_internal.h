/* job_internal.h: what core/run/jobctl.c (spawn, reap) uses of core/run/jobsig.c
 * (the signal rules).  Not a public header. */
#ifndef STAGETOP_JOB_INTERNAL_H
#define STAGETOP_JOB_INTERNAL_H

#include "stagetop/jobctl.h"

/* SIGKILL to every member still alive and to the launched job's group
 * (nothing when the job is read-only).  ST_OK also when all had gone. */
int st_job__kill_hard(st_job *job, st_tree *tree, double now, st_error *err);
/* job->watch_only from the rule on job->pid (pid 1, stagetop's ancestors). */
void st_job__watch_only(st_job *job);

#endif
