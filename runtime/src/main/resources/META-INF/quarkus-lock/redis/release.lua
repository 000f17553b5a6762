-- Deletes a lock only if the given owner holds it: compare and delete in one atomic step.
-- KEYS[1] the lock key; ARGV[1] the owner id
-- Returns 1 when released, 0 when the owner did not hold it (another owner, or the lease ran out).
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
  return 1
end
return 0
