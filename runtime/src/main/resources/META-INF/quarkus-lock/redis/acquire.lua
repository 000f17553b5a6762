-- Acquires a lock and issues its fencing token, in one atomic step.
-- KEYS[1] the lock key, KEYS[2] the fencing counter of the same lock (same hash tag)
-- ARGV[1] the owner id, ARGV[2] the lease in ms, ARGV[3] how long the fencing counter is kept, in ms
-- Returns the fencing token (> 0) when acquired, else -1 - (the holder's remaining lease in ms).
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  -- The token is at least the server's time in microseconds, so it stays ahead of every earlier token
  -- even after the counter has expired; the counter keeps it increasing within one microsecond and
  -- across a clock that steps back.
  local now = redis.call('TIME')
  local token = tonumber(now[1]) * 1000000 + tonumber(now[2])
  local last = tonumber(redis.call('GET', KEYS[2]))
  if last and last >= token then
    token = last + 1
  end
  redis.call('SET', KEYS[2], string.format('%.0f', token), 'PX', ARGV[3])
  return token
end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  ttl = 0
end
return -1 - ttl
