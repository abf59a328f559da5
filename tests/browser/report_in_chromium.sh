#!/usr/bin/env bash
# Looks at the demo's HTML reports as a player would: plays the demo, takes
# the last turn's report mails to each player and the GM, renders each in
# headless Chromium, at a desktop width and a phone width, saves a screenshot
# and checks that the map picture loaded and shows, and that nothing is wider
# than the window. Needs `chromium` (Debian package); .ci/run installs it.
#
#     bash tests/browser/report_in_chromium.sh [out-dir]
set -euo pipefail
cd "$(dirname "$0")/../.."

out="${1:-out/browser-check}"
rm -rf "$out"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
# The demo plays its game through the mail edge; the last resolution's report
# mails, as sent, become the pages (see pages_from_mail.py).
cargo run --quiet -- demo --out "$out/demo" >"$out/demo.log"
python3 tests/browser/pages_from_mail.py "$out/demo/mail" "$out/pages" >/dev/null

browser="$(command -v chromium || command -v chromium-browser || true)"
if [ -z "$browser" ]; then
    echo "chromium is not installed (apt-get install chromium)" >&2
    exit 1
fi

# The check runs in the page once everything has loaded and writes its
# verdict into the DOM, which --dump-dom prints.
probe='<script>
window.addEventListener("load", function () {
  var problems = [];
  var img = document.querySelector(".map img");
  if (!img) { problems.push("no map image"); }
  else {
    var r = img.getBoundingClientRect();
    if (!img.complete || img.naturalWidth === 0) problems.push("the map did not load");
    if (r.width < 0.8 * Math.min(window.innerWidth, 760) - 40 || r.height < 100) problems.push("the map is too small: " + r.width + "x" + r.height);
    if (r.right > window.innerWidth + 1) problems.push("the map is wider than the window");
  }
  var wide = document.documentElement.scrollWidth;
  if (wide > window.innerWidth + 1) problems.push("the page is " + wide + "px wide in a " + window.innerWidth + "px window");
  document.querySelectorAll("body *").forEach(function (e) {
    var r = e.getBoundingClientRect();
    if (r.right > window.innerWidth + 1 && problems.length < 10) problems.push(e.tagName + " overflows to " + Math.round(r.right) + "px");
    if (e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX === "visible" && e.clientWidth > 0 && problems.length < 10 && e.tagName !== "HTML" && e.tagName !== "BODY") problems.push(e.tagName + " content overflows its box");
  });
  document.body.setAttribute("data-check", problems.length ? problems.join("; ") : "ok");
});
</script>'

failures=0
for page in "$out"/pages/*.html; do
    name="$(basename "$page" .html)"
    for width in 1000 400; do
        checked="$out/pages/$name.check-$width.html"
        PROBE="$probe" python3 -c 'import os, sys
page = open(sys.argv[1], encoding="utf-8").read()
open(sys.argv[2], "w", encoding="utf-8").write(page.replace("</body>", os.environ["PROBE"] + "</body>"))' "$page" "$checked"
        profile="$(mktemp -d)"
        flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run
               --disable-background-networking --disable-component-update --disable-sync
               --user-data-dir="$profile" --window-size="$width,2400" --hide-scrollbars
               --virtual-time-budget=5000)
        "$browser" "${flags[@]}" --screenshot="$out/$name-$width.png" "file://$page" >/dev/null 2>&1
        verdict="$("$browser" "${flags[@]}" --dump-dom "file://$checked" 2>/dev/null \
            | grep -o 'data-check="[^"]*"' || echo 'data-check="the page did not load"')"
        rm -rf "$profile"
        if [ "$verdict" = 'data-check="ok"' ]; then
            echo "ok   $name at ${width}px ($out/$name-$width.png)"
        else
            echo "FAIL $name at ${width}px: $verdict"
            failures=$((failures + 1))
        fi
        [ -s "$out/$name-$width.png" ] || { echo "FAIL $name at ${width}px: no screenshot"; failures=$((failures + 1)); }
    done
done
if [ "$failures" -ne 0 ]; then
    echo "$failures browser checks failed"
    exit 1
fi
echo "every report page renders with its map and without overflow"
