package io.quarkiverse.lock.runtime.interceptor;

import static java.lang.annotation.ElementType.METHOD;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import java.lang.annotation.Retention;
import java.lang.annotation.Target;

import jakarta.enterprise.util.Nonbinding;
import jakarta.interceptor.InterceptorBinding;

/**
 * The lock key of a {@code @Locked} method as the build compiled it from the method's key template, added to the
 * method by the extension: the key is {@code literals[0] + arg(positions[0]) + literals[1] + ... + literals[n]}. Not
 * for users.
 */
@InterceptorBinding
@Retention(RUNTIME)
@Target(METHOD)
public @interface CompiledLockKey {

    /**
     * @return the literal parts, one more than {@link #positions()}
     */
    @Nonbinding
    String[] literals();

    /**
     * @return the positions of the parameters whose values go between the literal parts
     */
    @Nonbinding
    short[] positions();
}
