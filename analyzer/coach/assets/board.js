"use strict";
(function () {
  var DATA = JSON.parse(document.getElementById("analysis").textContent);
  var SUITS = { S: ["s", "\u2660"], H: ["h", "\u2665"], D: ["d", "\u2666"], C: ["c", "\u2663"] };
  var $ = function (id) { return document.getElementById(id); };
  var state = { deal: 0, step: 0, view: "all", curve: "auto", how: -1 };

  function esc(s) { return String(s).replace(/[&<>"]/g, function (c) { return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]; }); }
  function fmt(x, d) { return x === null || x === undefined ? "\u2014" : Number(x).toFixed(d === undefined ? 0 : d); }
  function signed(x) { return x === null || x === undefined ? "\u2014" : (x > 0 ? "+" : x < 0 ? "\u2212" : "") + Math.abs(x).toFixed(0); }
  function pct(p) { return p === null || p === undefined ? "\u2014" : Math.round(100 * p) + "%"; }

  function cardHtml(tok, extra) {
    var cls = "card", label = tok, title = tok;
    if (tok === "EX") { cls += " x"; label = "\u2605"; title = "the Excuse"; }
    else if (/^\d+$/.test(tok)) { cls += " t"; title = "trump " + tok; }
    else { var s = SUITS[tok.slice(-1)]; cls += " " + s[0]; label = tok.slice(0, -1) + s[1]; }
    if (extra) cls += " " + extra;
    return '<span class="' + cls + '" title="' + title + '" data-card="' + tok + '">' + esc(label) + "</span>";
  }
  function backs(n) { var out = ""; for (var i = 0; i < n; i++) out += '<span class="card back"></span>'; return out; }

  function deal() { return DATA.deals[state.deal]; }
  function P() { return deal().players; }
  function cards() { var t = deal().table.tricks, out = []; t.forEach(function (tr) { tr.cards.forEach(function (c, i) { out.push([tr.seats[i], c]); }); }); return out; }
  function nSteps() { return cards().length; }
  function seatName(s) { var n = deal().table.names[String(s)]; return "Seat " + s + (n ? " (" + n + ")" : ""); }
  function sideOf(s) { var t = deal().table; return s === t.taker || s === t.partner ? "taker" : "defence"; }

  // ---- decisions --------------------------------------------------------------------------------
  function decisionAt(step) {
    var d = deal(), out = null;
    d.steps.forEach(function (st, i) { if (st === step && step > 0) out = i; });
    return out;
  }
  function flaggedSteps() {
    var d = deal(), out = [];
    d.decisions.forEach(function (x, i) { if (x.verdict && out.indexOf(d.steps[i]) < 0 && d.steps[i] !== null) out.push(d.steps[i]); });
    return out.sort(function (a, b) { return a - b; });
  }

  // ---- the address --------------------------------------------------------------------------------
  function hashOf() {
    var p = P(), s = state.step, t = s === 0 ? 0 : Math.floor((s - 1) / p) + 1, c = s === 0 ? 0 : (s - 1) % p + 1;
    return "#d" + (state.deal + 1) + "-t" + t + "-c" + c + (state.view === "all" ? "" : "-s" + state.view);
  }
  function readHash() {
    var m = /^#d(\d+)-t(\d+)-c(\d+)(?:-s(\d+))?$/.exec(location.hash);
    if (!m) return false;
    var d = Math.min(Math.max(parseInt(m[1], 10) - 1, 0), DATA.deals.length - 1);
    state.deal = d;
    var p = P(), t = parseInt(m[2], 10), c = parseInt(m[3], 10);
    state.step = t === 0 ? 0 : Math.min((t - 1) * p + Math.min(Math.max(c, 1), p), nSteps());
    state.view = m[4] && parseInt(m[4], 10) <= p ? m[4] : "all";
    return true;
  }

  function go(step) {
    state.step = Math.max(0, Math.min(step, nSteps()));
    state.how = -1;
    render();
  }

  // ---- the table ----------------------------------------------------------------------------------
  var AREAS = { 3: ["s", "e", "w"], 4: ["s", "e", "n", "w"], 5: ["s", "e", "ne", "nw", "w"] };

  function render() {
    var d = deal(), t = d.table, p = P(), step = state.step, played = cards().slice(0, step);
    var gone = {}; played.forEach(function (x) { gone[x[1]] = true; });
    var view = state.view === "all" ? null : parseInt(state.view, 10);
    var bottom = view || 1, felt = $("felt");
    felt.className = "felt p" + p;
    var html = "";
    var trickNo = step === 0 ? 0 : Math.floor((step - 1) / p);           // 0-based trick of the last card played
    var inTrick = step === 0 ? 0 : (step - 1) % p + 1;
    var trick = step === 0 ? null : t.tricks[trickNo];
    var toPlay = null;
    if (step < nSteps()) toPlay = cards()[step][0];
    var dIdx = decisionAt(step);
    // Who the called partner is: known to all once the called card is played, to the partner always.
    var sidesKnown = t.partner_known && (view === null || !t.called || view === t.partner ||
      (view === t.taker && !t.partner) || !!gone[t.called]);
    for (var k = 0; k < p; k++) {
      var s = (bottom - 1 + k) % p + 1, hand = t.hands_in_play[s - 1];
      var badges = "";
      if (s === t.taker) badges += '<span class="badge">taker \u00b7 ' + esc(t.contract) + "</span>";
      else if (!sidesKnown) badges += "";
      else if (s === t.partner) badges += '<span class="badge partner">partner</span>';
      else if (t.taker) badges += '<span class="badge def">defence</span>';
      t.poignees.forEach(function (pg) { if (pg.seat === s) badges += '<span class="badge def" title="' + esc(pg.cards.join(" ")) + '">poign\u00e9e ' + pg.cards.length + "</span>"; });
      t.miseres.forEach(function (m) { if (m.seat === s) badges += '<span class="badge def">mis\u00e8re</span>'; });
      if (t.chelem && s === t.taker) badges += '<span class="badge def">chelem announced</span>';
      var handHtml;
      var hidden = view !== null && s !== view;
      if (hand === null) handHtml = '<span class="small">hand not recorded</span>';
      else {
        var left = hand.filter(function (c) { return !gone[c]; });
        if (hidden) handHtml = '<div class="hand hidden-hand">' + backs(left.length) + "</div>";
        else handHtml = '<div class="hand shown-hand">' + left.map(function (c) { return cardHtml(c); }).join("") + "</div>";
      }
      html += '<div class="seat' + (s === toPlay ? " to-play" : "") + '" style="grid-area:' + AREAS[p][k] + '" data-seat="' + s + '">' +
        '<div class="name">' + esc(seatName(s)) + badges + "</div>" + handHtml + "</div>";
    }
    var center = '<div class="small">' + (step === 0 ? "Before the first card" : "Trick " + (trickNo + 1) + ", card " + inTrick + " of " + p) + "</div>";
    if (trick) {
      center += '<div class="trick">';
      for (var i = 0; i < inTrick; i++) {
        var won = inTrick === p && trick.seats[i] === trick.winner, v = "";
        var di = decisionIndexFor(trickNo + 1, trick.seats[i]);
        if (di !== null && d.decisions[di].verdict) v = d.decisions[di].verdict;
        center += '<div class="played' + (won ? " won" : "") + '">' + cardHtml(trick.cards[i], v) + "<span>" + trick.seats[i] + "</span></div>";
      }
      center += "</div>";
      if (inTrick === p && trick.winner) center += '<div class="small">won by seat ' + trick.winner + "</div>";
    }
    var done = step === 0 ? null : (inTrick === p ? t.tricks[trickNo] : (trickNo > 0 ? t.tricks[trickNo - 1] : null));
    if (t.taker && (!sidesKnown || (done && !done.points))) center += '<div class="score" id="score">the partner is not known yet</div>';
    else if (t.taker) {
      var tw = { taker: 0, defence: 0 }, last = done ? t.tricks.indexOf(done) : -1;
      for (var w = 0; w <= last; w++) tw[sideOf(t.tricks[w].winner)] += 1;
      var pts = done ? done.points : { taker: 0, defence: 0 }, ou = done ? done.oudlers : { taker: 0, defence: 0 };
      center += '<div class="score" id="score">tricks won: taker\u2019s side ' + tw.taker + ", defence " + tw.defence + "<br>taker\u2019s side " + fmt(pts.taker, 1) + " pts, " + ou.taker + " oudler" + (ou.taker === 1 ? "" : "s") +
        " \u00b7 defence " + fmt(pts.defence, 1) + " pts, " + ou.defence + " oudler" + (ou.defence === 1 ? "" : "s") + "</div>";
    }
    center += '<div class="small">' + chienHtml(view) + "</div>";
    html += '<div class="center">' + center + "</div>";
    felt.innerHTML = html;
    renderHistory(trickNo, step, sidesKnown);
    $("where").textContent = step === 0 ? "start" : "trick " + (trickNo + 1) + " \u00b7 card " + inTrick + " \u00b7 " + step + "/" + nSteps();
    var h = hashOf();
    if (location.hash !== h) history.replaceState(null, "", h);
    renderPanel(dIdx);
    renderCurve();
  }

  // One button per trick: who won it (the taker's side's tricks tinted once the sides are known).
  function renderHistory(trickNo, step, sidesKnown) {
    var t = deal().table, p = P(), out = "";
    t.tricks.forEach(function (tr, k) {
      var end = k * p + tr.cards.length, seen = step >= end;
      var cls = (seen && tr.winner && sidesKnown && sideOf(tr.winner) === "taker" ? "taker" : "") + (step > 0 && k === trickNo ? " now" : "") + (seen ? "" : " later");
      var label = (k + 1) + (seen && tr.winner ? " \u2192 " + tr.winner : "");
      out += '<button type="button" class="' + cls + '" data-step="' + end + '" title="trick ' + (k + 1) + (seen ? ": " + tr.cards.join(" ") : "") + '">' + label + "</button>";
    });
    var h = $("history");
    h.innerHTML = out ? '<span class="small">tricks (\u2192 winner):</span>' + out : "";
    Array.prototype.forEach.call(h.querySelectorAll("button"), function (b) { b.onclick = function () { go(parseInt(b.getAttribute("data-step"), 10)); }; });
  }

  function chienHtml(view) {
    var t = deal().table, out = "";
    var chienSeen = view === null || (t.contract === "prise" || t.contract === "garde");
    if (t.chien) out += "chien " + (chienSeen ? t.chien.map(function (c) { return cardHtml(c); }).join("") : backs(t.chien.length));
    if (t.discard && (view === null || view === t.taker)) out += "<br>discard " + t.discard.map(function (c) { return cardHtml(c); }).join("");
    return out;
  }

  function decisionIndexFor(trick, seat) {
    var d = deal(), out = null;
    d.decisions.forEach(function (x, i) { if (x.phase === "card" && x.trick === trick && x.seat === seat) out = i; });
    return out;
  }

  // ---- the side panel -----------------------------------------------------------------------------
  function alternativesTable(x, i) {
    var cls = (deal().classes || {})[String(i)] || {};
    var rows = x.alternatives.map(function (a) {
      var inBest = (x.best_group || [x.best]).indexOf(a.choice) >= 0;
      var label = x.phase === "card" ? (cls[a.choice] || [a.choice]).map(function (c) { return cardHtml(c, inBest ? "best" : ""); }).join("") : choiceHtml(x.phase, a.choice);
      return '<tr class="' + (a.choice === x.played ? "made-row" : "") + (inBest ? " best-row" : "") + '"><td>' + label + (a.choice === x.played ? ' <span class="small">played</span>' : "") +
        (inBest && (x.best_group || []).length > 1 ? ' <span class="small">equal best</span>' : "") +
        '</td><td class="num">' + fmt(a.expected_score, 1) + '</td><td class="num">\u00b1' + fmt(a.se, 1) + '</td><td class="num">' + pct(a.p_made) +
        '</td><td class="num">' + fmt(a.vs_best, 1) + "</td></tr>";
    }).join("");
    return '<table class="alts"><tr><th>choice</th><th class="num">value</th><th class="num">se</th><th class="num">made</th><th class="num">vs best</th></tr>' + rows + "</table>";
  }

  function choiceHtml(phase, text) {
    if (phase === "discard" && /^[0-9A-Z ]+$/.test(text)) return text.split(" ").map(function (c) { return cardHtml(c); }).join("");
    return esc(text);
  }

  function groupText(g) {
    return g.length === 1 ? g[0] : g.slice(0, -1).join(", ") + " or " + g[g.length - 1];
  }

  function verdictHtml(x) {
    if (!x.judged) return '<span class="small">' + esc(x.note || "not judged") + "</span>";
    var group = x.best_group || [x.best];
    var reason = x.verdict ? '<span class="verdict ' + x.verdict + '">' + x.verdict + "</span> lost " + fmt(x.loss, 1) + " \u00b1 " + fmt(x.loss_se, 1) +
      " contract points against " + esc(groupText(group)) + " (" + reasonOf(x) + ")" +
      ((x.reason_labels || []).length ? '<br><span class="reasons">' + x.reason_labels.map(esc).join("; ") + "</span>" : "") :
      '<span class="verdict ok">fine</span> ' +
      (group.indexOf(x.played) >= 0 ? (group.length > 1 ? "one of the best: " + esc(groupText(group)) : "the best choice") :
       "loss " + fmt(x.loss, 1) + " \u00b1 " + fmt(x.loss_se, 1) + " contract points: within noise or under " + DATA.thresholds.inaccuracy);
    if (x.hindsight_best) reason += '<br><span class="small">hindsight best (every hand seen): ' + esc(x.hindsight_best) + "</span>";
    return reason;
  }
  function reasonOf(x) {
    var r = x.loss >= DATA.thresholds.blunder ? "at least " + DATA.thresholds.blunder : x.loss >= DATA.thresholds.mistake ? "at least " + DATA.thresholds.mistake : "at least " + DATA.thresholds.inaccuracy;
    var pm = !x.p_made_change ? "" : "; contract\u2019s chance " + signed(100 * x.p_made_change) + " pts";
    return r + " contract points, beyond twice the standard error; " + fmt(x.loss_score, 1) + " of the seat\u2019s own score" + pm;
  }

  function handAtDecision(x) {
    var t = deal().table;
    var before = cards().slice(0, state.step - 1), gone = {};
    before.forEach(function (c) { gone[c[1]] = true; });
    var hand = t.hands_in_play[x.seat - 1] || [];
    return hand.filter(function (c) { return !gone[c]; }).map(function (c) { return cardHtml(c, c === x.played ? "made" : ""); }).join("");
  }

  function renderPanel(i) {
    var d = deal(), panel = $("decision"), out = "";
    if (state.step === 0) {
      out += "<h2>Before the play</h2>" + auctionHtml();
      var others = 0;
      d.decisions.forEach(function (x, j) {
        if (x.phase === "card") return;
        if (state.view !== "all" && x.seat !== parseInt(state.view, 10)) { others += 1; return; }
        out += '<div class="item"><b>' + esc(seatName(x.seat)) + " \u00b7 " + x.phase + "</b>: " + choiceHtml(x.phase, x.played) + "<br>" + verdictHtml(x) +
          (x.judged ? alternativesTable(x, j) : "") + "</div>";
      });
      if (others) out += '<p class="small" id="hidden-decision">' + others + " decision" + (others === 1 ? "" : "s") + " of other seats hidden in seat " + state.view + "\u2019s view.</p>";
      panel.className = "panel before-list";
      panel.innerHTML = out;
      return;
    }
    panel.className = "panel";
    if (i === null) {
      var c = cards()[state.step - 1];
      panel.innerHTML = "<h2>" + esc(seatName(c[0])) + " played " + cardHtml(c[1]) + '</h2><p class="small">This card was not judged (its seat was not analysed).</p>';
      return;
    }
    var x = d.decisions[i];
    if (state.view !== "all" && x.seat !== parseInt(state.view, 10)) {      // another seat's hand: not seen
      panel.innerHTML = '<h2 id="decision-title">' + esc(seatName(x.seat)) + " played " + cardHtml(x.played) + "</h2>" +
        '<p class="small" id="hidden-decision">Seat ' + x.seat + "\u2019s decision shows its hand: hidden in seat " + state.view +
        "\u2019s view (choose all hands to see it).</p>";
      return;
    }
    out += '<h2 id="decision-title">' + esc(seatName(x.seat)) + " played " + cardHtml(x.played, x.verdict || "") + "</h2>";
    out += '<p id="verdict">' + verdictHtml(x) + "</p>";
    out += '<h3>Hand at the decision</h3><div class="hand">' + handAtDecision(x) + "</div>";
    if (x.judged) out += "<h3>Alternatives</h3>" + alternativesTable(x, i);
    var line = (d.lines || []).filter(function (l) { return l.decision === i; })[0];
    if (line) {
      out += '<div class="how"><button id="show-how" type="button">Show me how</button><div id="how-body"></div></div>';
    }
    panel.innerHTML = out;
    if (line) {
      $("show-how").onclick = function () { state.how = state.how === i ? -1 : i; showHow(line); };
      if (state.how === i) showHow(line);
    }
  }

  function trickCards(tr) {
    return '<div class="cards">' + tr.cards.map(function (c, k) { return cardHtml(c, tr.seats[k] === tr.winner ? "win" : ""); }).join("") + "</div>";
  }
  function showHow(line) {
    var body = $("how-body");
    if (state.how < 0) { body.innerHTML = ""; return; }
    var alt = line.line, act = line.actual, n = Math.max(alt.tricks.length, act.tricks.length), t = deal().table;
    var by = alt.finished_by === "solver" ? "the endgame solver (both sides perfect, every hand seen)" : alt.finished_by === "over" ? "nothing (the last card)" : "the " + alt.finished_by + " policy on the real hands";
    var out = '<p class="small">' + cardHtml(line.card, "best") + " instead of " + cardHtml(line.played) + ", the deal finished by " + by + ".</p>";
    out += '<div class="lines"><span></span><span class="head">with ' + esc(line.card) + '</span><span class="head">as played</span>';
    for (var k = 0; k < n; k++) {
      out += '<span class="row-trick">' + (line.trick + k) + "</span>" + (alt.tricks[k] ? trickCards(alt.tricks[k]) : "<span></span>") + (act.tricks[k] ? trickCards(act.tricks[k]) : "<span></span>");
    }
    var ts = t.taker - 1;
    out += '<span></span><span class="final line-score" id="line-score">taker ' + signed(alt.scores[ts]) + " (" + fmt(alt.taker_points, 1) + " pts, " + (alt.made ? "made" : "down") + ")</span>" +
      '<span class="final actual-score" id="actual-score">' + (act.scores ? "taker " + signed(act.scores[ts]) + " (" + fmt(act.taker_points, 1) + " pts, " + (act.made ? "made" : "down") + ")" : "the record stops here") + "</span></div>";
    out += '<p class="small">Score of seat ' + line.seat + ": " + signed(alt.scores[line.seat - 1]) + " with the line" + (act.scores ? ", " + signed(act.scores[line.seat - 1]) + " as played" : "") + ".</p>";
    body.innerHTML = out;
  }

  function auctionHtml() {
    var t = deal().table, out = '<p class="small">Auction: ' + t.auction.map(function (b, k) { return (k + 1) + ": " + esc(b); }).join(", ");
    if (t.called) out += "; called " + cardHtml(t.called);
    if (t.chelem) out += "; chelem announced by the taker";
    t.poignees.forEach(function (p) { out += "<br>poign\u00e9e of seat " + p.seat + ": " + p.cards.map(function (c) { return cardHtml(c); }).join(""); });
    t.miseres.forEach(function (m) { out += "<br>mis\u00e8re of seat " + m.seat + " (" + esc(m.kind) + ")"; });
    if (t.result) out += "<br>Result: " + t.result.scores.map(function (s, k) { return (k + 1) + ": " + signed(s); }).join(", ");
    return out + "</p>";
  }

  // ---- the curve ----------------------------------------------------------------------------------
  var W = 720, H = 210, L = 38, R = 10, T = 12, B = 26;
  function xOf(k, n) { return L + (W - L - R) * k / Math.max(n, 1); }
  function yOf(p) { return T + (H - T - B) * (1 - p); }

  function curveSeries() {
    var d = deal(), c = d.curve, which = state.curve;
    if (which === "auto") which = state.view === "all" ? "all" : state.view;
    if (which === "all") {
      if (!c.hindsight) return { name: "every hand known: not computed for this deal (a hand unknown, or no card played)", pts: [], none: true };
      return { name: "every hand known", pts: c.hindsight.map(function (p, k) { return p === null ? null : [k + 1, p]; }), step: true };
    }
    var pts = (c.knowledge[which] || []).map(function (q) { return [q[0] + 1, q[1]]; });
    return { name: "seat " + which + "\u2019s knowledge", pts: pts, seat: parseInt(which, 10) };
  }

  function renderCurve() {
    var d = deal(), n = nSteps(), p = P(), s = curveSeries(), out = "";
    out += '<rect x="' + L + '" y="' + T + '" width="' + (W - L - R) + '" height="' + (H - T - B) + '" fill="#fbfcfb" stroke="#cfd8d3"/>';
    [0, 0.5, 1].forEach(function (v) {
      out += '<line x1="' + L + '" x2="' + (W - R) + '" y1="' + yOf(v) + '" y2="' + yOf(v) + '" stroke="#dde4e0"/>' +
        '<text x="' + (L - 4) + '" y="' + (yOf(v) + 4) + '" font-size="11" text-anchor="end" fill="#555">' + 100 * v + "%</text>";
    });
    for (var t = 0; t <= n / p; t++) {
      var x = xOf(t * p, n);
      out += '<line x1="' + x + '" x2="' + x + '" y1="' + T + '" y2="' + (H - B) + '" stroke="#eef2f0"/>';
      if (t < n / p && (t % 3 === 0 || n / p <= 8)) out += '<text x="' + xOf(t * p + p / 2, n) + '" y="' + (H - B + 15) + '" font-size="10" text-anchor="middle" fill="#666">' + (t + 1) + "</text>";
    }
    out += '<text x="' + (W - R) + '" y="' + (H - 2) + '" font-size="10" text-anchor="end" fill="#666">trick</text>';
    // flagged decisions
    d.decisions.forEach(function (x, i) {
      if (!x.verdict || !d.steps[i]) return;
      var fx = xOf(d.steps[i], n);
      out += '<line class="flag" x1="' + fx + '" x2="' + fx + '" y1="' + T + '" y2="' + (H - B) + '" stroke="' + COLOURS[x.verdict] + '" stroke-width="2" stroke-dasharray="3 2"/>';
    });
    // the series: segments between consecutive points (a gap where a card has no value from this viewpoint)
    var path = "", prev = null;
    s.pts.forEach(function (q) {
      if (q === null) { prev = null; return; }
      var x = xOf(q[0], n), y = yOf(q[1]);
      if (prev && (s.step || consecutive(prev[0], q[0], s.seat))) path += (s.step ? "H" + x + "V" + y : "L" + x + "," + y);
      else path += "M" + x + "," + y;
      prev = q;
    });
    if (path) out += '<path d="' + path + '" fill="none" stroke="#1e5aa8" stroke-width="2"/>';
    s.pts.forEach(function (q) {
      if (q === null) return;
      out += '<circle class="pt" cx="' + xOf(q[0], n) + '" cy="' + yOf(q[1]) + '" r="' + (s.step ? 2 : 3.2) + '" fill="#1e5aa8"/>';
    });
    var cx = xOf(state.step, n);
    out += '<line id="now" x1="' + cx + '" x2="' + cx + '" y1="' + T + '" y2="' + (H - B) + '" stroke="#111" stroke-width="1.5"/>';
    out += '<rect id="curve-hit" x="' + L + '" y="0" width="' + (W - L - R) + '" height="' + H + '" fill="transparent"/>';
    var svg = $("curve");
    svg.innerHTML = out;
    $("curve-name").textContent = "Contract\u2019s chance, " + s.name + (s.pts.length || s.none ? "" : " (no value computed)");
  }
  var COLOURS = { blunder: "#c0392b", mistake: "#e67e22", inaccuracy: "#d4ac0d" };

  // Two cards of one seat's series are joined when the seat played no judged-less card between them.
  function consecutive(a, b, seat) {
    var c = cards();
    for (var k = a; k < b - 1; k++) {
      if (c[k][0] === seat) return false;
    }
    return true;
  }

  function curveClick(ev) {
    var svg = $("curve"), r = svg.getBoundingClientRect();
    var x = (ev.clientX - r.left) * W / r.width, n = nSteps();
    var k = Math.round((x - L) / (W - L - R) * n);
    go(k);
  }

  // ---- luck and skill -----------------------------------------------------------------------------
  function renderLuck() {
    var d = deal(), rows = "";
    Object.keys(d.luck).forEach(function (s) {
      var l = d.luck[s];
      rows += "<tr><td>" + esc(seatName(parseInt(s, 10))) + '</td><td class="num">' + fmt(l.expected, 0) + (l.expected_se !== null ? ' <span class="small">\u00b1' + fmt(l.expected_se, 0) + "</span>" : "") +
        '</td><td class="num">' + signed(l.actual) + '</td><td class="num">' + (l.actual === null || l.expected === null ? "\u2014" : signed(l.actual - l.expected)) +
        '</td><td class="num">' + signed(l.own_decisions) + '</td><td class="num">' + signed(l.rest) + "</td></tr>";
    });
    $("luck").innerHTML = '<table><tr><th>seat</th><th class="num">expected</th><th class="num">actual</th><th class="num">difference</th>' +
      '<th class="num">own decisions</th><th class="num">luck (the rest)</th></tr>' + rows + "</table>";
  }

  function setupDeal() {
    var d = deal(), sel = $("view");
    sel.innerHTML = '<option value="all">all hands</option>' + d.table.hands_in_play.map(function (h, k) {
      return h ? '<option value="' + (k + 1) + '">only what seat ' + (k + 1) + " saw</option>" : "";
    }).join("");
    sel.value = state.view;
    var cs = $("curve-view");
    cs.innerHTML = '<option value="auto">follow the seat view</option><option value="all">every hand known</option>' +
      Object.keys(d.curve.knowledge).map(function (s) { return '<option value="' + s + '">seat ' + s + "\u2019s knowledge</option>"; }).join("");
    cs.value = state.curve;
    $("meta").textContent = d.players + " players \u00b7 " + (d.table.taker ? "seat " + d.table.taker + " takes " + d.table.contract + (d.table.called ? ", calling " + d.table.called : "") : "no taker") +
      " \u00b7 judged with " + d.policy + " play, " + d.worlds + " worlds per card, bids read as " +
      d.auction_read.bidding + (d.auction_read.noise ? " \u00b1 " + d.auction_read.noise + " points" : " exactly");
    renderLuck();
  }

  function nextFlag(dir) {
    var f = flaggedSteps(), s = state.step;
    var cand = dir > 0 ? f.filter(function (x) { return x > s; })[0] : f.filter(function (x) { return x < s; }).pop();
    if (cand !== undefined) go(cand);
  }
  function trickStep(dir) {
    var p = P(), s = state.step;
    if (dir > 0) go(s % p === 0 ? s + p : Math.ceil(s / p) * p);          // the end of the next trick
    else go(s % p === 0 ? s - p : Math.floor(s / p) * p);
  }

  document.addEventListener("keydown", function (ev) {
    if (ev.target && (ev.target.tagName === "SELECT" || ev.target.tagName === "INPUT")) return;
    if (ev.key === "ArrowRight") { ev.shiftKey ? trickStep(1) : go(state.step + 1); }
    else if (ev.key === "ArrowLeft") { ev.shiftKey ? trickStep(-1) : go(state.step - 1); }
    else if (ev.key === "ArrowDown" || ev.key === "PageDown") trickStep(1);
    else if (ev.key === "ArrowUp" || ev.key === "PageUp") trickStep(-1);
    else if (ev.key === "n") nextFlag(1);
    else if (ev.key === "p") nextFlag(-1);
    else if (ev.key === "Home") go(0);
    else if (ev.key === "End") go(nSteps());
    else return;
    ev.preventDefault();
  });
  $("first").onclick = function () { go(0); };
  $("prev-trick").onclick = function () { trickStep(-1); };
  $("prev").onclick = function () { go(state.step - 1); };
  $("next").onclick = function () { go(state.step + 1); };
  $("next-trick").onclick = function () { trickStep(1); };
  $("last").onclick = function () { go(nSteps()); };
  $("prev-flag").onclick = function () { nextFlag(-1); };
  $("next-flag").onclick = function () { nextFlag(1); };
  $("view").onchange = function () { state.view = this.value; this.blur(); render(); };
  $("curve-view").onchange = function () { state.curve = this.value; this.blur(); renderCurve(); };
  $("curve").addEventListener("click", curveClick);
  var dealSel = $("deal");
  dealSel.onchange = function () { state.deal = parseInt(this.value, 10); state.step = 0; state.view = "all"; this.blur(); setupDeal(); render(); };
  window.addEventListener("hashchange", function () { if (readHash()) { dealSel.value = state.deal; setupDeal(); render(); } });
  readHash();
  dealSel.value = state.deal;
  setupDeal();
  render();
})();
