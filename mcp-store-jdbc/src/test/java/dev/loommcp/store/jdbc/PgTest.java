package dev.loommcp.store.jdbc;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** A test class on the run's private PostgreSQL: a fresh schema for the class ({@link PgDatabase}), dropped after. */
abstract class PgTest {

    static PgDatabase db;

    @BeforeAll
    static void openDatabase() throws Exception {
        db = PgDatabase.open();
    }

    @AfterAll
    static void closeDatabase() throws Exception {
        if (db != null) {
            db.close();
            db = null;
        }
    }
}
