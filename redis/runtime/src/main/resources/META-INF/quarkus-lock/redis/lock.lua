-- Functions shared by the lock scripts; the extension puts this file in front of each script that uses them.
-- A lock's keys: the lock (its value the owner id, its expiry the lease), its fencing counter, its line of waiters
-- (a sorted set of owner ids by arrival) and their places (a hash: owner id -> 'deadline_ms:channel:lease_ms', or
-- 'deadline_ms:lease_ms' for a waiter without a channel of its own: the channel sits between the two numbers, so a
-- script that reads only the first and the last reads both forms).

-- Scripts read TIME and then write: Redis before 5 needs effects replication asked for (later versions always use it).
if redis.replicate_commands then
  redis.replicate_commands()
end

local function now_micros()
  local time = redis.call('TIME')
  return tonumber(time[1]) * 1000000 + tonumber(time[2])
end

-- Drops waiters at the head of the line whose place lapsed (they stopped asking: gave up, or their instance
-- died). Returns the first waiter still in line and its place, or nil.
local function first_in_line(line, places, now_millis)
  local head = redis.call('ZRANGE', line, 0, 0)[1]
  while head do
    local place = redis.call('HGET', places, head)
    local deadline = place and tonumber(string.match(place, '^(%d+)'))
    if deadline and deadline > now_millis then
      return head, place
    end
    redis.call('ZREM', line, head)
    redis.call('HDEL', places, head)
    head = redis.call('ZRANGE', line, 0, 0)[1]
  end
  return nil
end

-- Puts owner in line, or keeps its place, for place_ms more, noting the channel its instance hears its hand-over on
-- ('' for none); the line of waiters that all vanished disappears by itself.
local function keep_place(line, places, owner, lease, place_ms, now, channel)
  if not redis.call('ZSCORE', line, owner) then
    redis.call('ZADD', line, now, owner)
  end
  local via = ':'
  if channel ~= '' then
    via = ':' .. channel .. ':'
  end
  redis.call('HSET', places, owner, string.format('%.0f', math.floor(now / 1000) + place_ms) .. via .. lease)
  redis.call('PEXPIRE', line, place_ms * 2)
  redis.call('PEXPIRE', places, place_ms * 2)
end

-- Gives the lock to owner for lease ms (0: until released) and returns its fencing token: at least the
-- server's time in microseconds, so it stays ahead of every earlier token even after the counter has expired;
-- the counter keeps it increasing within one microsecond and across a clock that steps back.
local function grant(lock, fence, owner, lease, retention, now)
  if tonumber(lease) > 0 then
    redis.call('SET', lock, owner, 'PX', lease)
  else
    redis.call('SET', lock, owner)
  end
  local token = now
  local last = tonumber(redis.call('GET', fence))
  if last and last >= token then
    token = last + 1
  end
  redis.call('SET', fence, string.format('%.0f', token), 'PX', retention)
  return token
end

-- Publishes message on channel ('' for none), at best effort: the lock's keys are already written, and a Redis user
-- not allowed to publish there must not turn a release that happened into an error. Waiters poll for what they miss.
local function announce(channel, message)
  if channel ~= '' then
    redis.pcall('PUBLISH', channel, message)
  end
end

-- Frees the lock and hands it straight to the first waiter in line, if any, announcing 'G <owner> <token> <name>' on
-- that waiter's own channel (only its instance needs to hear it), or on the release channel ('' for none) for a
-- waiter without one; a plain release announces 'R <name>' on the release channel, for every instance.
local function release_and_hand_over(lock, fence, line, places, channel, name, retention)
  redis.call('DEL', lock)
  local now = now_micros()
  local head, place = first_in_line(line, places, math.floor(now / 1000))
  if head then
    local token = grant(lock, fence, head, string.match(place, ':(%d+)$'), retention, now)
    redis.call('ZREM', line, head)
    redis.call('HDEL', places, head)
    announce(string.match(place, '^%d+:(.+):%d+$') or channel,
      'G ' .. head .. ' ' .. string.format('%.0f', token) .. ' ' .. name)
  else
    announce(channel, 'R ' .. name)
  end
end
