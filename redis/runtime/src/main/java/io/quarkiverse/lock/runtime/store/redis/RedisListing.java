package io.quarkiverse.lock.runtime.store.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import io.quarkiverse.lock.HeldLock;
import io.quarkiverse.lock.LockPage;
import io.smallrye.mutiny.Uni;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

/**
 * One page of the held locks of the Redis store: one {@code SCAN} step ({@code MATCH <prefix>{*}, {@code COUNT}
 * the limit) over the store's key layout ({@link RedisKeys}), never the whole key space in one call, then one atomic
 * read of each lock key it found. A step may find more lock keys than the limit: the page then lists the first ones
 * in key order, and its cursor, {@code <scan cursor>/<locks listed>}, repeats the step and skips them. The cursor is
 * otherwise Redis's own, so a lock may be listed twice if the server shrinks its key table between pages.
 */
final class RedisListing {

    static final RedisScript HELD = RedisScript.load("held.lua");

    private RedisListing() {
    }

    static Uni<LockPage> page(RedisCommandPipeline pipeline, String prefix, String cursor, int limit) {
        String scanCursor = cursor == null ? "0" : cursor;
        int skip = 0;
        int slash = scanCursor.indexOf('/');
        if (slash >= 0) {
            skip = Integer.parseInt(scanCursor.substring(slash + 1));
            scanCursor = scanCursor.substring(0, slash);
        }
        if (!scanCursor.chars().allMatch(Character::isDigit) || scanCursor.isEmpty() || skip < 0) {
            throw new IllegalArgumentException("'" + cursor + "' is not a cursor of the Redis lock store's listing");
        }
        String from = scanCursor;
        int skipped = skip;
        Request scan = Request.cmd(Command.SCAN).arg(from).arg("MATCH").arg(glob(prefix) + "{*").arg("COUNT")
                .arg(limit);
        return pipeline.send(scan).flatMap(reply -> {
            String next = reply.get(0).toString();
            List<String> keys = new ArrayList<>();
            for (Response redisKey : reply.get(1)) {
                String key = lockKey(prefix, redisKey.toString());
                if (key != null) {
                    keys.add(key);
                }
            }
            keys.sort(null);
            List<String> listed = keys.subList(Math.min(skipped, keys.size()), keys.size());
            String after;
            if (listed.size() > limit) {
                listed = listed.subList(0, limit);
                after = from + "/" + (skipped + limit);
            } else {
                after = "0".equals(next) ? null : next;
            }
            return read(pipeline, prefix, listed).map(held -> new LockPage(held, after));
        });
    }

    private static Uni<List<HeldLock>> read(RedisCommandPipeline pipeline, String prefix, List<String> keys) {
        if (keys.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        List<Uni<HeldLock>> reads = new ArrayList<>(keys.size());
        for (String key : keys) {
            RedisKeys redisKeys = RedisKeys.of(prefix, key);
            reads.add(HELD.run(pipeline, 3, redisKeys.lock(), redisKeys.fence(), redisKeys.line())
                    .map(reply -> held(key, reply)));
        }
        return Uni.join().all(reads).andFailFast()
                .map(held -> held.stream().filter(Objects::nonNull).toList());
    }

    /** The lock the script's reply describes, or {@code null} if it is free (or expired) now. */
    private static HeldLock held(String key, Response reply) {
        if (reply == null || reply.size() < 4) {
            return null;
        }
        long left = reply.get(1).toLong();
        long token = reply.get(2).toLong();
        if (left == -2 || left == 0 || token <= 0) {
            return null;
        }
        return new HeldLock(key, reply.get(0).toString(), token, left == -1 ? HeldLock.UNTIL_RELEASED : left,
                reply.get(3).toInteger(), null);
    }

    /**
     * @return the user's lock key if {@code redisKey} is the lock key of one ({@link RedisKeys}), {@code null} if it
     *         is another key of a lock (its counter, line or places) or not one of the store's
     */
    static String lockKey(String prefix, String redisKey) {
        if (!redisKey.startsWith(prefix + "{")) {
            return null;
        }
        String rest = redisKey.substring(prefix.length());
        int tagEnd = rest.indexOf('}');
        String key;
        if (tagEnd == rest.length() - 1) {
            key = rest.substring(1, tagEnd);
        } else if (rest.startsWith("{#") && rest.startsWith("lock:", tagEnd + 1)) {
            key = rest.substring(tagEnd + 1 + "lock:".length());
        } else {
            return null;
        }
        return !key.isEmpty() && RedisKeys.of(prefix, key).lock().equals(redisKey) ? key : null;
    }

    /** The prefix as a glob pattern that matches it literally. */
    private static String glob(String prefix) {
        StringBuilder glob = new StringBuilder(prefix.length() + 4);
        for (int i = 0; i < prefix.length(); i++) {
            char c = prefix.charAt(i);
            if ("*?[]\\".indexOf(c) >= 0) {
                glob.append('\\');
            }
            glob.append(c);
        }
        return glob.toString();
    }
}
