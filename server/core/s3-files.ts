/** The file store on an S3-compatible bucket (AWS S3, MinIO, Ceph, Garage, …), with AWS's own client. */
import { DeleteObjectsCommand, GetObjectCommand, HeadObjectCommand, NoSuchKey, NotFound, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { S3Settings } from '../config.js';
import type { FileStore } from './file-store.js';

export function s3FileStore(settings: S3Settings): FileStore {
  const client = new S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    // Most self-hosted stores answer on one host name, with the bucket in the path.
    forcePathStyle: settings.pathStyle,
    credentials: settings.accessKeyId ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey ?? '' } : undefined,
  });
  const Bucket = settings.bucket;
  const keyOf = (key: string) => `${settings.prefix}${key}`;
  const missing = (error: unknown) => error instanceof NoSuchKey || error instanceof NotFound || (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404;
  const has = async (key: string) => {
    try {
      await client.send(new HeadObjectCommand({ Bucket, Key: keyOf(key) }));
      return true;
    } catch (error) {
      if (missing(error)) return false;
      throw error;
    }
  };
  return {
    kind: 's3',
    has,
    async put(key, data) {
      if (await has(key)) return;
      await client.send(new PutObjectCommand({ Bucket, Key: keyOf(key), Body: data, ContentLength: data.length }));
    },
    async get(key) {
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket, Key: keyOf(key) }));
        return Buffer.from(await answer.Body!.transformToByteArray());
      } catch (error) {
        if (missing(error)) return undefined;
        throw error;
      }
    },
    async remove(keys) {
      for (let i = 0; i < keys.length; i += 1000) {
        const Objects = keys.slice(i, i + 1000).map((key) => ({ Key: keyOf(key) }));
        await client.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects, Quiet: true } }));
      }
    },
  };
}
