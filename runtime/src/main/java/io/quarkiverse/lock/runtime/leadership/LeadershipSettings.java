package io.quarkiverse.lock.runtime.leadership;

import java.time.Duration;

/**
 * How one leadership group runs, checked: the lease of its lock, how often the leader renews it, and how long before
 * the lease's end the leader stops believing it leads.
 *
 * @param lease the lease of the group's lock
 * @param renewInterval how long after a renewal (or the election) was sent the next one is sent
 * @param safetyMargin how long before the lease's end, counted from when the last confirmed request was sent, the
 *        leader's belief ends
 */
public record LeadershipSettings(Duration lease, Duration renewInterval, Duration safetyMargin) {

    /**
     * @throws IllegalArgumentException naming the property ({@code quarkus.lock.leadership."<group>".<name>}) whose
     *         value is invalid: a duration that is not positive, a safety margin not shorter than the lease, or a renew
     *         interval not shorter than the lease minus the safety margin (the leader would stop believing before its
     *         first renewal)
     */
    public LeadershipSettings {
        if (lease == null || renewInterval == null || safetyMargin == null) {
            throw new IllegalArgumentException("lease, renewInterval and safetyMargin must not be null");
        }
    }

    /**
     * Checks the settings of a group.
     *
     * @param group the group's name, for the messages
     * @return these settings
     * @throws IllegalArgumentException naming the property whose value is invalid
     */
    public LeadershipSettings checkedFor(String group) {
        positive(group, "lease", lease);
        positive(group, "renew-interval", renewInterval);
        positive(group, "safety-margin", safetyMargin);
        if (lease.toMillis() < 1) {
            throw new IllegalArgumentException(property(group, "lease") + " must be at least 1ms, but is " + lease);
        }
        if (safetyMargin.compareTo(lease) >= 0) {
            throw new IllegalArgumentException(property(group, "safety-margin") + " must be shorter than "
                    + property(group, "lease") + " (" + lease + "), but is " + safetyMargin);
        }
        Duration believed = lease.minus(safetyMargin);
        if (renewInterval.compareTo(believed) >= 0) {
            throw new IllegalArgumentException(property(group, "renew-interval") + " must be shorter than the lease "
                    + "minus the safety margin (" + lease + " - " + safetyMargin + " = " + believed + "), so the leader "
                    + "renews before it stops believing it leads, but is " + renewInterval);
        }
        return this;
    }

    /**
     * @param group a group's name
     * @param name the property's name within the group
     * @return the full name of the property, such as {@code quarkus.lock.leadership."orders".renew-interval}
     */
    public static String property(String group, String name) {
        return "quarkus.lock.leadership.\"" + group + "\"." + name;
    }

    private static void positive(String group, String name, Duration value) {
        if (value.isZero() || value.isNegative()) {
            throw new IllegalArgumentException(property(group, name) + " must be positive, but is " + value);
        }
    }

    long leaseMillis() {
        return lease.toMillis();
    }

    /** How long after a request was sent the belief it confirmed lasts: the lease minus the safety margin. */
    long believedNanos() {
        return lease.minus(safetyMargin).toNanos();
    }

    long renewIntervalNanos() {
        return renewInterval.toNanos();
    }
}
