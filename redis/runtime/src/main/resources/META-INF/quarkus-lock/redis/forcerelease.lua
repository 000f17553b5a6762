-- Releases a lock whoever holds it, handing it to the first waiter in line as a release by its holder would.
-- KEYS[1] the lock, KEYS[2] its fencing counter, KEYS[3] its line, KEYS[4] its waiters' places (one hash tag)
-- ARGV[1] the release channel ('' for none), ARGV[2] the lock's name, ARGV[3] how long the fencing counter is kept
-- Returns 1 when released, 0 when nobody held it.
if redis.call('EXISTS', KEYS[1]) == 1 then
  release_and_hand_over(KEYS[1], KEYS[2], KEYS[3], KEYS[4], ARGV[1], ARGV[2], ARGV[3])
  return 1
end
return 0
