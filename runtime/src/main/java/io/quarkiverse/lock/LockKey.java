package io.quarkiverse.lock;

import static java.lang.annotation.ElementType.PARAMETER;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/**
 * Makes a parameter of a {@link Locked} method part of the lock key, when {@link Locked#key()} is empty: the key is
 * then the declaring class and method name followed by {@code String.valueOf} of each such argument, separated by
 * {@code ':'}, in parameter order. Not allowed together with a {@link Locked#key()} template.
 */
@Retention(RUNTIME)
@Target(PARAMETER)
public @interface LockKey {
}
