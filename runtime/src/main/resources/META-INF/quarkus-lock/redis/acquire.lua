-- Acquires a lock and issues its fencing token, in one atomic step, serving waiters in the order they came.
-- KEYS[1] the lock, KEYS[2] its fencing counter, KEYS[3] its line of waiters (sorted set: owner by arrival),
-- KEYS[4] how long each waiter keeps its place (hash: owner -> deadline in ms); all four share one hash tag.
-- ARGV[1] the owner id, ARGV[2] the lease in ms, ARGV[3] how long the fencing counter is kept, in ms,
-- ARGV[4] '1' if the caller waits in line, '0' for one try, ARGV[5] how long a waiter keeps its place between two
-- attempts, in ms.
-- Returns the fencing token (> 0) when acquired, else -1 - (the holder's remaining lease in ms, 0 if free but
-- promised to an earlier waiter).
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
local nowMillis = math.floor(now / 1000)
-- Waiters that stopped asking (they gave up, or their instance died) lose their place.
local head = redis.call('ZRANGE', KEYS[3], 0, 0)[1]
while head do
  local deadline = tonumber(redis.call('HGET', KEYS[4], head))
  if deadline and deadline > nowMillis then
    break
  end
  redis.call('ZREM', KEYS[3], head)
  redis.call('HDEL', KEYS[4], head)
  head = redis.call('ZRANGE', KEYS[3], 0, 0)[1]
end
if (not head or head == ARGV[1]) and redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  if head then
    redis.call('ZREM', KEYS[3], ARGV[1])
    redis.call('HDEL', KEYS[4], ARGV[1])
  end
  -- The token is at least the server's time in microseconds, so it stays ahead of every earlier token
  -- even after the counter has expired; the counter keeps it increasing within one microsecond and
  -- across a clock that steps back.
  local token = now
  local last = tonumber(redis.call('GET', KEYS[2]))
  if last and last >= token then
    token = last + 1
  end
  redis.call('SET', KEYS[2], string.format('%.0f', token), 'PX', ARGV[3])
  return token
end
if ARGV[4] == '1' then
  if not redis.call('ZSCORE', KEYS[3], ARGV[1]) then
    redis.call('ZADD', KEYS[3], now, ARGV[1])
  end
  redis.call('HSET', KEYS[4], ARGV[1], nowMillis + tonumber(ARGV[5]))
  -- A line whose waiters all vanished disappears by itself.
  redis.call('PEXPIRE', KEYS[3], ARGV[5] * 2)
  redis.call('PEXPIRE', KEYS[4], ARGV[5] * 2)
end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  ttl = 0
end
return -1 - ttl
