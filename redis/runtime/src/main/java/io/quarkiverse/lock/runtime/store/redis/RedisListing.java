package io.quarkiverse.lock.runtime.store.redis;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

import io.quarkiverse.lock.HeldLock;
import io.quarkiverse.lock.LockPage;
import io.smallrye.mutiny.Uni;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

/**
 * The held locks of the Redis store, page by page: one {@code SCAN} step ({@code MATCH <prefix>{*}, {@code COUNT} the
 * limit) over the store's key layout ({@link RedisKeys}), never the whole key space in one call, then one atomic read
 * of each lock key it found. A step may find more lock keys than the limit: the page then lists the first ones in key
 * order, and its cursor repeats the step and skips them.
 * <p>
 * {@code SCAN} walks the keys of the one node it runs on, so on Redis Cluster the listing walks every primary in turn,
 * in the order of the first slot each serves, as Redisson's key iteration walks its master entries. The client routes
 * a command by its keys only, so the step runs in a script ({@code scan.lua}) whose key is in a slot of the primary to
 * scan; it goes over the store's own connection, with that connection's password and TLS. Each page reads the slots
 * ({@code CLUSTER SLOTS}) again, so a primary added or gone between pages is seen at the next one; while slots move
 * between primaries, a lock may be missed or listed twice. Whether the server is a cluster is asked once per store.
 * <p>
 * A cursor is {@code <node cursor>[/<locks skipped>]} on a single server, {@code <slot>:<node cursor>[/<locks
 * skipped>]} on a cluster, where the slot is the first one of the primary the node cursor belongs to.
 */
final class RedisListing {

    static final RedisScript HELD = RedisScript.load("held.lua");
    static final RedisScript SCAN = RedisScript.load("scan.lua");

    /** The slots of Redis Cluster. */
    static final int SLOTS = 16384;

    /** How a server that is no cluster answers {@code CLUSTER SLOTS}. */
    private static final String NOT_A_CLUSTER = "cluster support disabled";

    private final RedisCommandPipeline pipeline;
    private final String prefix;
    private final String pattern;
    /** {@code true} once the server said it is no cluster: it stays so. */
    private volatile boolean standalone;

    /**
     * @param pipeline the store's commands
     * @param prefix the store's key prefix
     */
    RedisListing(RedisCommandPipeline pipeline, String prefix) {
        this.pipeline = pipeline;
        this.prefix = prefix;
        this.pattern = glob(prefix) + "{*";
    }

    /**
     * Checks the cursor now, then reads the page when the returned {@link Uni} is subscribed to.
     *
     * @param cursor {@code null} for the first page, else the {@link LockPage#next()} of the page before
     * @param limit the most locks of the page, positive
     * @return the page
     * @throws IllegalArgumentException at once, sending nothing, if the cursor is not one this store makes
     */
    Uni<LockPage> page(String cursor, int limit) {
        Cursor from = cursor == null ? null : Cursor.parse(cursor);
        return Uni.createFrom().deferred(() -> primaries().flatMap(primaries -> {
            if (primaries == null) {
                if (from != null && from.slot() >= 0) {
                    return Uni.createFrom().failure(new IllegalArgumentException("'" + cursor
                            + "' is a cursor of a Redis Cluster listing, but the server is no cluster"));
                }
                Cursor start = from == null ? new Cursor(-1, "0", 0) : from;
                Request scan = Request.cmd(Command.SCAN).arg(start.node()).arg("MATCH").arg(pattern).arg("COUNT")
                        .arg(limit);
                return pipeline.send(scan).flatMap(reply -> page(start, reply, limit, null));
            }
            if (from != null && from.slot() < 0) {
                return Uni.createFrom().failure(new IllegalArgumentException("'" + cursor
                        + "' is a cursor of a single Redis server's listing, but the server is a cluster"));
            }
            Cursor start = from == null ? new Cursor(primaries.first(), "0", 0) : from;
            Integer nextPrimary = primaries.higher(start.slot());
            return SCAN.run(pipeline, 1, routingKey(start.slot()), start.node(), pattern, Integer.toString(limit))
                    .flatMap(reply -> page(start, reply, limit, nextPrimary));
        }));
    }

    /**
     * @return the first slot of each primary, or {@code null} if the server is no cluster
     */
    private Uni<TreeSet<Integer>> primaries() {
        if (standalone) {
            return Uni.createFrom().nullItem();
        }
        return pipeline.send(Request.cmd(Command.CLUSTER).arg("SLOTS")).map(RedisListing::firstSlots)
                .onFailure(failure -> failure.getMessage() != null && failure.getMessage().contains(NOT_A_CLUSTER))
                .recoverWithItem(() -> {
                    standalone = true;
                    return null;
                });
    }

