// boardcore's page: the lobby, a seat's or a spectator's table, and replays.
// Plain JavaScript, no build step.  It speaks the JSON and websocket API of docs/web.md
// and shows only what the server sends: a seat's page receives that seat's view.
"use strict";

// Every message a websocket of this page received, as received (the browser tests read
// it to check that no other seat's hidden card ever reached the page).
window.boardcoreMessages = [];

const $ = (selector, root = document) => root.querySelector(selector);
let page = null;            // what the current route runs: {stop()}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child);
  return node;
}

async function api(path, {method = "GET", body, token} = {}) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["Authorization"] = "Bearer " + token;
  const response = await fetch(path, {method, headers,
    body: body === undefined ? undefined : JSON.stringify(body)});
  const data = await response.json();
  if (!response.ok || data.type === "error") throw new Error(data.message || response.statusText);
  return data;
}

function show(templateId) {
  const main = $("#main");
  main.replaceChildren($(templateId).content.cloneNode(true));
  return main;
}

function say(text) {
  const box = $("#error");
  if (box) box.textContent = text || "";
}

function seatName(seat, seats) {
  const who = seats[seat];
  return who.kind === "human" ? `seat ${seat}` : `seat ${seat} (${who.agent})`;
}

function outcomeText(outcome, seats) {
  const winners = outcome.winners.map((s) => seatName(s, seats)).join(" and ");
  return `Game over — ${winners} won. Scores: ${outcome.scores.join(", ")}.`;
}

function showLastMove(move) {
  const list = $("#lastmove");
  list.replaceChildren();
  if (!move) { list.append(el("dd", {text: "none yet"})); return; }
  for (const [key, value] of Object.entries(move)) {
    if (value === null || value === false || (Array.isArray(value) && value.length === 0)) continue;
    list.append(el("dt", {text: key.replaceAll("_", " ")}),
                el("dd", {text: typeof value === "object" ? JSON.stringify(value) : String(value)}));
  }
}

function showLog(entries, seats, upTo) {
  const list = $("#log");
  list.replaceChildren(...entries.map(([seat, move], i) =>
    el("li", {text: `${seatName(seat, seats)}: ${move}`,
              class: upTo !== undefined && i === upTo - 1 ? "current" : ""})));
  const current = $("#log .current") || list.lastElementChild;
  if (current) current.scrollIntoView({block: "nearest"});
}

// -- the lobby ------------------------------------------------------------------------

function lobby() {
  show("#lobby-page");
  let games = [], choices = [];
  const timer = setInterval(listMatches, 3000);

  function seatSelect(seat) {
    const select = el("select", {class: "seat", "data-seat": seat});
    for (const choice of choices) select.append(el("option", {value: choice, text: choice}));
    select.append(el("option", {value: "other", text: "another agent…"}));
    const other = el("input", {class: "agent", type: "text", placeholder: "e.g. ismcts:2000", hidden: ""});
    select.addEventListener("change", () => { other.hidden = select.value !== "other"; });
    select.value = seat === 0 ? "human" : choices[1];
    return el("label", {}, `Seat ${seat} `, select, other);
  }

  function drawSeats() {
    const n = Number($("#players").value);
    const box = $("#seats");
    box.replaceChildren(el("legend", {text: "Seats: a person or an agent"}));
    for (let p = 0; p < n; p++) box.append(seatSelect(p));
  }

  function chooseGame() {
    const game = games.find((g) => g.game === $("#game").value);
    const players = $("#players");
    players.min = game.min_players; players.max = game.max_players;
    players.value = Math.min(Math.max(Number(players.value), game.min_players), game.max_players);
    $("#options").value = JSON.stringify(game.options);
    drawSeats();
  }

  async function create(event) {
    event.preventDefault();
    say("");
    try {
      const seats = [...document.querySelectorAll("#seats label")].map((label) => {
        const select = $("select", label);
        return select.value === "other" ? $("input", label).value.trim() : select.value;
      });
      const spec = {game: $("#game").value, players: Number($("#players").value), seats,
                    options: JSON.parse($("#options").value || "{}"), undo: $("#undo").value,
                    delay: Number($("#delay").value)};
      if ($("#seed").value.trim()) spec.seed = Number($("#seed").value.trim());
      const made = await api("/api/matches", {method: "POST", body: spec});
      const links = $("#links");
      links.replaceChildren();
      for (const [seat, token] of Object.entries(made.tokens)) {
        const url = `${location.origin}/#/play/${token}`;
        links.append(el("li", {}, `Seat ${seat}: `, el("a", {href: url, class: "seat-link", "data-seat": seat, text: url})));
      }
      const watch = `${location.origin}/#/watch/${made.match}`;
      links.append(el("li", {}, "Spectators: ", el("a", {href: watch, class: "watch-link", text: watch})));
      $("#created").hidden = false;
      listMatches();
    } catch (error) {
      say(error.message);
    }
  }

  async function listMatches() {
    try {
      const {matches} = await api("/api/matches");
      $("#match-list tbody").replaceChildren(...matches.slice(0, 100).map((m) => el("tr", {},
        el("td", {text: `${m.title}, ${m.players} players`}),
        el("td", {text: m.seats.map((s) => s.kind === "human" ? "person" : s.agent).join(", ")}),
        el("td", {text: String(m.ply)}),
        el("td", {text: m.over ? outcomeText(m.outcome, m.seats) : "playing"}),
        el("td", {}, el("a", {href: `#/watch/${m.match}`, text: "watch"}), " ",
           m.over ? el("a", {href: `#/replay/${m.match}`, text: "replay"}) : ""))));
    } catch (error) {
      say(error.message);
    }
  }

  (async () => {
    try {
      const data = await api("/api/games");
      games = data.games;
      choices = ["human", ...data.levels, ...data.agents];
      for (const g of games) $("#game").append(el("option", {value: g.game, text: g.title}));
      $("#game").addEventListener("change", chooseGame);
      $("#players").addEventListener("change", drawSeats);
      $("#new-match").addEventListener("submit", create);
      chooseGame();
      listMatches();
    } catch (error) {
      say(error.message);
    }
  })();
  return {stop() { clearInterval(timer); }};
}

