#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# sweep-screenshot.sh BIN OUT: draw a sweep's chart (OUT.svg), have Chromium
# render it (OUT.png), and check the picture is the chart's size and not
# blank. Look at OUT.png: it is what a slide would show. Chromium comes from Debian (apt-get install chromium); without it
# the test says so and fails.
set -u
bin=$1 out=$2
chromium=$(command -v chromium || command -v chromium-browser || command -v google-chrome)
if [ -z "$chromium" ]; then
	echo "sweep-screenshot: no Chromium (apt-get install chromium)"
	exit 1
fi
mkdir -p "$(dirname "$out")"
"$bin" sweep scenarios/latency-mix.scn --param wakers=2,4,8,16,32 --kernel 6.1,6.12 --seeds 1..10 \
	--plot "$out.svg" >/dev/null 2>&1
[ $? -le 1 ] || { echo "sweep-screenshot: the sweep failed"; exit 1; }
rm -f "$out.png"
timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1200,900 \
	--screenshot="$out.png" "file://$(realpath "$out.svg")" >/dev/null 2>&1
python3 - "$out.png" <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
w, h = struct.unpack(">II", data[16:24])
assert (w, h) == (1200, 900), (w, h)
# a blank page of this size compresses to a few KiB; lines, text and curves do not
assert len(data) > 40000, "the picture is nearly blank (%d bytes)" % len(data)
print("sweep-screenshot: %s: %dx%d, %d bytes: ok" % (sys.argv[1], w, h, len(data)))
PY
