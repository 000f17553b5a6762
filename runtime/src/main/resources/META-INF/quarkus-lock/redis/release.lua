-- Deletes a lock only if the given owner holds it: compare and delete in one atomic step, then announces the
-- release so that waiters of every instance wake at once.
-- KEYS[1] the lock key; ARGV[1] the owner id, ARGV[2] the release channel ('' for none), ARGV[3] the lock's name
-- Returns 1 when released, 0 when the owner did not hold it (another owner, or the lease ran out).
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
  if ARGV[2] ~= '' then
    redis.call('PUBLISH', ARGV[2], ARGV[3])
  end
  return 1
end
return 0
