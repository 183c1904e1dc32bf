-- The processes of a cluster, by node name: the process holding a name (its `instance`, an id
-- drawn at start), the public URL clients are sent to for its rooms, and until when its claim
-- runs (milliseconds since the Unix epoch, by the database's clock; renewed with its leases).
-- A second process claiming a live name is refused at start.
CREATE TABLE nodes (
    name TEXT PRIMARY KEY,
    instance TEXT NOT NULL,
    url TEXT NOT NULL,
    expires BIGINT NOT NULL
);
