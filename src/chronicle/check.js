// The dice check of an adjutant chronicle, run by the reader's own browser.
//
// For every resolution listed in `dice-data.js` it re-derives, from nothing
// but the data the page shows, what docs/AUDIT.md says an auditor checks:
// the revealed secret hashes to the one before it in its chain (the first to
// the published commitment), the manifest hashes to its digest, each orders
// text shown hashes to its line of the manifest, the seed is SHA-256 of the
// fixed-length fields of section 4, and every die shown is the ChaCha20
// stream of that seed read as section 5 says. SHA-256 is the browser's own
// (Web Crypto); ChaCha20 and the dice are written out below.
//
// The dice page checks every resolution. A resolution's own page (the one
// with `[data-resolution]`) checks its own, then writes its dice from the
// checked entry and says whether the page as written agrees with it: its
// dice, secret and seed, and the words it tells beside them. A page cannot
// read another from the disk, so a page changed on its own is caught there.
(function () {
  "use strict";

  var TWO_32 = 4294967296;

  function hex(bytes) {
    var out = "";
    for (var i = 0; i < bytes.length; i++) out += (bytes[i] < 16 ? "0" : "") + bytes[i].toString(16);
    return out;
  }

  function unhex(text, length, what) {
    if (typeof text !== "string" || !/^[0-9a-f]*$/.test(text) || text.length !== 2 * length) {
      throw new Error(what + " is not " + length + " bytes of hex");
    }
    var bytes = new Uint8Array(length);
    for (var i = 0; i < length; i++) bytes[i] = parseInt(text.substr(2 * i, 2), 16);
    return bytes;
  }

  function utf8(text) {
    return new TextEncoder().encode(text);
  }

  function sha256(bytes) {
    return crypto.subtle.digest("SHA-256", bytes).then(function (d) {
      return new Uint8Array(d);
    });
  }

  // k as an unsigned 64-bit big-endian number.
  function u64be(k) {
    var bytes = new Uint8Array(8);
    var high = Math.floor(k / TWO_32);
    var low = k % TWO_32;
    for (var i = 0; i < 4; i++) {
      bytes[3 - i] = (high >>> (8 * i)) & 255;
      bytes[7 - i] = (low >>> (8 * i)) & 255;
    }
    return bytes;
  }

  // The seed of docs/AUDIT.md section 4: SHA-256 over exactly these
  // fixed-length fields, in this order. Every field is given as bytes, so
  // that a spec version that derives a field otherwise (the beacon field
  // from a public randomness round, say) changes what is passed in, and
  // nothing here.
  function seedOf(tag, campaignDigest, k, secret, manifestDigest, priorStateDigest, beaconField) {
    var fields = [
      ["tag", tag, 16],
      ["SHA-256(campaign id)", campaignDigest, 32],
      ["k", k, 8],
      ["secret", secret, 32],
      ["manifest digest", manifestDigest, 32],
      ["prior state digest", priorStateDigest, 32],
      ["beacon field", beaconField, 32],
    ];
    var preimage = new Uint8Array(184);
    var at = 0;
    fields.forEach(function (f) {
      if (f[1].length !== f[2]) throw new Error("the " + f[0] + " is not " + f[2] + " bytes");
      preimage.set(f[1], at);
      at += f[2];
    });
    return sha256(preimage);
  }

  // ChaCha20 (RFC 8439's block function, 20 rounds), keyed with the seed,
  // nonce and block counter starting at zero; the keystream read as
  // little-endian 32-bit words, numbered from 0.
  function rotl(v, n) {
    return (v << n) | (v >>> (32 - n));
  }

  function quarter(x, a, b, c, d) {
    x[a] += x[b]; x[d] = rotl(x[d] ^ x[a], 16);
    x[c] += x[d]; x[b] = rotl(x[b] ^ x[c], 12);
    x[a] += x[b]; x[d] = rotl(x[d] ^ x[a], 8);
    x[c] += x[d]; x[b] = rotl(x[b] ^ x[c], 7);
  }

  function block(key, counter) {
    var state = new Uint32Array(16);
    state[0] = 0x61707865; state[1] = 0x3320646e; state[2] = 0x79622d32; state[3] = 0x6b206574;
    state.set(key, 4);
    state[12] = counter;
    var x = new Uint32Array(state);
    for (var round = 0; round < 10; round++) {
      quarter(x, 0, 4, 8, 12); quarter(x, 1, 5, 9, 13); quarter(x, 2, 6, 10, 14); quarter(x, 3, 7, 11, 15);
      quarter(x, 0, 5, 10, 15); quarter(x, 1, 6, 11, 12); quarter(x, 2, 7, 8, 13); quarter(x, 3, 4, 9, 14);
    }
    for (var i = 0; i < 16; i++) x[i] += state[i];
    return x;
  }

  function Stream(seed) {
    this.key = new Uint32Array(8);
    for (var i = 0; i < 8; i++) {
      this.key[i] = seed[4 * i] | (seed[4 * i + 1] << 8) | (seed[4 * i + 2] << 16) | (seed[4 * i + 3] << 24);
    }
    this.blocks = [];
  }

  Stream.prototype.word = function (n) {
    var b = Math.floor(n / 16);
    while (this.blocks.length <= b) this.blocks.push(block(this.key, this.blocks.length));
    return this.blocks[b][n % 16];
  };

  // below(n) of section 5, from word `at.word` on: rejection sampling.
  function below(stream, at, n) {
    var zone = TWO_32 - (TWO_32 % n);
    for (var tries = 0; tries < 64; tries++) {
      var x = stream.word(at.word++);
      if (x < zone) return x % n;
    }
    throw new Error("64 words rejected in a row");
  }

  // Each die: the faces of one die, how many are thrown, the lowest face.
  var DICE = {
    d6: { sides: 6, count: 1, low: 1 },
    d10: { sides: 10, count: 1, low: 0 },
    d100: { sides: 100, count: 1, low: 1 },
    "2d6": { sides: 6, count: 2, low: 1 },
  };

  function same(a, b) {
    return a.length === b.length && a.every(function (v, i) { return v === b[i]; });
  }

  // Re-derives one roll from the stream; returns why it differs, or null.
  function checkRoll(stream, roll) {
    var die = DICE[roll.die];
    if (!die) return "roll " + roll.index + " is of an unknown die " + roll.die;
    if (roll.sides !== die.sides) return "roll " + roll.index + " says a " + roll.die + " has " + roll.sides + " faces";
    var at = { word: roll.first_word };
    var faces = [];
    for (var i = 0; i < die.count; i++) faces.push(below(stream, at, die.sides) + die.low);
    var value = faces.reduce(function (a, b) { return a + b; }, 0);
    if (at.word - roll.first_word !== roll.words) return "roll " + roll.index + " used " + (at.word - roll.first_word) + " words, not " + roll.words;
    if (!same(faces, roll.faces) || value !== roll.value) {
      return "roll " + roll.index + " (" + roll.purpose + ") is " + faces.join("+") + ", not " + roll.faces.join("+");
    }
    return null;
  }

  function manifestLine(manifest, side) {
    var prefix = "orders " + side + " ";
    var line = manifest.split("\n").filter(function (l) { return l.indexOf(prefix) === 0; })[0];
    return line === undefined ? null : line.substr(prefix.length);
  }

  // Checks one resolution against the secret before it in its chain.
  // Resolves to null when every check passes, else to the first failure.
  async function checkOne(data, r, previous) {
    var secret = unhex(r.secret, 32, "the secret");
    if (hex(await sha256(secret)) !== previous) return "its secret does not hash to the one before it in the chain";
    var lines = r.manifest.split("\n");
    var word = r.kind === "turn" ? "resolution " : "call ";
    if (lines[0] !== "adjutant-manifest-v1" || lines[1] !== "campaign " + data.campaign || lines[2] !== word + r.k) {
      return "its manifest is not that of " + word + r.k + " of " + data.campaign;
    }
    if (hex(await sha256(utf8(r.manifest))) !== r.manifest_digest) return "its manifest does not hash to its digest";
    for (var side of Object.keys(r.orders)) {
      if (hex(await sha256(utf8(r.orders[side]))) !== manifestLine(r.manifest, side)) {
        return "the orders of " + side + " do not hash to their line of the manifest";
      }
    }
    var seed = await seedOf(
      utf8(r.tag),
      await sha256(utf8(data.campaign)),
      u64be(r.k),
      secret,
      unhex(r.manifest_digest, 32, "the manifest digest"),
      unhex(r.prior_state_digest, 32, "the prior state digest"),
      unhex(r.beacon_field, 32, "the beacon field")
    );
    if (hex(seed) !== r.seed) return "its seed is not the one its inputs make";
    var stream = new Stream(seed);
    var next = 0;
    for (var roll of r.rolls) {
      // With nothing withheld, each roll starts where the last ended: a roll
      // made and not logged would leave a gap.
      if (r.withheld === 0 ? roll.first_word !== next : roll.first_word < next) {
        return "roll " + roll.index + " starts at word " + roll.first_word + ", not " + next;
      }
      var why = checkRoll(stream, roll);
      if (why) return why;
      next = roll.first_word + roll.words;
    }
    return null;
  }

  function mark(slug, ok, text) {
    document.querySelectorAll('[data-dice="' + slug + '"]').forEach(function (cell) {
      cell.textContent = text;
      cell.className = ok ? "checked" : "not-checked";
    });
  }

  async function checkAll(data) {
    var previous = { turn: data.commitments.turn, umpire: data.commitments.umpire };
    var failed = 0;
    var dice = 0;
    for (var r of data.resolutions) {
      var why;
      try {
        why = await checkOne(data, r, previous[r.kind]);
      } catch (e) {
        why = e.message;
      }
      previous[r.kind] = r.secret;
      if (why) failed++;
      dice += r.rolls.length;
      mark(r.slug, !why, why ? "not checked: " + why : "checked");
    }
    return { resolutions: data.resolutions.length, failed: failed, dice: dice };
  }

  // The secret a resolution's must hash to: the one revealed before it in
  // its chain, or the chain's commitment for the first.
  function chainBefore(data, at) {
    var r = data.resolutions[at];
    for (var i = at - 1; i >= 0; i--) {
      if (data.resolutions[i].kind === r.kind) return data.resolutions[i].secret;
    }
    return data.commitments[r.kind];
  }

  // A roll as the page writes it: its number, the die and value (and the
  // faces of more than one), what it was for.
  function rollCells(roll) {
    var faces = roll.faces.length > 1 ? " (" + roll.faces.join("+") + ")" : "";
    return [String(roll.index), roll.die + " = " + roll.value + faces, roll.purpose];
  }

  function cellsOf(row) {
    return Array.from(row.cells).map(function (c) { return c.textContent; });
  }

  // Where the page as written differs from the checked entry: the reason,
  // or null when it shows the same dice, secret, seed and words.
  function pageDiffers(section, r) {
    var rows = Array.from(section.querySelectorAll("tr[data-roll]"));
    if (rows.length !== r.rolls.length) {
      return "this page lists " + rows.length + " dice; the checked data has " + r.rolls.length;
    }
    for (var i = 0; i < rows.length; i++) {
      var want = rollCells(r.rolls[i]);
      var have = cellsOf(rows[i]);
      if (have[1] !== want[1]) {
        return "this page showed roll " + want[0] + " as " + have[1] + "; the checked dice say " + want[1];
      }
      if (!same(have, want)) return "this page showed roll " + want[0] + " otherwise than the checked data";
    }
    for (var field of ["secret", "seed"]) {
      var shown = section.querySelector('[data-field="' + field + '"]');
      if (!shown || shown.textContent !== r[field]) return "the " + field + " on this page is not the checked one";
    }
    var told = Array.from(document.querySelectorAll("[data-told]"));
    var words = told.map(function (e) { return e.textContent; });
    if (!same(words, r.told)) {
      var off = told.find(function (e, i) { return e.textContent !== r.told[i]; });
      var which = off ? off.getAttribute("data-told") : "text";
      return "the " + which + " on this page is not the one written with these dice";
    }
    return null;
  }

  // Writes the page's dice from the checked entry, so that what the reader
  // sees is what was checked, whatever the page said.
  function showRolls(section, r) {
    var rows = Array.from(section.querySelectorAll("tr[data-roll], tr[data-no-roll]"));
    var table = rows.length ? rows[0].parentNode : section.querySelector("table");
    if (!table) return;
    rows.forEach(function (row) { row.remove(); });
    r.rolls.forEach(function (roll) {
      var row = document.createElement("tr");
      row.setAttribute("data-roll", String(roll.index));
      rollCells(roll).forEach(function (text) {
        row.insertCell().textContent = text;
      });
      table.appendChild(row);
    });
    if (r.rolls.length === 0) {
      var none = table.appendChild(document.createElement("tr"));
      none.setAttribute("data-no-roll", "");
      var cell = none.insertCell();
      cell.colSpan = 3;
      cell.textContent = "No dice shown.";
    }
  }

  async function checkPage(data, section) {
    var slug = section.getAttribute("data-resolution");
    var at = data.resolutions.findIndex(function (r) { return r.slug === slug; });
    if (at < 0) {
      say("not-checked", "Not checked: the dice data has no entry for this page.");
      return { resolutions: 1, failed: 1, dice: 0 };
    }
    var r = data.resolutions[at];
    var why;
    try {
      why = (await checkOne(data, r, chainBefore(data, at))) || pageDiffers(section, r);
    } catch (e) {
      why = e.message;
    }
    showRolls(section, r);
    if (why) {
      say("not-checked", "Not checked: " + why + ".");
    } else {
      var dice = r.rolls.length === 1 ? "the die below" : "the " + r.rolls.length + " dice below";
      say("checked", r.rolls.length
        ? "Checked: " + dice + ", re-derived in your browser from the revealed secret; this page agrees with the checked data."
        : "Checked: the revealed secret and the seed below; no dice are shown.");
    }
    return { resolutions: 1, failed: why ? 1 : 0, dice: r.rolls.length };
  }

  function say(verdict, text) {
    var out = document.getElementById("verdict");
    if (out) {
      out.textContent = text;
      out.className = verdict;
    }
    document.body.setAttribute("data-dice-verdict", verdict);
  }

  function start() {
    var data = window.ADJUTANT_DICE;
    if (!data) {
      say("not-checked", "Not checked: the dice data (dice-data.js) did not load.");
      return Promise.resolve(null);
    }
    if (!window.crypto || !crypto.subtle) {
      say("not-checked", "Not checked: this browser offers no Web Crypto here.");
      return Promise.resolve(null);
    }
    var page = document.querySelector("[data-resolution]");
    if (page) return checkPage(data, page);
    var began = performance.now();
    return checkAll(data).then(function (result) {
      var ms = Math.round(performance.now() - began);
      if (result.failed === 0) {
        say("checked", "All " + result.resolutions + " resolutions checked: " + result.dice + " dice re-derived in " + ms + " ms.");
      } else {
        say("not-checked", result.failed + " of " + result.resolutions + " resolutions not checked (see below).");
      }
      return result;
    });
  }

  // The check runs once the page is there; `adjutantDice` is its promise,
  // for anyone who wants to wait for it.
  window.adjutantDice = new Promise(function (resolve) {
    function go() {
      start().then(resolve, function (e) {
        say("not-checked", "Not checked: " + e.message);
        resolve(null);
      });
    }
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", go);
    else go();
  });
})();
