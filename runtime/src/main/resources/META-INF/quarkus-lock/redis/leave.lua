-- Takes a waiter out of the line of a lock (it gave up or was cancelled), so the next one need not wait for its
-- place to lapse.
-- KEYS[1] the line of waiters, KEYS[2] their deadlines; ARGV[1] the owner id
-- Returns 1 when the waiter was in line, 0 otherwise.
redis.call('HDEL', KEYS[2], ARGV[1])
return redis.call('ZREM', KEYS[1], ARGV[1])