    /**
     * @param reply {@code CLUSTER SLOTS}: ranges of {start, end, primary {host, port, ...}, replicas...}
     * @return the first slot each primary serves
     */
    private static TreeSet<Integer> firstSlots(Response reply) {
        Map<String, Integer> first = new HashMap<>();
        for (Response range : reply) {
            Response primary = range.get(2);
            first.merge(primary.get(0) + ":" + primary.get(1), range.get(0).toInteger(), Math::min);
        }
        TreeSet<Integer> slots = new TreeSet<>(first.values());
        if (slots.isEmpty()) {
            throw new IllegalStateException("the Redis Cluster serves no slot (CLUSTER SLOTS is empty)");
        }
        return slots;
    }

    /**
     * @param nextPrimary the first slot of the primary after the one scanned, {@code null} if there is none or the
     *        server is no cluster
     */
    private Uni<LockPage> page(Cursor from, Response reply, int limit, Integer nextPrimary) {
        String nodeNext = reply.get(0).toString();
        List<String> keys = new ArrayList<>();
        for (Response redisKey : reply.get(1)) {
            String key = lockKey(prefix, redisKey.toString());
            if (key != null) {
                keys.add(key);
            }
        }
        keys.sort(null);
        List<String> listed = keys.subList(Math.min(from.skip(), keys.size()), keys.size());
        String after;
        if (listed.size() > limit) {
            listed = listed.subList(0, limit);
            after = new Cursor(from.slot(), from.node(), from.skip() + limit).toString();
        } else if (!"0".equals(nodeNext)) {
            after = new Cursor(from.slot(), nodeNext, 0).toString();
        } else {
            after = nextPrimary == null ? null : new Cursor(nextPrimary, "0", 0).toString();
        }
        return read(listed).map(held -> new LockPage(held, after));
    }

    private Uni<List<HeldLock>> read(List<String> keys) {
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

    /**
     * @return a key of the store in {@code slot}, outside the pattern of lock keys, that {@link #SCAN} names to run on
     *         the primary of that slot
     */
    String routingKey(int slot) {
        return prefix + "listing{" + SlotTags.TAGS[slot] + "}";
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

    /**
     * @return the Redis Cluster slot of a hash tag: CRC16 (XMODEM) of its UTF-8 bytes, modulo {@link #SLOTS}
     */
    static int slot(String tag) {
        int crc = 0;
        for (byte b : tag.getBytes(StandardCharsets.UTF_8)) {
            crc ^= (b & 0xFF) << 8;
            for (int i = 0; i < 8; i++) {
                crc = (crc & 0x8000) != 0 ? (crc << 1) ^ 0x1021 : crc << 1;
            }
        }
        return (crc & 0xFFFF) % SLOTS;
    }

    /** The smallest decimal number whose slot is each slot, made on first use. */
    private static final class SlotTags {

        static final String[] TAGS = tags();

        private static String[] tags() {
            String[] tags = new String[SLOTS];
            int missing = SLOTS;
            for (int n = 0; missing > 0; n++) {
                String tag = Integer.toString(n);
                int slot = slot(tag);
                if (tags[slot] == null) {
                    tags[slot] = tag;
                    missing--;
                }
            }
            return tags;
        }
    }

    /**
     * Where a page starts.
     *
     * @param slot the first slot of the primary to scan, -1 on a server that is no cluster
     * @param node that node's {@code SCAN} cursor
     * @param skip how many lock keys of the step the page before listed already
     */
    record Cursor(int slot, String node, int skip) {

        /** The longest node cursor: {@code SCAN}'s is an unsigned 64-bit number. */
        private static final int MOST_DIGITS = 20;

        /**
         * @throws IllegalArgumentException if {@code cursor} is not a cursor of this listing
         */
        static Cursor parse(String cursor) {
            int colon = cursor.indexOf(':');
            int slash = cursor.indexOf('/');
            int nodeEnd = slash < 0 ? cursor.length() : slash;
            String node = colon < nodeEnd ? cursor.substring(colon + 1, nodeEnd) : "";
            String slot = colon < 0 ? null : cursor.substring(0, colon);
            String skip = slash < 0 ? null : cursor.substring(slash + 1);
            if (!digits(node, MOST_DIGITS) || slot != null && !digits(slot, 5) || skip != null && !digits(skip, 9)) {
                throw new IllegalArgumentException("'" + cursor + "' is not a cursor of the Redis lock store's "
                        + "listing: expected [<slot>:]<scan cursor>[/<locks skipped>], in decimal digits");
            }
            int slotNumber = slot == null ? -1 : Integer.parseInt(slot);
            if (slotNumber >= SLOTS) {
                throw new IllegalArgumentException("'" + cursor + "' is not a cursor of the Redis lock store's "
                        + "listing: its slot " + slotNumber + " is not below " + SLOTS);
            }
            return new Cursor(slotNumber, node, skip == null ? 0 : Integer.parseInt(skip));
        }

        private static boolean digits(String text, int most) {
            return !text.isEmpty() && text.length() <= most && text.chars().allMatch(c -> c >= '0' && c <= '9');
        }

        @Override
        public String toString() {
            return (slot < 0 ? "" : slot + ":") + node + (skip == 0 ? "" : "/" + skip);
        }
    }
}
