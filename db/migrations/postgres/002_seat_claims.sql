-- A process that takes an expired turn timer marks the seat until this time, so no other
-- process takes it meanwhile; if that process dies, the timer is due again afterwards.
ALTER TABLE seats ADD COLUMN claimed_until DOUBLE PRECISION;
