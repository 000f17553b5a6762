package io.quarkiverse.lock.testsupport.mongo;

/**
 * What kind of deployment the strict front says it is, which decides what it refuses: a standalone {@code mongod}
 * refuses change streams and numeric write concerns above 1; a replica set of one data-bearing member (how MongoDB is
 * commonly run for development) streams changes and answers a write concern above 1 with a {@code writeConcernError}
 * after applying the write.
 */
public enum MongoTopology {

    /** A standalone {@code mongod}: not replicated. */
    STANDALONE,

    /** A replica set whose primary is the only data-bearing member. */
    REPLICA_SET;

    /** How many data-bearing members a replica set of this front has. */
    static final int DATA_BEARING_MEMBERS = 1;
}
