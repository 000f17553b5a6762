package io.quarkiverse.lock.bench;

import java.util.Set;

import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.Request;

/**
 * What the benchmark asks the redis-server about itself: its version, how many commands it has run, how much memory
 * it uses; and the scripts it loads and the flush between memory runs.
 *
 * @param redis the application's Redis client
 */
record RedisInfo(Redis redis) {

    /** The commands that run a script. */
    private static final Set<String> SCRIPTS = Set.of("eval", "evalsha", "eval_ro", "evalsha_ro", "fcall", "fcall_ro");

    /** @return the server's version */
    String version() {
        return field("server", "redis_version");
    }

    /**
     * Counts of the commands the server has run so far, by {@code INFO commandstats}, leaving out INFO itself.
     *
     * @param commands the ones clients sent and the ones their scripts ran inside the server
     * @param scripts the scripts run ({@code EVAL}, {@code EVALSHA}, {@code FCALL}), each once
     */
    record Calls(long commands, long scripts) {
    }

    /** @return the commands and scripts the server has run so far, from one {@code INFO commandstats} */
    Calls calls() {
        long commands = 0;
        long scripts = 0;
        for (String line : info("commandstats").split("\r?\n")) {
            if (!line.startsWith("cmdstat_") || line.startsWith("cmdstat_info:")) {
                continue;
            }
            int from = line.indexOf("calls=") + "calls=".length();
            long calls = Long.parseLong(line.substring(from, line.indexOf(',', from)));
            commands += calls;
            if (SCRIPTS.contains(line.substring("cmdstat_".length(), line.indexOf(':')))) {
                scripts += calls;
            }
        }
        return new Calls(commands, scripts);
    }

    /** @return the server's {@code used_memory}, bytes */
    long usedMemory() {
        return Long.parseLong(field("memory", "used_memory"));
    }

    /** Deletes every key: what a memory run left behind (its fencing counters). */
    void flush() {
        send(Request.cmd(Command.FLUSHDB));
    }

    /** Loads a script into the server's cache; the server answers with its SHA-1. */
    String loadScript(String source) {
        return send(Request.cmd(Command.SCRIPT).arg("LOAD").arg(source));
    }

    private String field(String section, String name) {
        for (String line : info(section).split("\r?\n")) {
            if (line.startsWith(name + ":")) {
                return line.substring(name.length() + 1).trim();
            }
        }
        return "(unknown)";
    }

    private String info(String section) {
        return send(Request.cmd(Command.INFO).arg(section));
    }

    private String send(Request request) {
        return redis.send(request).toCompletionStage().toCompletableFuture().join().toString();
    }
}