// -- a seat's or a spectator's table ----------------------------------------------------

function table(join) {
  show("#play-page");
  let ws = null, state = null, stopped = false, retry = 500;

  function send(message) {
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
  }

  function connect() {
    ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
    ws.onopen = () => { retry = 500; send({...join, svg: true}); };
    ws.onmessage = (event) => {
      window.boardcoreMessages.push(event.data);
      const message = JSON.parse(event.data);
      if (message.type === "state") draw(message);
      else if (message.type === "hint") hints(message);
      else if (message.type === "error") { say(message.message); enable(true); }
    };
    ws.onclose = () => {
      if (stopped) return;
      say("connection lost: reconnecting…");
      setTimeout(() => { if (!stopped) connect(); }, retry);
      retry = Math.min(retry * 2, 5000);
    };
  }

  function enable(on) {
    for (const button of document.querySelectorAll("#moves button")) button.disabled = !on;
  }

  function draw(s) {
    const fresh = !state || state.version !== s.version;
    state = s;
    document.body.dataset.version = s.version;      // for programs driving the page
    document.body.dataset.ply = s.ply;
    if (fresh) say("");
    const mine = s.seat !== null;
    $("#title").textContent = `${s.title}, ${s.players} players` +
      (mine ? ` — you are seat ${s.seat}` : " — watching");
    const toAct = s.to_act === null ? "" : s.to_act === s.seat ? "Your move." :
      `${seatName(s.to_act, s.seats)} to act${s.thinking !== null ? " (thinking)" : ""}.`;
    $("#status").textContent = toAct;
    $("#board").innerHTML = s.svg;          // boardcore's own SVG, drawn for this seat
    const outcome = $("#outcome");
    outcome.hidden = s.outcome === null;
    outcome.textContent = s.outcome ? outcomeText(s.outcome, s.seats) : "";
    $("#moves-title").hidden = !mine;
    $("#moves").replaceChildren(...s.moves.map((m) => el("button", {
      type: "button", class: "move", "data-action": m.action, "data-move": m.move, text: m.move,
      onclick: () => { enable(false); send({type: "move", move: m.move, version: s.version}); },
    })));
    if (fresh) $("#hints").replaceChildren();
    $("#hint-button").hidden = !mine || s.outcome !== null;
    $("#hint-button").disabled = s.to_act !== s.seat;
    $("#undo").hidden = !mine || s.undo === "off" || s.outcome !== null;
    const bots = s.seats.some((seat) => seat.kind === "agent");
    const humans = s.seats.some((seat) => seat.kind === "human");
    $("#pace").hidden = !bots || (humans && !mine);
    $("#delay").value = s.delay;
    $("#delay-value").textContent = s.delay.toFixed(1);
    $("#pause").textContent = s.paused ? "Resume" : "Pause";
    showLastMove(s.last_move);
    showLog(s.log, s.seats);
    const analysis = $("#analysis");
    analysis.hidden = !s.analysis;
    if (s.analysis) {
      $("h2", analysis).textContent = `${seatName(s.analysis.seat, s.seats)}: its candidates`;
      $("tbody", analysis).replaceChildren(...s.analysis.candidates.map((c) => el("tr", {},
        el("td", {text: c.move}), el("td", {text: c.visits ?? ""}),
        el("td", {text: c.value === undefined ? "" : c.value.toFixed(3)}),
        el("td", {text: (100 * c.weight).toFixed(1) + "%"}))));
    }
  }

  function hints(message) {
    if (!state || message.version !== state.version) return;
    $("#hints").replaceChildren(...message.candidates.map((c) => el("li", {class: "hint",
      text: `${c.move}: ${(100 * c.weight).toFixed(1)}%` +
            (c.visits !== undefined ? ` (${c.visits} visits)` : "") +
            (c.value !== undefined ? ` (value ${c.value.toFixed(3)})` : "")})));
    $("#hint-button").disabled = false;
  }

  $("#hint-button").addEventListener("click", () => {
    $("#hint-button").disabled = true;
    $("#hints").replaceChildren(el("li", {text: "thinking…"}));
    send({type: "hint"});
  });
  $("#undo").addEventListener("click", () => send({type: "undo", version: state.version}));
  $("#delay").addEventListener("change", () =>
    send({type: "pace", delay: Number($("#delay").value), paused: state.paused}));
  $("#pause").addEventListener("click", () =>
    send({type: "pace", delay: state.delay, paused: !state.paused}));
  $("#record-link").addEventListener("click", async (event) => {
    event.preventDefault();
    try {
      const record = await api(`/api/matches/${state.match}/record`, {token: join.token});
      const blob = new Blob([JSON.stringify(record, null, 1)], {type: "application/json"});
      const link = el("a", {href: URL.createObjectURL(blob), download: `${state.game}-${state.match}.json`});
      link.click();
    } catch (error) {
      say(error.message);
    }
  });
  $("#replay-link").addEventListener("click", (event) => {
    event.preventDefault();
    if (state && state.outcome) location.hash = `#/replay/${state.match}`;
    else say("a replay opens once the game is over");
  });
  connect();
  return {stop() { stopped = true; if (ws) ws.close(); }};
}

