/**
 * The file store on an S3-compatible bucket (S3_BUCKET and the other S3_* variables): ticket
 * attachments go into the bucket, not the database, come back through the API, and leave the
 * bucket with their ticket. The bucket is s3rver, a stand-in that speaks S3's HTTP protocol
 * (Amazon's own store cannot be reached from here); the app talks to it with AWS's own SDK,
 * signed requests, path-style, as it would to MinIO, Ceph or Garage.
 */
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diagnose } from '../../server/operations/doctor.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { operatorLogin, signUpCustomer } from '../helpers/fixtures.js';
import { openTicket, png } from '../helpers/support.js';

const bucket = 'maildesk-files';
const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
let store: S3rver;
let storeDir: string;
let endpoint: string;
let t: TestApp;

beforeAll(async () => {
  storeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'maildesk-s3-'));
  store = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: storeDir, configureBuckets: [{ name: bucket }] });
  const address = (await store.run()) as AddressInfo;
  endpoint = `http://127.0.0.1:${address.port}`;
  t = await startTestApp({ S3_BUCKET: bucket, S3_ENDPOINT: endpoint, S3_ACCESS_KEY_ID: credentials.accessKeyId, S3_SECRET_ACCESS_KEY: credentials.secretAccessKey, S3_PREFIX: 'panel-one/' });
});
afterAll(async () => {
  await t?.close();
  await store?.close();
  fs.rmSync(storeDir, { recursive: true, force: true });
});

/** What the bucket holds, as anyone with its keys sees it. */
async function objects() {
  const client = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, credentials });
  const listed = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
  client.destroy();
  return (listed.Contents ?? []).map((object) => ({ key: object.Key!, size: object.Size }));
}

describe('ticket attachments in an S3 bucket', () => {
  it('When a customer attaches a file, then it is kept in the bucket under the prefix, not in the database, and comes back byte for byte', async () => {
    const customer = await signUpCustomer(t);
    const ticket = await openTicket(t, customer.token, {}, [{ name: 'screenshot.png', content: png }]);
    const kept = await objects();
    expect(kept).toEqual([{ key: expect.stringMatching(/^panel-one\/[0-9a-f]{32}$/), size: png.length }]);
    expect(await t.services.db.selectFrom('stored_file').select('key').execute()).toEqual([]);

    const download = await t.get('/api/admin/ticket/attachment', { id: ticket.messages[0].attachments[0].id }, { token: customer.token });
    expect(download.status).toBe(200);
    expect(Buffer.compare(download.data as Buffer, png)).toBe(0);
    // Another customer learns nothing of it, whatever the store.
    const other = await signUpCustomer(t);
    expect(await t.get('/api/admin/ticket/attachment', { id: ticket.messages[0].attachments[0].id }, { token: other.token })).toMatchObject({ status: 404, code: 40400 });
  });

  it('When a ticket is deleted, then its files leave the bucket once the deletion is committed', async () => {
    const customer = await signUpCustomer(t);
    const before = (await objects()).length;
    const ticket = await openTicket(t, customer.token, {}, [{ name: 'a.png', content: png }, { name: 'b.png', content: png }]);
    expect((await objects()).length).toBe(before + 2);
    expect(await t.post('/api/manage/ticket/delete', { id: ticket.id }, { token: await operatorLogin(t) })).toMatchObject({ code: 0 });
    await t.services.jobs.drain();
    expect((await objects()).length).toBe(before);
  });

  it('When the operator runs maildesk doctor, then it finds the bucket, and says so when the bucket does not answer', async () => {
    const doctor = async (config: typeof t.config) => (await diagnose({ config, env: {}, locale: 'en', say() {}, warn() {} })).find((f) => f.check === 'files');
    expect(await doctor(t.config)).toMatchObject({ outcome: 'ok', words: { en: `kept in the S3 bucket ${bucket}` } });
    const gone = await doctor({ ...t.config, s3: { ...t.config.s3!, endpoint: 'http://127.0.0.1:9' } });
    expect(gone).toMatchObject({ outcome: 'fail', words: { en: expect.stringContaining('the file store does not answer') } });
  });
});
