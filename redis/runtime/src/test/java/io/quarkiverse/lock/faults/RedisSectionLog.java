package io.quarkiverse.lock.faults;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import io.quarkiverse.lock.tck.faults.OverrideWindow;
import io.quarkiverse.lock.tck.faults.Section;
import io.quarkiverse.lock.tck.faults.SectionLog;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.vertx.UniHelper;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

/**
 * The section log in Redis, written through a clean client (straight to the server, never through a fault proxy):
 * each stamp is one Lua script reading {@code TIME} and, in the same atomic step, whether the lock is held under the
 * section's token (the lock's key exists and its fencing counter is that token: the store issued no later token and
 * the hold has not ended). Ended sections go to the list {@code faultlog:sections}, overriding windows to
 * {@code faultlog:overriding}.
 * <p>
 * The probe follows the Redis store's key layout ({@code <prefix>{key}} and {@code <prefix>{key}:fence});
 * {@link RedisFaultFixture} checks it against a real acquisition before a run, so a changed layout fails the run instead
 * of passing it.
 */
final class RedisSectionLog implements SectionLog {

    static final String SECTIONS = "faultlog:sections";
    static final String OVERRIDING = "faultlog:overriding";
    private static final String HELD = "local time = redis.call('TIME')\n"
            + "local now = tonumber(time[1]) * 1000000 + tonumber(time[2])\n"
            + "local held = 0\n"
            + "if redis.call('EXISTS', KEYS[1]) == 1 and redis.call('GET', KEYS[2]) == ARGV[1] then held = 1 end\n";
    private static final String START = HELD + "return {now, held}";
    private static final String END = HELD
            + "redis.call('RPUSH', KEYS[3], ARGV[2] .. '|' .. string.format('%.0f', now) .. '|' .. held)\n"
            + "return {now, held}";
    private static final int PAGE = 5_000;

    private final Redis redis;
    private final String keyPrefix;
    private final Queue<Section> unfinished = new ConcurrentLinkedQueue<>();

    /**
     * @param redis a client connected straight to the server
     * @param keyPrefix the lock store's key prefix
     */
    RedisSectionLog(Redis redis, String keyPrefix) {
        this.redis = redis;
        this.keyPrefix = keyPrefix;
    }

    private Uni<Response> send(Request request) {
        return Uni.createFrom().deferred(() -> UniHelper.toUni(redis.send(request)));
    }

    String lockKey(String key) {
        return keyPrefix + '{' + key + '}';
    }

    @Override
    public Uni<Long> now() {
        return send(Request.cmd(Command.TIME))
                .map(time -> time.get(0).toLong() * 1_000_000 + time.get(1).toLong());
    }

    @Override
    public Uni<Stamp> start(String key, long token) {
        String lockKey = lockKey(key);
        return send(Request.cmd(Command.EVAL).arg(START).arg(2).arg(lockKey).arg(lockKey + ":fence").arg(token))
                .map(reply -> new Stamp(reply.get(0).toLong(), reply.get(1).toInteger()));
    }

    @Override
    public Uni<Section> end(Section started) {
        String lockKey = lockKey(started.key());
        return send(Request.cmd(Command.EVAL).arg(END).arg(3).arg(lockKey).arg(lockKey + ":fence").arg(SECTIONS)
                .arg(started.token()).arg(started.startFields()))
                .map(reply -> started.endedAt(reply.get(0).toLong(), reply.get(1).toInteger()));
    }

    @Override
    public void unfinished(Section started) {
        unfinished.add(started);
    }

    @Override
    public void overriding(OverrideWindow window) {
        send(Request.cmd(Command.RPUSH).arg(OVERRIDING).arg(String.join("|", window.key(), window.handle(),
                Long.toString(window.from()), Long.toString(window.to()), Long.toString(window.token()),
                window.outcome())))
                .await().indefinitely();
    }

    @Override
    public List<Section> sections() {
        List<Section> sections = new ArrayList<>();
        for (String line : readList(SECTIONS)) {
            sections.add(Section.parse(line));
        }
        sections.addAll(unfinished);
        return sections;
    }

    @Override
    public List<OverrideWindow> overridingWindows() {
        List<OverrideWindow> windows = new ArrayList<>();
        for (String line : readList(OVERRIDING)) {
            String[] f = line.split("\\|", 6);
            windows.add(new OverrideWindow(f[0], f[1], Long.parseLong(f[2]), Long.parseLong(f[3]),
                    Long.parseLong(f[4]), f[5]));
        }
        return windows;
    }

    private List<String> readList(String list) {
        List<String> lines = new ArrayList<>();
        for (int from = 0;; from += PAGE) {
            Response page = send(Request.cmd(Command.LRANGE).arg(list).arg(from).arg(from + PAGE - 1))
                    .await().atMost(Duration.ofSeconds(30));
            for (Response line : page) {
                lines.add(line.toString());
            }
            if (page.size() < PAGE) {
                return lines;
            }
        }
    }
}
