-- The rules revision a room was created under (majiang::table::log::RULES_REVISION): what the
-- replay of its match holds its stored actions to. Rooms stored before this migration keep
-- NULL: unknown (revision 1 or 2).
ALTER TABLE rooms ADD COLUMN rules_revision INTEGER;
