-- A store written by the companion's store format 3 (main at 1e476fc, before the roster),
-- dumped with sqlite3's iterdump: load it with executescript.
PRAGMA user_version = 3;
BEGIN TRANSACTION;
CREATE TABLE games (
    id        INTEGER PRIMARY KEY,
    game      TEXT NOT NULL,
    players   TEXT NOT NULL,          -- JSON list of names, in seat order
    started   REAL NOT NULL,          -- seconds since the epoch
    finished  REAL,                   -- NULL while the game is unfinished
    result    TEXT,                   -- JSON outcome once finished
    config    TEXT NOT NULL DEFAULT '{}'
);
INSERT INTO "games" VALUES(1,'sugarrr','["Ana", "Ben"]',1700000000.0,1700002000.0,'{"game": "sugarrr", "players": [{"name": "Ana", "score": 30, "breakdown": {}}, {"name": "Ben", "score": 25, "breakdown": {}}], "winners": ["Ana"], "tie_break": null, "reason": "deck-out"}','{}');
INSERT INTO "games" VALUES(2,'sweet-deals','["Ben", "Cy", "Ana"]',1700100000.0,1700100500.0,'{"abandoned": true}','{}');
INSERT INTO "games" VALUES(3,'sugarrr','["Mia", "Dad", "Mum", "Leo"]',1700200000.0,1700202000.0,'{"game": "sugarrr", "players": [{"name": "Mia", "score": 41, "breakdown": {}}, {"name": "Dad", "score": 55, "breakdown": {}}, {"name": "Mum", "score": 41, "breakdown": {}}, {"name": "Leo", "score": 12, "breakdown": {}}], "winners": ["Dad"], "tie_break": null, "reason": "deck-out"}','{}');
INSERT INTO "games" VALUES(4,'sugar-heist','["Mia", "Dad"]',1700300000.0,NULL,NULL,'{}');
CREATE TABLE inputs (
    game_id   INTEGER NOT NULL REFERENCES games(id),
    seq       INTEGER NOT NULL,       -- 1, 2, 3 ... within a game
    t         REAL NOT NULL,
    payload   TEXT NOT NULL,          -- JSON of the input (companion.core.events)
    PRIMARY KEY (game_id, seq)
);
INSERT INTO "inputs" VALUES(1,1,1700000001.0,'{"type":"Touch","command":"done","t":1700000001.0}');
CREATE TABLE outbox (
    id        INTEGER PRIMARY KEY,    -- the order messages go out in
    stream    TEXT NOT NULL,          -- this store's message stream (a UUID: one per store)
    seq       INTEGER NOT NULL,       -- the newest event's number when written (1, 2, 3 ...)
    topic     TEXT NOT NULL,
    payload   BLOB NOT NULL,
    qos       INTEGER NOT NULL,
    retain    INTEGER NOT NULL,
    sent      INTEGER NOT NULL DEFAULT 0  -- 1 once the broker acknowledged it
);
COMMIT;
