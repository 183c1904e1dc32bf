-- Rooms and their match logs: the same tables as the SQLite engine's.
CREATE TABLE rooms (
    id TEXT PRIMARY KEY,
    created BIGINT NOT NULL,
    config TEXT NOT NULL,
    tokens TEXT NOT NULL,
    seed BIGINT NOT NULL,
    status TEXT NOT NULL,
    finished BIGINT
);

CREATE TABLE actions (
    room TEXT NOT NULL REFERENCES rooms(id),
    seq BIGINT NOT NULL,
    player SMALLINT NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (room, seq)
);
