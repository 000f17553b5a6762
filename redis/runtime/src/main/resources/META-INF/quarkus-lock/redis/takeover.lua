-- Gives a lock to the given owner whoever holds it, ahead of any line (an overriding acquisition), with a new
-- fencing token.
-- KEYS[1] the lock, KEYS[2] its fencing counter (one hash tag)
-- ARGV[1] the owner id, ARGV[2] the lease in ms (0: until released), ARGV[3] how long the fencing counter is kept
-- Returns the fencing token.
return grant(KEYS[1], KEYS[2], ARGV[1], ARGV[2], ARGV[3], now_micros())
