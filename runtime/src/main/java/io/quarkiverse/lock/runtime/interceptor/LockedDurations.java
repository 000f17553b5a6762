package io.quarkiverse.lock.runtime.interceptor;

import java.time.Duration;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.eclipse.microprofile.config.ConfigProvider;

import io.quarkus.runtime.configuration.DurationConverter;

/**
 * Reads the durations of {@code @Locked} ({@code waitTime}, {@code expireAfter}, {@code holdAtLeast}): empty for the
 * configured default (none for {@code holdAtLeast}), a duration ({@code 5s}, {@code 500ms}, {@code PT1M}), or a config
 * expression {@code ${property}} or {@code ${property:default}} resolved at runtime.
 */
public final class LockedDurations {

    private static final Pattern EXPRESSION = Pattern.compile("\\$\\{([^:}]+)(?::([^}]*))?}");

    private LockedDurations() {
    }

    /**
     * @param value the annotation member's value
     * @return {@code true} if the value is a config expression, resolved only at runtime
     */
    public static boolean isExpression(String value) {
        return EXPRESSION.matcher(value.trim()).matches();
    }

    /**
     * Parses a duration that is not a config expression.
     *
     * @param value the value, such as {@code 5s}
     * @param member the annotation member, for the message
     * @param allowZero whether zero is allowed (a wait) or not (a lease)
     * @return the duration
     * @throws IllegalArgumentException naming the member if the value is no duration, is negative, or is zero where
     *         that is not allowed
     */
    public static Duration parse(String value, String member, boolean allowZero) {
        Duration duration;
        try {
            duration = DurationConverter.parseDuration(value.trim());
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(member + " = \"" + value + "\" is not a duration (such as 5s, 500ms "
                    + "or PT1M) nor a config expression such as ${app.lock.wait:5s}");
        }
        if (duration == null || duration.isNegative() || (!allowZero && duration.isZero())) {
            throw new IllegalArgumentException(member + " = \"" + value + "\" must be "
                    + (allowZero ? "zero or positive" : "positive"));
        }
        return duration;
    }

    /**
     * Checks that a minimum hold does not outlast the lease, which would free the lock before it.
     *
     * @param holdAtLeast the minimum hold
     * @param holdMember the member it comes from and its value, for the message
     * @param lease the lease
     * @param leaseSource where the lease comes from ({@code expireAfter = "1s"}, {@code quarkus.lock.expire-after}),
     *        for the message
     * @throws IllegalArgumentException naming both if the minimum hold is longer than the lease
     */
    public static void checkHoldAtLeast(Duration holdAtLeast, String holdMember, Duration lease, String leaseSource) {
        if (holdAtLeast.compareTo(lease) > 0) {
            throw new IllegalArgumentException(holdMember + " must not be longer than the lease (" + leaseSource
                    + ": " + lease + "): the store would free the lock before the minimum hold ends");
        }
    }

    /**
     * Resolves a {@code holdAtLeast} value at runtime and checks it against the lease.
     *
     * @param value the value: empty (no minimum hold), a duration or a config expression
     * @param lease the resolved lease
     * @param expireAfter the {@code expireAfter} value the lease was resolved from, for the message
     * @param member the annotation member, for the message
     * @return the minimum hold, zero for none
     * @throws IllegalArgumentException naming the member if the value, or the property it names, is not a valid
     *         duration, is negative, or is longer than the lease
     */
    public static Duration resolveHoldAtLeast(String value, Duration lease, String expireAfter, String member) {
        Duration holdAtLeast = resolve(value, Duration.ZERO, member, true);
        checkHoldAtLeast(holdAtLeast, member + " = \"" + value + "\"", lease, expireAfter.isBlank()
                ? "quarkus.lock.expire-after"
                : "expireAfter = \"" + expireAfter + "\"");
        return holdAtLeast;
    }

    /**
     * Resolves a member's value at runtime.
     *
     * @param value the value: empty, a duration or a config expression
     * @param fallback the configured default, for an empty value
     * @param member the annotation member, for the message
     * @param allowZero whether zero is allowed
     * @return the duration
     * @throws IllegalArgumentException naming the member if the value, or the property it names, is not a valid
     *         duration, or the property is missing and the expression has no default
     */
    public static Duration resolve(String value, Duration fallback, String member, boolean allowZero) {
        if (value.isBlank()) {
            return fallback;
        }
        Matcher expression = EXPRESSION.matcher(value.trim());
        if (!expression.matches()) {
            return parse(value, member, allowZero);
        }
        String property = expression.group(1).trim();
        Optional<String> configured = ConfigProvider.getConfig().getOptionalValue(property, String.class);
        String resolved = configured.orElse(expression.group(2));
        if (resolved == null) {
            throw new IllegalArgumentException(member + " = \"" + value + "\" names the property " + property
                    + ", which is not set, and gives no default");
        }
        return parse(resolved, member + " (" + property + ")", allowZero);
    }
}
