-- Takes a waiter that gave up out of the line of a lock. If a release handed it the lock in the meantime, it
-- releases the lock again (handing it to the next waiter), so a gone waiter never blocks the others; if the lock is
-- free while others wait (it may have been promised to this waiter), it announces a release to wake them.
-- KEYS[1] the lock, KEYS[2] its fencing counter, KEYS[3] its line, KEYS[4] its waiters' places (one hash tag)
-- ARGV[1] the owner id, ARGV[2] the release channel ('' for none), ARGV[3] the lock's name, ARGV[4] how long the
-- fencing counter is kept, in ms
-- Returns 1 when the waiter had been handed the lock, 0 otherwise.
redis.call('ZREM', KEYS[3], ARGV[1])
redis.call('HDEL', KEYS[4], ARGV[1])
local holder = redis.call('GET', KEYS[1])
if holder == ARGV[1] then
  release_and_hand_over(KEYS[1], KEYS[2], KEYS[3], KEYS[4], ARGV[2], ARGV[3], ARGV[4])
  return 1
end
if not holder and redis.call('EXISTS', KEYS[3]) == 1 then
  -- the free lock may have been promised to this waiter: the next in line need not wait for its place to lapse
  announce(ARGV[2], 'R ' .. ARGV[3])
end
return 0
