// SPDX-License-Identifier: GPL-2.0
/*
 * The event table of include/arm_cmn_hnf/event_table.h, expanded for
 * userspace. Nothing here repeats an encoding: the X-macro is the source.
 */
#include <stdio.h>
#include <string.h>

#include <arm_cmn_hnf/events.h>

#include "cmn-hnf.h"

#define CMN_TOOL_EVENT(_name, _id, _occ, _scale, _unit, _trm, _desc)	\
	{ .name = #_name, .eventid = (_id), .occupid = (_occ),		\
	  .scale = (_scale), .unit = (_unit), .trm = (_trm),		\
	  .desc = (_desc) },

const struct cmn_event cmn_events[] = {
#define CMN_HNF_EVENT CMN_TOOL_EVENT
#include <arm_cmn_hnf/event_table.h>
#undef CMN_HNF_EVENT
};

const size_t cmn_num_events = ARRAY_SIZE(cmn_events);

const struct cmn_event *cmn_event_find(const char *name)
{
	size_t i;

	for (i = 0; i < cmn_num_events; i++)
		if (!strcmp(cmn_events[i].name, name))
			return &cmn_events[i];
	return NULL;
}

static bool same_encoding(const struct cmn_event *a, const struct cmn_event *b)
{
	return a->eventid == b->eventid && a->occupid == b->occupid;
}

const struct cmn_event *cmn_event_primary(const struct cmn_event *ev)
{
	size_t i;

	if (ev->trm[0])
		return ev;
	for (i = 0; i < cmn_num_events; i++)
		if (cmn_events[i].trm[0] && cmn_events[i].eventid == ev->eventid)
			return &cmn_events[i];
	return ev;
}

bool cmn_event_is_first_encoding(const struct cmn_event *ev)
{
	size_t i;

	for (i = 0; i < cmn_num_events && &cmn_events[i] != ev; i++)
		if (same_encoding(&cmn_events[i], ev))
			return false;
	return true;
}

void cmn_event_terms(const struct cmn_event *ev, char *buf, size_t len)
{
	if (ev->occupid >= 0)
		snprintf(buf, len, "eventid=0x%02x,occupid=0x%x", ev->eventid,
			 ev->occupid);
	else
		snprintf(buf, len, "eventid=0x%02x", ev->eventid);
}

bool cmn_formula_name_known(const char *name)
{
	return cmn_event_find(name) || !strcmp(name, CMN_DTC_CYCLES) ||
	       !strcmp(name, CMN_DURATION_TIME);
}
