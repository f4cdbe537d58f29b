/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The doubly linked list of <linux/list.h> that kmod/lru.c uses, written
 * for its host build (replay.c): same names, same semantics, no poisoning.
 */
#ifndef ISGX_SHIM_LINUX_LIST_H
#define ISGX_SHIM_LINUX_LIST_H

#include <stdbool.h>
#include <stddef.h>

struct list_head {
	struct list_head *next, *prev;
};

static inline void INIT_LIST_HEAD(struct list_head *list)
{
	list->next = list;
	list->prev = list;
}

static inline void __list_link(struct list_head *entry, struct list_head *prev,
			       struct list_head *next)
{
	next->prev = entry;
	entry->next = next;
	entry->prev = prev;
	prev->next = entry;
}

static inline void list_add(struct list_head *entry, struct list_head *head)
{
	__list_link(entry, head, head->next);
}

static inline void list_add_tail(struct list_head *entry, struct list_head *head)
{
	__list_link(entry, head->prev, head);
}

static inline void list_del_init(struct list_head *entry)
{
	entry->next->prev = entry->prev;
	entry->prev->next = entry->next;
	INIT_LIST_HEAD(entry);
}

static inline bool list_empty(const struct list_head *head)
{
	return head->next == head;
}

#define container_of(ptr, type, member) ((type *)((char *)(ptr) - offsetof(type, member)))
#define list_first_entry(head, type, member) container_of((head)->next, type, member)

#endif
