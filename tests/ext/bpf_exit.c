// SPDX-License-Identifier: GPL-2.0
/* Test policy: bpf_error.c, exiting gracefully with scx_bpf_exit(). */
#define USE_EXIT
#include "bpf_error.c"
