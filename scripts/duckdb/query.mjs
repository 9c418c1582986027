// query.mjs: runs SQL in DuckDB (npm @duckdb/node-api) for the tests of
// the job's Parquet outputs (cmd/ndd-beam/duckdb_test.go).
// stdin: a JSON array of SQL statements; stdout: a JSON array with, for
// each statement, its rows, each row one line of tab-separated values
// written as jq's @tsv writes them (NULL empty; \, tab, newline and CR
// escaped as \\, \t, \n, \r; a list as its items joined by ", " in brackets).
import { DuckDBInstance } from '@duckdb/node-api';
import { readFileSync } from 'node:fs';

const tsv = (v) => {
  if (v === null || v === undefined) return '';
  if (typeof v === 'object' && Array.isArray(v.items)) return '[' + v.items.map(tsv).join(', ') + ']';
  return String(v).replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
};

const queries = JSON.parse(readFileSync(0, 'utf8'));
const db = await DuckDBInstance.create(':memory:');
const conn = await db.connect();
const out = [];
for (const q of queries) {
  try {
    const r = await conn.runAndReadAll(q);
    out.push(r.getRows().map((row) => row.map(tsv).join('\t')));
  } catch (e) {
    process.stderr.write(`duckdb: ${q}: ${String(e.message).split('\n')[0]}\n`);
    process.exit(1);
  }
}
process.stdout.write(JSON.stringify(out));
