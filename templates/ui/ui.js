/* pbem ui: the decision on the board. Clicks become words (data-pick on the board, buttons
   for the rest); after each one the page asks its server what the rules say, and shows
   the rule's refusal, what may come next (outlined on the board), and the moves ready to
   sign. Nothing is judged here: the server runs the ruleset's own checks, and signing
   runs every check again. No dependency, no request but to this page's own server. */
(function () {
  "use strict";
  var ui = JSON.parse(document.getElementById("ui-data").textContent);
  var token = document.querySelector("meta[name=pbem-token]").content;
  /* the script's words in the page's language, from the page (#ui-words): {name} filled in */
  var words = JSON.parse(document.getElementById("ui-words").textContent);
  function say(key, values) {
    return words[key].replace(/\{(\w+)\}/g, function (all, name) { return String(values[name]); });
  }
  var state = { queue: [], verb: null, picks: [] };
  var answer = null;

  function $(id) { return document.getElementById(id); }

  function post(what, body) {
    return fetch(ui.root + "/api/game/" + encodeURIComponent(ui.game) + "/" + what, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-Pbem-Token": token },
      body: JSON.stringify(body),
    }).then(function (response) {
      return response.json().then(function (data) {
        if (!response.ok) { throw new Error(data.error || response.statusText); }
        return data;
      });
    });
  }

  function button(label, title, action, current) {
    var b = document.createElement("button");
    b.type = "button";
    b.textContent = label;
    if (title) { b.title = title; }
    if (current) { b.className = "current"; }
    b.addEventListener("click", action);
    return b;
  }

  function fill(box, items) {
    box.textContent = "";
    items.forEach(function (item) { box.appendChild(item); });
  }

  function atLast() {
    var shown = document.querySelector("#frame .position");
    return shown && Number(shown.dataset.step) === ui.step;
  }

  function onBoard(word) {
    return Array.prototype.some.call(document.querySelectorAll("#frame [data-pick], #frame [data-picks]"), function (el) {
      return el.dataset.pick === word || (el.dataset.picks || "").split(" ").indexOf(word) >= 0;
    });
  }

  function label(word) {
    /* a word by its name: the reader's own items (ui.labels, known with its keys), the
       public ones the server names (a token by its region); else the word itself */
    return ui.labels[word] || (answer && answer.names && answer.names[word]) || word;
  }

  function heading(a) {
    var verb = a.verbs.filter(function (v) { return v.verb === a.verb; })[0];
    return verb ? verb.label : (a.verb || "");
  }

  function mark() {
    /* outline what may be clicked next, and what was clicked already */
    if (!answer || !atLast()) { return; }
    var figure = document.querySelector("#frame figure.board");
    if (answer.board && figure) {
      figure.innerHTML = answer.board;
      var caption = document.createElement("figcaption");
      caption.className = "preview";
      caption.textContent = say("preview", {});
      figure.insertBefore(caption, figure.firstChild);
    }
    var next = answer.next || [];
    document.querySelectorAll("#frame [data-pick], #frame [data-picks]").forEach(function (el) {
      var words = el.dataset.pick ? [el.dataset.pick] : el.dataset.picks.split(" ");
      el.classList.toggle("pickable", words.some(function (w) { return next.indexOf(w) >= 0; }));
      el.classList.toggle("picked", words.some(function (w) { return state.picks.indexOf(w) >= 0; }));
    });
  }

  function show(a) {
    answer = a;
    state.queue = a.queue;
    state.verb = a.verb;
    state.picks = a.picks;
    $("prompt").textContent = a.prompt || "";
    if (a.asked) { $("asked").textContent = a.asked; }
    $("so-far").hidden = !a.picks.length;
    $("so-far").textContent = a.picks.length ? say("so_far", { what: heading(a), picks: a.picks.map(label).join(", ") }) : "";
    var refusal = $("refusal");
    refusal.hidden = !a.refused;
    refusal.textContent = a.refused ? say("refused", { why: a.refused }) : "";
    fill($("verbs"), a.verbs.length > 1 ? a.verbs.map(function (v) {
      return button(v.label || v.usage || v.verb, v.usage, function () { ask({ verb: v.verb, picks: [] }); }, v.verb === a.verb);
    }) : []);
    var words = (a.next || []).filter(function (w) { return !onBoard(w); });
    fill($("words"), words.map(function (w) {
      return button(label(w), w, function () { ask({ picks: state.picks.concat([w]) }); });
    }));
    fill($("buttons"), a.buttons.map(function (b) {
      return button(b.text, b.title, function () { ask({ typed: b.text }); });
    }));
    $("ready").textContent = a.ready.length ? a.ready.join("; ") : say("nothing", {});
    $("sign-button").disabled = a.ready.length === 0;
    $("then").hidden = !a.goes_on;
    mark();
  }

  function fail(error) {
    var refusal = $("refusal");
    refusal.hidden = false;
    refusal.textContent = error.message;
  }

  function ask(change) {
    var body = { queue: state.queue, verb: state.verb, picks: state.picks, typed: "" };
    Object.keys(change).forEach(function (k) { body[k] = change[k]; });
    return post("decide", body).then(show, fail);
  }

  function passphrase() {
    var field = $("passphrase");
    if (!field) { return ""; }
    var value = field.value;
    field.value = ""; /* asked again at every signing, kept nowhere */
    return value;
  }

  function smtpPassword(id) {
    var field = $(id);
    if (!field) { return ""; }
    var value = field.value;
    field.value = ""; /* asked again at every sending, kept nowhere */
    return value;
  }

  function sending() {
    return { send: ui.sign_and_send, smtp_password: smtpPassword("sign-smtp-password") };
  }

  function signed(result) {
    var text = result.played.length ? say("saved", { moves: result.played.join("; ") }) : "";
    if (result.automatic) { text += " " + say("automatic", { n: result.automatic }); }
    if (result.sent) {
      text += " " + say("sent", { subject: result.sent.subject, to: result.sent.sent_to.join(", ") });
    } else if (result.send_error) {
      text += " " + say("send_failed", { why: result.send_error });
    } else if (!ui.mail && result.awaiting.length) {
      text += " " + say("no_mail", {});
    } else if (result.awaiting.length) {
      text += " " + say("not_sent", {});
    }
    if (result.awaiting.length) { text += " " + say("awaited", { who: result.awaiting.join(", ") }); }
    if (result.yours || result.owes) { text += " " + say("again", {}); }
    $("after-text").textContent = text.trim();
    document.body.dataset.sent = result.sent ? "true" : "false";
    if ($("send")) { $("send").hidden = Boolean(result.sent); }
    $("after").hidden = false;
    document.body.dataset.signed = "true";
    ["sign", "typed", "auto", "verbs", "words", "buttons"].forEach(function (id) {
      if ($(id)) { $(id).hidden = true; }
    });
    if ($("prompt")) { $("prompt").textContent = say("signed", {}); }
  }

  document.addEventListener("pbem-frame", mark);

  if (ui.decision) {
    $("frame").addEventListener("click", function (event) {
      var el = event.target.closest("[data-pick], [data-picks]");
      if (!el || !answer) { return; }
      if (!atLast()) {
        fail(new Error(say("step_to_last", {})));
        return;
      }
      var word = el.dataset.pick;
      if (!word) {
        var choices = el.dataset.picks.split(" ").filter(function (w) { return state.picks.indexOf(w) < 0; });
        word = choices.filter(function (w) { return answer.next.indexOf(w) >= 0; })[0] || choices[0];
      }
      if (word) { ask({ picks: state.picks.concat([word]) }); }
    });
    $("typed").addEventListener("submit", function (event) {
      event.preventDefault();
      var text = $("typed-text").value.trim();
      if (text) { ask({ typed: text }).then(function () { $("typed-text").value = ""; }); }
    });
    $("undo").addEventListener("click", function () {
      if (state.picks.length) { ask({ picks: state.picks.slice(0, -1) }); }
      else if (answer && answer.ready.length > state.queue.length) { ask({ picks: [] }); }
      else { ask({ queue: state.queue.slice(0, -1), verb: null, picks: [] }); }
    });
    $("clear").addEventListener("click", function () { ask({ queue: [], verb: null, picks: [] }); });
    $("then").addEventListener("click", function () {
      ask({ queue: answer.ready, verb: null, picks: [] });
    });
    $("sign").addEventListener("submit", function (event) {
      event.preventDefault();
      var sign = $("sign-button");
      if (!answer || !answer.ready.length || sign.disabled) { return; }
      sign.disabled = true; /* one signing at a time: enabled again only if it failed */
      var body = { head: ui.head, moves: answer.ready, passphrase: passphrase() };
      post("play", Object.assign(body, sending())).then(signed, function (e) {
        sign.disabled = false;
        fail(e);
      });
    });
    ask({}).then(function () { document.body.dataset.decision = "ready"; });
  }
  if ($("auto")) {
    $("auto").addEventListener("submit", function (event) {
      event.preventDefault();
      var body = { head: ui.head, moves: [], passphrase: passphrase() };
      post("automatic", Object.assign(body, sending())).then(signed, function (e) {
        $("after-result").textContent = e.message;
        $("after").hidden = false;
      });
    });
  }
  function said(result) { $("after-result").textContent = result; }
  $("export").addEventListener("click", function () {
    post("export", {}).then(function (r) { said((r.kept ? r.kept + "; " : "") + say("export_saved", { file: r.file })); }, function (e) { said(e.message); });
  });
  if ($("send")) {
    $("send").addEventListener("click", function () {
      var body = { smtp_password: smtpPassword("smtp-password"), passphrase: passphrase() };
      post("send", body).then(function (r) {
        said(say("mailed", { subject: r.subject, to: r.sent_to.join(", ") }));
      }, function (e) { said(e.message); });
    });
  }
})();
