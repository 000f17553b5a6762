package io.quarkiverse.lock.tck.faults;

/** The section log failed: the run cannot be trusted. */
final class HarnessFailure extends RuntimeException {

    private static final long serialVersionUID = 1L;

    HarnessFailure(Throwable cause) {
        super(cause.toString(), cause);
    }
}
