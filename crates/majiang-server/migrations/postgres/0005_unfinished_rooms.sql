-- The lease round reads only unfinished rooms (orphans to take over, other nodes' rooms for the
-- lobby), a bounded page at a time: an index over just those rooms, in the order it reads them.
CREATE INDEX rooms_unfinished ON rooms (created, id) WHERE status <> 'finished';
