-- Acquires a lock and issues its fencing token, in one atomic step, serving waiters in the order they came.
-- KEYS[1] the lock, KEYS[2] its fencing counter, KEYS[3] its line, KEYS[4] its waiters' places (one hash tag)
-- ARGV[1] the owner id, ARGV[2] the lease in ms (0: until released), ARGV[3] how long the fencing counter is
-- kept, in ms, ARGV[4] '1' if the caller waits in line, '0' for one try, ARGV[5] how long a waiter keeps its place
-- between two attempts, in ms
-- Returns the fencing token (> 0) when acquired, else -1 - (the holder's remaining lease in ms: 0 if the lock is
-- free but promised to an earlier waiter, 2^31 - 1 if it is held until released).
local now = now_micros()
local holder = redis.call('GET', KEYS[1])
if holder == ARGV[1] and ARGV[4] == '1' then
  -- A release handed the lock to this waiter; its token is the last one issued.
  local token = tonumber(redis.call('GET', KEYS[2]))
  if token then
    return token
  end
end
if not holder then
  local head = first_in_line(KEYS[3], KEYS[4], math.floor(now / 1000))
  if not head or head == ARGV[1] then
    local token = grant(KEYS[1], KEYS[2], ARGV[1], ARGV[2], ARGV[3], now)
    if head then
      redis.call('ZREM', KEYS[3], ARGV[1])
      redis.call('HDEL', KEYS[4], ARGV[1])
    end
    return token
  end
end
if ARGV[4] == '1' then
  if not redis.call('ZSCORE', KEYS[3], ARGV[1]) then
    redis.call('ZADD', KEYS[3], now, ARGV[1])
  end
  redis.call('HSET', KEYS[4], ARGV[1], string.format('%.0f', math.floor(now / 1000) + ARGV[5]) .. ':' .. ARGV[2])
  -- A line whose waiters all vanished disappears by itself.
  redis.call('PEXPIRE', KEYS[3], ARGV[5] * 2)
  redis.call('PEXPIRE', KEYS[4], ARGV[5] * 2)
end
local ttl = redis.call('PTTL', KEYS[1])
if ttl == -1 then
  -- held until released: tell waiters the lease is as long as can be, so they poll at their slowest pace
  ttl = 2147483647
elseif ttl < 0 then
  ttl = 0
end
return -1 - ttl
