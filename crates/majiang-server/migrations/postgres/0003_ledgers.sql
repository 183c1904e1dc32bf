-- The table companion's ledgers: one JSON document per ledger (players, rule set, house rules,
-- the recorded hands), written whole and read whole; companion::ledger owns its shape.
CREATE TABLE ledgers (
    id TEXT PRIMARY KEY,
    doc TEXT NOT NULL
);
