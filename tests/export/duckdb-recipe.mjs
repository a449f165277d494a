// The DuckDB recipe of the README: the CSV exports of several captures read as one table, the
// per-class, per-process and per-lane figures `iochart info --json` gives, and the same rows
// written to Parquet and read back.
// usage: node duckdb-recipe.mjs 'DIR/*.csv' OUT.parquet   (prints one JSON document)
import { DuckDBInstance } from '@duckdb/node-api';

const [glob, parquet] = process.argv.slice(2);
const db = await DuckDBInstance.create(':memory:');
const con = await db.connect();
const rows = async (sql) => (await con.runAndReadAll(sql)).getRowObjectsJson();

await con.run(`CREATE TABLE requests AS SELECT * FROM read_csv('${glob}', header = true,
  types = {'device': 'VARCHAR', 'pid': 'INTEGER', 'sector': 'UBIGINT', 'bytes': 'UBIGINT'})`);
// info counts a request once per issue (a requeued request is served twice)
const perClass = await rows(`SELECT capture, class, SUM(issues) AS requests, SUM(issues * bytes) AS bytes
  FROM requests GROUP BY ALL ORDER BY ALL`);
const perProcess = await rows(`SELECT capture, pid, comm, SUM(issues) AS requests, SUM(issues * bytes) AS bytes
  FROM requests WHERE issues > 0 GROUP BY ALL ORDER BY ALL`);
const perLane = await rows(`SELECT capture, lane, SUM(issues) AS requests, SUM(issues * bytes) AS bytes
  FROM requests WHERE issues > 0 GROUP BY ALL ORDER BY ALL`);
await con.run(`COPY requests TO '${parquet}' (FORMAT parquet, COMPRESSION zstd)`);
const back = await rows(`SELECT COUNT(*) AS n, SUM(issues * bytes) AS bytes FROM read_parquet('${parquet}')`);
const total = await rows(`SELECT COUNT(*) AS n, SUM(issues * bytes) AS bytes FROM requests`);
console.log(JSON.stringify({ perClass, perProcess, perLane, parquet: back[0], csv: total[0] }));
