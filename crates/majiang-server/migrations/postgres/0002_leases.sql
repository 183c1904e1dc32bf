-- Which server process runs a room, until when (milliseconds since the Unix epoch, by the
-- database's clock).
CREATE TABLE leases (
    room TEXT PRIMARY KEY REFERENCES rooms(id),
    owner TEXT NOT NULL,
    expires BIGINT NOT NULL
);
CREATE INDEX leases_owner ON leases (owner);
