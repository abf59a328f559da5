//! The store's schema as numbered migrations. `PRAGMA user_version` holds the
//! number of migrations applied; each runs in its own transaction, so a
//! database is always at one version or the next, never in between.

/// Migration N is `MIGRATIONS[N-1]`. Append only: a released migration is
/// never edited, since databases in the field have already run it.
pub const MIGRATIONS: &[&str] = &[
    // 1: campaigns, their states, inbound mail, submissions, resolutions and
    // everything a resolution produced, and the outgoing-mail queue.
    r#"
    CREATE TABLE campaigns (
        id              TEXT PRIMARY KEY,
        title           TEXT NOT NULL,
        ruleset         TEXT NOT NULL,
        source_dir      TEXT NOT NULL,
        campaign_json   TEXT NOT NULL,
        chain_origin    BLOB NOT NULL,
        chain_length    INTEGER NOT NULL,
        commitment      TEXT NOT NULL,
        created_at      TEXT NOT NULL,
        initial_state   TEXT NOT NULL,
        current_state   TEXT NOT NULL,
        phase_opened_at TEXT NOT NULL,
        deadline        TEXT NOT NULL,
        paused          INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE states (
        digest TEXT PRIMARY KEY,
        json   TEXT NOT NULL
    );
    CREATE TABLE inbound_messages (
        id          INTEGER PRIMARY KEY,
        received_at TEXT NOT NULL,
        source      TEXT NOT NULL,
        raw         BLOB NOT NULL,
        status      TEXT NOT NULL DEFAULT 'stored',
        note        TEXT
    );
    CREATE TABLE submissions (
        id             INTEGER PRIMARY KEY,
        campaign_id    TEXT NOT NULL REFERENCES campaigns(id),
        phase_key      TEXT NOT NULL,
        side           TEXT NOT NULL,
        submitted_at   TEXT NOT NULL,
        raw_text       TEXT NOT NULL,
        canonical_text TEXT NOT NULL,
        digest         TEXT NOT NULL,
        status         TEXT NOT NULL CHECK (status IN ('accepted', 'superseded')),
        message_id     INTEGER REFERENCES inbound_messages(id)
    );
    CREATE INDEX submissions_by_phase ON submissions(campaign_id, phase_key, side, status);
    CREATE TABLE resolutions (
        campaign_id        TEXT NOT NULL REFERENCES campaigns(id),
        kind               TEXT NOT NULL CHECK (kind IN ('turn', 'umpire')),
        k                  INTEGER NOT NULL,
        phase_label        TEXT NOT NULL,
        closed_at          TEXT NOT NULL,
        manifest_text      TEXT NOT NULL,
        manifest_digest    TEXT NOT NULL,
        prior_state_digest TEXT NOT NULL REFERENCES states(digest),
        resolved_at        TEXT,
        secret             TEXT,
        seed               TEXT,
        next_state_digest  TEXT REFERENCES states(digest),
        PRIMARY KEY (campaign_id, kind, k)
    );
    CREATE TABLE resolution_orders (
        campaign_id    TEXT NOT NULL,
        kind           TEXT NOT NULL,
        k              INTEGER NOT NULL,
        side           TEXT NOT NULL,
        canonical_text TEXT NOT NULL,
        PRIMARY KEY (campaign_id, kind, k, side),
        FOREIGN KEY (campaign_id, kind, k) REFERENCES resolutions(campaign_id, kind, k)
    );
    CREATE TABLE events (
        campaign_id TEXT NOT NULL,
        kind        TEXT NOT NULL,
        k           INTEGER NOT NULL,
        seq         INTEGER NOT NULL,
        json        TEXT NOT NULL,
        PRIMARY KEY (campaign_id, kind, k, seq)
    );
    CREATE TABLE rolls (
        campaign_id TEXT NOT NULL,
        kind        TEXT NOT NULL,
        k           INTEGER NOT NULL,
        idx         INTEGER NOT NULL,
        json        TEXT NOT NULL,
        PRIMARY KEY (campaign_id, kind, k, idx)
    );
    CREATE TABLE outbox (
        id              INTEGER PRIMARY KEY,
        campaign_id     TEXT REFERENCES campaigns(id),
        created_at      TEXT NOT NULL,
        message_id      TEXT NOT NULL UNIQUE,
        recipient       TEXT NOT NULL,
        subject         TEXT NOT NULL,
        body            TEXT NOT NULL,
        status          TEXT NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sent', 'dead')),
        attempts        INTEGER NOT NULL DEFAULT 0,
        next_attempt_at TEXT NOT NULL,
        last_error      TEXT
    );
    "#,
    // 2: the digest of each inbound message's bytes, so that a message
    // delivered twice (a Maildir re-scan after a crash, an MTA retry) is
    // recognised and not acted on again.
    r#"
    ALTER TABLE inbound_messages ADD COLUMN raw_digest TEXT;
    ALTER TABLE inbound_messages ADD COLUMN outcome TEXT;
    CREATE INDEX inbound_by_digest ON inbound_messages(raw_digest);
    "#,
    // 3: what the outbox needs to send a whole message and to survive a
    // crash mid-send: the HTML alternative, the files (inline images and
    // attachments), the Message-ID a reply answers, when the current attempt
    // began (set before the transport is called, cleared with its result, so
    // a row found with it set was in flight when the process stopped), and
    // when the message went out.
    r#"
    ALTER TABLE outbox ADD COLUMN html TEXT;
    ALTER TABLE outbox ADD COLUMN in_reply_to TEXT;
    ALTER TABLE outbox ADD COLUMN attempt_started_at TEXT;
    ALTER TABLE outbox ADD COLUMN sent_at TEXT;
    CREATE TABLE outbox_parts (
        outbox_id    INTEGER NOT NULL REFERENCES outbox(id),
        seq          INTEGER NOT NULL,
        filename     TEXT NOT NULL,
        content_type TEXT NOT NULL,
        content_id   TEXT,
        bytes        BLOB NOT NULL,
        PRIMARY KEY (outbox_id, seq)
    );
    CREATE INDEX outbox_by_due ON outbox(status, next_attempt_at);
    "#,
    // 4: the game master's commands. `gm_log` holds every command given,
    // done or refused, with where it came from (`origin` is unique for a
    // command taken from a message, so a message handled again after a
    // crash does not act twice). `gm_acts` holds the commands that changed
    // the game state (corrections and rollbacks), numbered per campaign:
    // the archive exports them and `verify` checks them. `paused_since`
    // lets a resume push the deadline on by the time spent paused.
    r#"
    CREATE TABLE gm_log (
        id          INTEGER PRIMARY KEY,
        campaign_id TEXT NOT NULL REFERENCES campaigns(id),
        n           INTEGER NOT NULL,
        at          TEXT NOT NULL,
        source      TEXT NOT NULL,
        origin      TEXT UNIQUE,
        command     TEXT NOT NULL,
        done        INTEGER NOT NULL,
        outcome     TEXT NOT NULL,
        UNIQUE (campaign_id, n)
    );
    CREATE TABLE gm_acts (
        campaign_id TEXT NOT NULL REFERENCES campaigns(id),
        n           INTEGER NOT NULL,
        kind        TEXT NOT NULL CHECK (kind IN ('correction', 'rollback')),
        command     TEXT NOT NULL,
        after_turn  INTEGER NOT NULL,
        undoes_turn INTEGER,
        prior_state TEXT NOT NULL REFERENCES states(digest),
        next_state  TEXT NOT NULL REFERENCES states(digest),
        at          TEXT NOT NULL,
        log_n       INTEGER NOT NULL,
        PRIMARY KEY (campaign_id, n)
    );
    ALTER TABLE campaigns ADD COLUMN paused_since TEXT;
    "#,
    // 5: what tells two deliveries of one message apart from two messages:
    // `message_key` (see `mail::Inbound::key`: the sender and Message-ID, or
    // the sender and content) and the sender, so that a repeated delivery
    // is recognised though its bytes differ, and refusals can be counted by
    // sender. `no_orders` records a side that said it sends none for a
    // phase: the phase can then close early without waiting for it.
    r#"
    ALTER TABLE inbound_messages ADD COLUMN message_key TEXT;
    ALTER TABLE inbound_messages ADD COLUMN sender TEXT;
    CREATE INDEX inbound_by_key ON inbound_messages(message_key);
    CREATE INDEX inbound_by_sender ON inbound_messages(sender, received_at);
    CREATE TABLE no_orders (
        campaign_id TEXT NOT NULL REFERENCES campaigns(id),
        phase_key   TEXT NOT NULL,
        side        TEXT NOT NULL,
        declared_at TEXT NOT NULL,
        message_id  INTEGER REFERENCES inbound_messages(id),
        PRIMARY KEY (campaign_id, phase_key, side)
    );
    "#,
    // 6: spec adjutant-audit-v3. `umpire_origin` is the umpire calls' own
    // chain origin (NULL: a campaign of spec v1 or v2, whose umpire chain is
    // derived from `chain_origin`). `ledger` is the hash-linked record: one
    // row per resolution or game master's act, in the order recorded, with
    // its link text and digest, and for an act the bytes of its act.json.
    // `closed_in` names the resolution whose phase a submission was made
    // for, so that its `submissions.txt` lists it once; `via` is `gm` for
    // orders the operator entered (NULL: the player's own mail). `beacon_round` and
    // `beacon_signature` hold the beacon round a turn's seed takes (the
    // signature `waived` when the GM resolved without it), `beacon_tried_at`
    // when its round was last asked for and not had.
    r#"
    ALTER TABLE campaigns ADD COLUMN umpire_origin BLOB;
    ALTER TABLE submissions ADD COLUMN closed_in TEXT;
    ALTER TABLE submissions ADD COLUMN via TEXT;
    ALTER TABLE resolutions ADD COLUMN beacon_round INTEGER;
    ALTER TABLE resolutions ADD COLUMN beacon_signature TEXT;
    ALTER TABLE resolutions ADD COLUMN beacon_tried_at TEXT;
    CREATE TABLE ledger (
        campaign_id TEXT NOT NULL REFERENCES campaigns(id),
        entry       INTEGER NOT NULL,
        folder      TEXT NOT NULL,
        link_text   TEXT NOT NULL,
        digest      TEXT NOT NULL,
        act_json    TEXT,
        act_prior   TEXT REFERENCES states(digest),
        act_next    TEXT REFERENCES states(digest),
        PRIMARY KEY (campaign_id, entry),
        UNIQUE (campaign_id, folder)
    );
    "#,
    // 7: whether each side is ready for the phase to close before its
    // deadline, as it last said: a message whose every line was accepted
    // says so, one with a refused line does not, and the words `ready` and
    // `wait` say it outright. Keyed by the state the word was said against,
    // so that a GM's act that changes the state (and sends every side's
    // orders back) leaves no side ready. Sides in when this came are ready,
    // as they were counted before it. `inbound_messages.campaign_id` names
    // the campaign a handled message was for, so that the GM's status can
    // list the refusals of the phase.
    r#"
    ALTER TABLE inbound_messages ADD COLUMN campaign_id TEXT;
    CREATE INDEX inbound_by_campaign ON inbound_messages(campaign_id, status, received_at);
    CREATE TABLE readiness (
        campaign_id TEXT NOT NULL REFERENCES campaigns(id),
        state       TEXT NOT NULL,
        phase_key   TEXT NOT NULL,
        side        TEXT NOT NULL,
        ready       INTEGER NOT NULL,
        said_at     TEXT NOT NULL,
        message_id  INTEGER REFERENCES inbound_messages(id),
        PRIMARY KEY (campaign_id, state, phase_key, side)
    );
    INSERT OR REPLACE INTO readiness (campaign_id, state, phase_key, side, ready, said_at, message_id)
        SELECT n.campaign_id, c.current_state, n.phase_key, n.side, 1, n.declared_at, n.message_id
        FROM no_orders n JOIN campaigns c ON c.id = n.campaign_id;
    INSERT OR REPLACE INTO readiness (campaign_id, state, phase_key, side, ready, said_at, message_id)
        SELECT s.campaign_id, c.current_state, s.phase_key, s.side, 1, s.submitted_at, s.message_id
        FROM submissions s JOIN campaigns c ON c.id = s.campaign_id
        WHERE s.status = 'accepted' AND s.closed_in IS NULL;
    "#,
];
