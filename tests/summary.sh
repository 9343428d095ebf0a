#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The closing line CI reads: all tests of this `make test`, summed.
results=${RESULTS:-build/test-results}
awk '{ p += $2; f += $3 } END { printf "%d passed, %d failed\n", p, f; exit f > 0 }' "$results"
