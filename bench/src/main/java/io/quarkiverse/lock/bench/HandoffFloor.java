package io.quarkiverse.lock.bench;

/**
 * A floor of the handoff table: no distributed lock, but the least a handoff costs on some path, passed around by the
 * same benchmark as the libraries, so that their figures can be read against it.
 */
abstract class HandoffFloor implements HandoffSubject {

    private final String name;

    /**
     * @param name the floor's name in the tables
     */
    HandoffFloor(String name) {
        this.name = name;
    }

    @Override
    public final String name() {
        return name;
    }
}
