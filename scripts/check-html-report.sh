#!/bin/sh
# Renders an HTML conformance report with headless Chromium and fails when it cannot.
#
#   scripts/check-html-report.sh REPORT.html [SCREENSHOT.png]
#
# Installs Debian's chromium when it is missing (needs root and network). The screenshot (default:
# REPORT.png beside the report) is for a human or a model to look at; the script checks only that Chromium
# rendered the page to a non-trivial PNG and that the DOM it built has the report's matrix.
set -eu

report=${1:?usage: scripts/check-html-report.sh REPORT.html [SCREENSHOT.png]}
shot=${2:-${report%.html}.png}
[ -f "$report" ] || { echo "check-html-report: no such file: $report" >&2; exit 2; }

browser=""
for candidate in chromium chromium-browser google-chrome; do
    if command -v "$candidate" >/dev/null 2>&1; then browser=$candidate; break; fi
done
if [ -z "$browser" ]; then
    echo "check-html-report: installing chromium (Debian package)" >&2
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
    browser=chromium
fi

abs=$(cd "$(dirname "$report")" && pwd)/$(basename "$report")
rm -f "$shot"
flags="--headless --no-sandbox --disable-gpu --hide-scrollbars --allow-file-access-from-files"
# shellcheck disable=SC2086
timeout 120 "$browser" $flags --window-size=1280,1600 --screenshot="$shot" "file://$abs" >/dev/null 2>&1 || true
if [ ! -s "$shot" ]; then
    echo "check-html-report: chromium produced no screenshot of $report" >&2
    exit 1
fi
size=$(wc -c < "$shot")
if [ "$size" -lt 5000 ]; then
    echo "check-html-report: the screenshot is suspiciously small ($size bytes)" >&2
    exit 1
fi
# shellcheck disable=SC2086
dom=$(timeout 120 "$browser" $flags --dump-dom "file://$abs" 2>/dev/null || true)
case $dom in
    *'class="matrix"'*) ;;
    *) echo "check-html-report: the rendered DOM has no report matrix" >&2; exit 1 ;;
esac
echo "check-html-report: rendered $report to $shot ($size bytes)"
