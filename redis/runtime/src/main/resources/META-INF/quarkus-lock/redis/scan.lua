-- One SCAN step on the node that serves KEYS[1]: Redis Cluster runs a script on the node of its keys, so a key in a
-- slot of one primary addresses the step to that primary. The key is never read or written.
-- KEYS[1] a key in a slot of the node; ARGV[1] the node's scan cursor, ARGV[2] the MATCH pattern, ARGV[3] the COUNT
-- Returns SCAN's reply: {the node's next cursor, the keys found}.
return redis.call('SCAN', ARGV[1], 'MATCH', ARGV[2], 'COUNT', ARGV[3])
