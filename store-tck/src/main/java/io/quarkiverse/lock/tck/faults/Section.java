package io.quarkiverse.lock.tck.faults;

/**
 * One critical section run by the randomized fault harness, as logged: who ran it, under which fencing token, and when
 * it started and ended on the store's clock (microseconds), with what the store said about the hold at both ends.
 *
 * @param id the section's id, unique in the run
 * @param operation the random operation that ran it, such as {@code CANCEL_EXECUTE}
 * @param overriding whether it ran under an overriding take-over (checked only for rising tokens)
 * @param key the lock key
 * @param token the fencing token the handle reported at the section's start, -1 if it reported none
 * @param handle the id of the handle that acquired, unique in the run
 * @param instance the instance (registry) the handle belongs to
 * @param reentrant whether the handle is reentrant (its nested and concurrent sections share one hold)
 * @param parent the id of the section this one is nested in, or {@code -}
 * @param attempt when the acquisition that led to this section was asked for, before the store was asked
 * @param leaseMillis the lease that acquisition asked for; 0 for a lock held until released
 * @param start when the section started, after the acquisition reported the lock acquired
 * @param end when it ended, before the release was asked for; -1 if it never ended (cancelled or interrupted)
 * @param heldAtStart what the store said at the start: {@link #HELD}, {@link #NOT_HELD} or {@link #UNKNOWN}
 * @param heldAtEnd what the store said at the end
 */
public record Section(String id, String operation, boolean overriding, String key, long token, String handle, int instance,
        boolean reentrant,
        String parent, long attempt, long leaseMillis, long start, long end, int heldAtStart, int heldAtEnd) {

    /** The store held the lock for this token. */
    public static final int HELD = 1;
    /** The store did not hold the lock for this token (held by another, or free). */
    public static final int NOT_HELD = 0;
    /** The store cannot tell (no probe for it). */
    public static final int UNKNOWN = -1;

    /**
     * @return whether the section ended (a cancelled or interrupted one has a start only)
     */
    public boolean ended() {
        return end >= 0;
    }

    /**
     * @return whether the store held this token at both ends, so the section held the lock all along (a hold, once
     *         lost, never comes back under the same token)
     */
    public boolean heldThroughout() {
        return heldAtStart == HELD && heldAtEnd == HELD;
    }

    /**
     * @return the hold the section ran under: a handle and a token (entries of one reentrant hold share it)
     */
    public String hold() {
        return handle + "/" + token;
    }

    /**
     * @return the fields in one line, the way they are logged: the ending fields last, so the store's exit script
     *         can append them
     */
    public String startFields() {
        return String.join("|", id, operation, overriding ? "O" : "R", key, Long.toString(token), handle,
                Integer.toString(instance), reentrant ? "1" : "0", parent, Long.toString(attempt),
                Long.toString(leaseMillis), Long.toString(start), Integer.toString(heldAtStart));
    }

    /**
     * @return the logged line of an ended section
     */
    public String line() {
        return startFields() + "|" + end + "|" + heldAtEnd;
    }

    /**
     * @param line a line as written by {@link #line()}
     * @return the section
     * @throws IllegalArgumentException if the line does not have a section's fields
     */
    public static Section parse(String line) {
        String[] f = line.split("\\|", -1);
        if (f.length != 15) {
            throw new IllegalArgumentException("Not a section: " + line);
        }
        return new Section(f[0], f[1], "O".equals(f[2]), f[3], Long.parseLong(f[4]), f[5], Integer.parseInt(f[6]),
                "1".equals(f[7]), f[8], Long.parseLong(f[9]), Long.parseLong(f[10]), Long.parseLong(f[11]),
                Long.parseLong(f[13]), Integer.parseInt(f[12]), Integer.parseInt(f[14]));
    }

    /**
     * @param time when it ended
     * @param held what the store said then
     * @return this section, ended
     */
    public Section endedAt(long time, int held) {
        return new Section(id, operation, overriding, key, token, handle, instance, reentrant, parent, attempt,
                leaseMillis, start, time, heldAtStart, held);
    }

    /**
     * @param origin the run's start, on the store's clock
     * @return a readable description, with times in milliseconds since the run started
     */
    public String describe(long origin) {
        return String.format("%s[%s %s token %d, %s, i%d%s, attempt %+.1f ms, %.1f..%s ms, lease %d ms, held %s/%s]",
                overriding ? "overriding " : "", id, operation, token, handle, instance,
                "-".equals(parent) ? "" : " in " + parent,
                (attempt - origin) / 1000.0, (start - origin) / 1000.0,
                ended() ? String.format("%.1f", (end - origin) / 1000.0) : "(never ended)", leaseMillis,
                heldText(heldAtStart), ended() ? heldText(heldAtEnd) : "-");
    }

    private static String heldText(int held) {
        return held == HELD ? "yes" : held == NOT_HELD ? "NO" : "?";
    }
}
