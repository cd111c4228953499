/**
 * DMARC aggregate and TLS reports (server/reports): what receivers reported about each hosted
 * domain, deduplicated per (kind, organisation, report id, domain); the rows the pictures and the
 * advice are made from, per domain and UTC day; the reverse names of sending addresses, looked up
 * once and kept; reports refused as malformed or hostile (what was refused and why); and the DMARC
 * policy a customer chose for a domain (null: the proposal as before, p=quarantine).
 */
import type { Kysely } from 'kysely';
import type { Dialect } from '../index.js';
import { indexes, withId } from './helpers.js';

export function reports(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('domain').addColumn('dmarc_policy', 'text').execute();

      // One received report about one hosted domain (a TLS report may speak of several: one row each).
      await withId(db.schema.createTable('mail_report'), dialect)
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('domain_id', 'bigint', (c) => c.notNull().references('domain.id').onDelete('cascade'))
        .addColumn('org_name', 'text', (c) => c.notNull())
        .addColumn('report_id', 'text', (c) => c.notNull())
        .addColumn('contact', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('begin_at', 'text', (c) => c.notNull())
        .addColumn('end_at', 'text', (c) => c.notNull())
        .addColumn('messages', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('failed', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('received_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('mail_report_once_key', ['kind', 'org_name', 'report_id', 'domain_id'])
        .execute();
      await indexes(db, 'mail_report', [['domain_id', 'kind', 'received_at'], ['kind', 'received_at']]);

      // A DMARC report's record: one sending address's messages with one result.
      await withId(db.schema.createTable('dmarc_row'), dialect)
        .addColumn('mail_report_id', 'bigint', (c) => c.notNull().references('mail_report.id').onDelete('cascade'))
        .addColumn('domain_id', 'bigint', (c) => c.notNull().references('domain.id').onDelete('cascade'))
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('source_ip', 'text', (c) => c.notNull())
        .addColumn('messages', 'bigint', (c) => c.notNull())
        .addColumn('disposition', 'text', (c) => c.notNull())
        // DMARC's verdicts: an aligned DKIM signature, an aligned SPF pass ('pass' or 'fail').
        .addColumn('dkim', 'text', (c) => c.notNull())
        .addColumn('spf', 'text', (c) => c.notNull())
        .addColumn('header_from', 'text', (c) => c.notNull())
        // The raw results: "domain=result" pairs, space-separated (what advice is made from).
        .addColumn('dkim_results', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('spf_results', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await indexes(db, 'dmarc_row', [['domain_id', 'day'], 'mail_report_id', 'day']);

      // A TLS report's summary of one policy, and its failure details.
      await withId(db.schema.createTable('tls_row'), dialect)
        .addColumn('mail_report_id', 'bigint', (c) => c.notNull().references('mail_report.id').onDelete('cascade'))
        .addColumn('domain_id', 'bigint', (c) => c.notNull().references('domain.id').onDelete('cascade'))
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('policy_type', 'text', (c) => c.notNull())
        .addColumn('successful', 'bigint', (c) => c.notNull())
        .addColumn('failed', 'bigint', (c) => c.notNull())
        .execute();
      await indexes(db, 'tls_row', [['domain_id', 'day'], 'mail_report_id', 'day']);
      await withId(db.schema.createTable('tls_failure'), dialect)
        .addColumn('mail_report_id', 'bigint', (c) => c.notNull().references('mail_report.id').onDelete('cascade'))
        .addColumn('domain_id', 'bigint', (c) => c.notNull().references('domain.id').onDelete('cascade'))
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('receiving_mx', 'text', (c) => c.notNull())
        .addColumn('result_type', 'text', (c) => c.notNull())
        .addColumn('sessions', 'bigint', (c) => c.notNull())
        .execute();
      await indexes(db, 'tls_failure', [['domain_id', 'day'], 'mail_report_id', 'day']);

      // Reverse names of sending addresses ('' when there is none), looked up once and kept.
      await db.schema
        .createTable('report_source')
        .addColumn('ip', 'text', (c) => c.primaryKey())
        .addColumn('ptr', 'text', (c) => c.notNull())
        .addColumn('looked_up_at', 'text', (c) => c.notNull())
        .execute();

      // Reports refused (malformed, hostile, too large, for no domain hosted here): operators see why.
      await withId(db.schema.createTable('report_refusal'), dialect)
        .addColumn('received_at', 'text', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('detail', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await indexes(db, 'report_refusal', ['received_at']);
    },
  };
}
