/* Stepping through the game: unpack every position (gzip-compressed JSON in #frames: each
   distinct line once, a frame as the numbers of its lines) and show one at a time. Without this script, or in a browser without DecompressionStream,
   the page still shows the position it was made for. */
(function () {
  "use strict";
  var packed = document.getElementById("frames");
  if (!packed || typeof DecompressionStream === "undefined") {
    return;
  }

  async function unpack() {
    var bytes = Uint8Array.from(atob(packed.textContent.trim()), function (c) {
      return c.charCodeAt(0);
    });
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    var data = JSON.parse(await new Response(stream).text());
    var frames = data.frames.map(function (numbers) {
      return numbers.map(function (n) { return data.lines[n]; }).join("\n");
    });
    return { frames: frames, order: data.order };
  }

  function start(data) {
    var frame = document.getElementById("frame");
    var caption = document.getElementById("caption");
    var slider = document.getElementById("slider");
    var box = document.getElementById("history-box");
    var rows = {};
    document.querySelectorAll("#history tr[data-pos]").forEach(function (row) {
      if (row.dataset.pos !== "") {
        rows[row.dataset.pos] = row;
      }
    });
    var last = data.order.length - 1;
    var current = Number(slider.value);

    function show(pos) {
      pos = Math.max(0, Math.min(last, pos));
      if (rows[current]) {
        rows[current].classList.remove("current");
      }
      current = pos;
      frame.innerHTML = data.frames[data.order[pos]];
      slider.value = String(pos);
      var row = rows[pos];
      if (row) {
        row.classList.add("current");
        var step = pos; /* steps count from 1; position 0 is the genesis */
        var summary = row.cells[3].textContent;
        /* the caption's words in the page's language: the page puts them in data-genesis
           and data-step, with {step} and {summary} to fill in */
        caption.textContent = (step < 1 ? caption.dataset.genesis : caption.dataset.step)
          .replace("{step}", String(step)).replace("{summary}", summary);
        box.scrollTop = row.offsetTop - box.clientHeight / 2;
        try {
          history.replaceState(null, "", "#step-" + step);
        } catch (e) {
          /* some browsers refuse to change the address of a local file: not needed */
        }
      }
      /* for a page that acts on the last position (pbem ui): which one is shown now */
      document.dispatchEvent(new CustomEvent("pbem-frame", { detail: { pos: pos, last: last } }));
    }

    var moves = {
      first: function () { return 0; },
      prev: function () { return current - 1; },
      next: function () { return current + 1; },
      last: function () { return last; },
    };
    document.querySelectorAll("#stepper button[data-go]").forEach(function (button) {
      button.addEventListener("click", function () {
        show(moves[button.dataset.go]());
      });
    });
    slider.addEventListener("input", function () {
      show(Number(slider.value));
    });
    document.addEventListener("keydown", function (event) {
      /* keys typed into a field (the slider, a move typed in pbem ui) are the field's */
      if (event.target.closest("input, textarea, select") || event.altKey || event.ctrlKey || event.metaKey) {
        return;
      }
      var keys = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };
      if (keys[event.key]) {
        event.preventDefault();
        show(moves[keys[event.key]]());
      }
    });
    document.getElementById("history").addEventListener("click", function (event) {
      var link = event.target.closest("a[href^='#step-']");
      if (link) {
        event.preventDefault();
        show(Number(link.closest("tr").dataset.pos));
      }
    });
    var wanted = /^#step-(-?\d+)$/.exec(location.hash);
    show(wanted ? Number(wanted[1]) : current);
    document.getElementById("stepper").hidden = false;
    document.body.dataset.ready = "true";
  }

  unpack().then(start, function (error) {
    document.body.dataset.ready = "error: " + error;
  });
})();
