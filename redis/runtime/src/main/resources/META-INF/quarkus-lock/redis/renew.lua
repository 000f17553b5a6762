-- Sets a new lease on a lock only if the given owner holds it.
-- KEYS[1] the lock key; ARGV[1] the owner id, ARGV[2] the new lease in ms (0: until released)
-- Returns 1 when renewed, 0 when the owner no longer holds it.
if redis.call('GET', KEYS[1]) == ARGV[1] then
  if tonumber(ARGV[2]) > 0 then
    redis.call('PEXPIRE', KEYS[1], ARGV[2])
  else
    redis.call('PERSIST', KEYS[1])
  end
  return 1
end
return 0
