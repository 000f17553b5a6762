package io.quarkiverse.lock.runtime.store.redis;

import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The server ids of a pipeline's replaced connections not yet killed on the server, shared by its successive links:
 * each new connection kills them before it carries a lock command.
 */
final class ReplacedConnections {

    private final Set<Long> ids = new LinkedHashSet<>();

    synchronized void add(long id) {
        ids.add(id);
    }

    /** @param id a connection now killed, or that the server refused to kill */
    synchronized void remove(long id) {
        ids.remove(id);
    }

    /** The ids to kill now. */
    synchronized Set<Long> toKill() {
        return Set.copyOf(ids);
    }
}
