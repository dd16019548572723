# SPDX-License-Identifier: MIT
# sqlite3: a WAL database, a recursive insert, an index, aggregates,
# a second connection reading what the first wrote.
set -e
sqlite3 db <<'SQL'
PRAGMA journal_mode=WAL;
CREATE TABLE t(id INTEGER PRIMARY KEY, k INTEGER, v TEXT);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
INSERT INTO t(k, v) SELECT i % 97, hex(i * 7919) FROM n;
CREATE INDEX tk ON t(k);
SELECT count(*), sum(k), max(length(v)) FROM t;
SQL
sqlite3 db 'SELECT k, count(*) FROM t WHERE k < 3 GROUP BY k; PRAGMA integrity_check;'
sqlite3 db 'VACUUM; PRAGMA wal_checkpoint(TRUNCATE);' >/dev/null
sqlite3 db .dump | sha256sum
