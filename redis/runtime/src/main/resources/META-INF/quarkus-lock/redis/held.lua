-- Reads what the store knows of one lock, for a listing, in one atomic step.
-- KEYS[1] the lock, KEYS[2] its fencing counter, KEYS[3] its line (one hash tag)
-- Returns false when the lock is free, else {the holder's owner id, the lease left in ms (-1: until released), the
-- holder's fencing token (the last one issued for the lock), how many waiters the line keeps}.
local owner = redis.call('GET', KEYS[1])
if not owner then
  return false
end
return {owner, redis.call('PTTL', KEYS[1]), tonumber(redis.call('GET', KEYS[2])) or 0, redis.call('ZCARD', KEYS[3])}
