-- Releases a lock only if the given owner holds it (compare and delete in one atomic step), and hands it straight
-- to the first waiter in line, announcing the release so that waiters of every instance hear of it at once.
-- KEYS[1] the lock, KEYS[2] its fencing counter, KEYS[3] its line, KEYS[4] its waiters' places (one hash tag)
-- ARGV[1] the owner id, ARGV[2] the release channel ('' for none), ARGV[3] the lock's name, ARGV[4] how long the
-- fencing counter is kept, in ms
-- Returns 1 when released, 0 when the owner did not hold it (another owner, or the lease ran out).
if redis.call('GET', KEYS[1]) == ARGV[1] then
  release_and_hand_over(KEYS[1], KEYS[2], KEYS[3], KEYS[4], ARGV[2], ARGV[3], ARGV[4])
  return 1
end
return 0