// -- replays --------------------------------------------------------------------------

function replay(matchId) {
  show("#replay-page");
  let record = null, ply = 0, plies = 0, timer = null, asked = 0, seats = [];

  async function load(rec) {
    record = rec;
    const perspective = $("#replay-perspective");
    perspective.replaceChildren(el("option", {value: "all", text: "everyone"}),
                                el("option", {value: "spectator", text: "a spectator"}));
    for (let p = 0; p < rec.players; p++) perspective.append(el("option", {value: p, text: `seat ${p}`}));
    seats = Array.from({length: rec.players}, () => ({kind: "human"}));
    await go(0);
  }

  async function go(target) {
    if (!record) return;
    const mine = ++asked;
    const value = $("#replay-perspective").value;
    try {
      const frame = await api("/api/replay", {method: "POST", body: {
        record, ply: Math.max(0, Math.min(target, plies || target)),
        perspective: value === "all" || value === "spectator" ? value : Number(value)}});
      if (mine !== asked) return;
      say("");
      ply = frame.ply; plies = frame.plies;
      $("#title").textContent = `Replay: ${frame.title}, ${frame.players} players`;
      $("#board").innerHTML = frame.svg;
      $("#replay-ply").max = plies;
      $("#replay-ply").value = ply;
      $("#replay-frame").textContent = `${ply} / ${plies}`;
      showLastMove(frame.last_move);
      showLog(frame.log, seats, ply);
      const outcome = $("#outcome");
      outcome.hidden = frame.outcome === null;
      outcome.textContent = frame.outcome ? outcomeText(frame.outcome, seats) : "";
      if (ply >= plies) stop();
    } catch (error) {
      say(error.message);
      stop();
    }
  }

  function stop() {
    if (timer !== null) clearInterval(timer);
    timer = null;
    $("#replay-play").textContent = "Play";
  }

  function play() {
    if (timer !== null) { stop(); return; }
    if (ply >= plies) go(0);
    $("#replay-play").textContent = "Pause";
    timer = setInterval(() => go(ply + 1), Number($("#replay-speed").value));
  }

  $("#replay-first").addEventListener("click", () => go(0));
  $("#replay-prev").addEventListener("click", () => go(ply - 1));
  $("#replay-next").addEventListener("click", () => go(ply + 1));
  $("#replay-last").addEventListener("click", () => go(plies));
  $("#replay-play").addEventListener("click", play);
  $("#replay-ply").addEventListener("input", () => go(Number($("#replay-ply").value)));
  $("#replay-perspective").addEventListener("change", () => go(ply));
  $("#replay-speed").addEventListener("change", () => { if (timer !== null) { stop(); play(); } });
  $("#record-file").addEventListener("change", () => {
    const file = $("#record-file").files[0];
    if (!file) return;
    const reader = new FileReader();
    reader.onload = () => {
      try { load(JSON.parse(reader.result)); } catch (error) { say(`not a record: ${error.message}`); }
    };
    reader.readAsText(file);
  });
  if (matchId) {
    $("#upload").hidden = true;
    api(`/api/matches/${matchId}/record`).then((rec) => {
      if (rec.format !== "boardcore-record") say("this game is not over: its replay opens at the end");
      else load(rec);
    }, (error) => say(error.message));
  }
  return {stop};
}

// -- routes ---------------------------------------------------------------------------

function route() {
  if (page) page.stop();
  const [, kind, arg] = location.hash.replace(/^#/, "").split("/");
  if (kind === "play" && arg) page = table({type: "join", token: arg});
  else if (kind === "watch" && arg) page = table({type: "watch", match: arg});
  else if (kind === "replay") page = replay(arg);
  else page = lobby();
}

window.addEventListener("hashchange", route);
route();
