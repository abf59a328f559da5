// Steps through the turns of an adjutant chronicle with the map in place:
// the slider, the buttons, or the arrow keys (Home and End for the first
// and last). The steps are the page's own data (`#steps`).
(function () {
  "use strict";

  function start() {
    var steps = JSON.parse(document.getElementById("steps").textContent);
    var slider = document.getElementById("step");
    var map = document.getElementById("step-map");
    var label = document.getElementById("step-label");
    var despatch = document.getElementById("step-despatch");
    var page = document.getElementById("step-page");
    var at = 0;

    function show(i) {
      at = Math.max(0, Math.min(steps.length - 1, i));
      var step = steps[at];
      slider.value = String(at);
      map.src = step.map;
      map.alt = "The field " + step.label;
      label.textContent = (at + 1) + " of " + steps.length + ": " + step.label;
      despatch.textContent = "";
      step.despatch.forEach(function (text) {
        var p = document.createElement("p");
        p.textContent = text;
        despatch.appendChild(p);
      });
      if (step.page) {
        page.href = step.page;
        page.hidden = false;
      } else {
        page.hidden = true;
      }
      document.body.setAttribute("data-step", String(at));
    }

    slider.max = String(steps.length - 1);
    slider.addEventListener("input", function () { show(Number(slider.value)); });
    document.getElementById("step-prev").addEventListener("click", function () { show(at - 1); });
    document.getElementById("step-next").addEventListener("click", function () { show(at + 1); });
    document.addEventListener("keydown", function (e) {
      var to = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: steps.length - 1 }[e.key];
      if (to === undefined || e.target === slider) return;
      e.preventDefault();
      show(to);
    });
    var asked = Number((location.hash.match(/^#step-(\d+)$/) || [])[1]);
    show(isNaN(asked) ? 0 : asked);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
