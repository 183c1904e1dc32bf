-- Fencing tokens: every acquisition of a lease takes the next number of one sequence, so a
-- room's epochs only grow (even across a release, which deletes the row). An action is written
-- only while its writer holds the room's lease with the epoch it was given.
CREATE SEQUENCE lease_epochs;
ALTER TABLE leases ADD COLUMN epoch BIGINT NOT NULL DEFAULT 0;
