-- Acquires a lock and issues its fencing token, in one atomic step, serving waiters in the order they came.
-- KEYS[1] the lock, KEYS[2] its fencing counter, KEYS[3] its line, KEYS[4] its waiters' places (one hash tag)
-- ARGV[1] the owner id, ARGV[2] the lease in ms (0: until released), ARGV[3] how long the fencing counter is
-- kept, in ms, ARGV[4] '1' if the caller waits in line, '0' for one try, ARGV[5] how long a waiter keeps its place
-- between two attempts, in ms, ARGV[6] the channel the caller's instance hears its hand-over on ('' or absent for
-- none: the release channel then carries it)
-- Owner ids belong to one acquisition, so a lock held by ARGV[1] was granted to this very acquisition.
-- Returns the fencing token (> 0) when acquired, else {how long until the lock may be free for this caller, in ms (the
-- holder's remaining lease, 2^31 - 1 if it is held until released, or, if it is free but promised to an earlier
-- waiter, how long that waiter's place still runs), a value at least every fencing token issued for the lock so far}.
-- The second value tells the waiter whether a hand-over message it hears later was sent before this refusal: a token
-- above it was issued after. It is the fencing counter, or the server's time once the counter has expired, since
-- tokens are at least the server's time when they were issued.
local now = now_micros()

local function refused(remaining)
  local issued = tonumber(redis.call('GET', KEYS[2])) or 0
  return {remaining, math.max(issued, now)}
end

local holder = redis.call('GET', KEYS[1])
if holder == ARGV[1] and ARGV[4] == '1' then
  -- A release handed the lock to this waiter; its token is the last one issued. Touching the counter makes this
  -- reply a write, so a WAIT after it also covers the hand-over that another client wrote.
  local token = tonumber(redis.call('GET', KEYS[2]))
  if token then
    redis.call('PEXPIRE', KEYS[2], ARGV[3])
    return token
  end
end
if not holder then
  local now_millis = math.floor(now / 1000)
  local head, place = first_in_line(KEYS[3], KEYS[4], now_millis)
  if not head or head == ARGV[1] then
    local token = grant(KEYS[1], KEYS[2], ARGV[1], ARGV[2], ARGV[3], now)
    if head then
      redis.call('ZREM', KEYS[3], ARGV[1])
      redis.call('HDEL', KEYS[4], ARGV[1])
    end
    return token
  end
  if ARGV[4] == '1' then
    keep_place(KEYS[3], KEYS[4], ARGV[1], ARGV[2], ARGV[5], now, ARGV[6] or '')
  end
  return refused(math.max(1, tonumber(string.match(place, '^(%d+)')) - now_millis))
end
if ARGV[4] == '1' then
  keep_place(KEYS[3], KEYS[4], ARGV[1], ARGV[2], ARGV[5], now, ARGV[6] or '')
end
local ttl = redis.call('PTTL', KEYS[1])
if ttl == -1 then
  -- held until released: tell waiters the lease is as long as can be, so they poll at their slowest pace
  ttl = 2147483647
elseif ttl < 0 then
  ttl = 0
end
return refused(ttl)
