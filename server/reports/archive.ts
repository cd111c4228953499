/**
 * A report attachment's document: gzip (fflate, streamed in small pieces), zip (yauzl, its first
 * file), or as it came. Everything uncompressed is counted while it is made: past the size cap,
 * or past the ratio of a bomb, reading stops and the report is refused; zip entries are counted.
 */
import { Gunzip } from 'fflate';
import yauzl from 'yauzl';
import { limits, ReportRefused } from './refusal.js';

/** The largest a document made from `compressed` bytes may become. */
const capFor = (compressed: number) => Math.min(limits.reportBytes, compressed * limits.ratio + 1024 * 1024);
/** Past a cap set by the ratio it is a bomb; past the absolute cap, merely too large. */
const overReason = (cap: number) => (cap < limits.reportBytes ? 'bomb' : 'too_large');
const MiB = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;

const isGzip = (b: Buffer) => b.length > 2 && b[0] === 0x1f && b[1] === 0x8b;
const isZip = (b: Buffer) => b.length > 4 && b.readUInt32LE(0) === 0x04034b50;

function gunzip(data: Buffer): Buffer {
  const cap = capFor(data.length);
  const out: Uint8Array[] = [];
  let size = 0;
  const inflater = new Gunzip((chunk) => {
    size += chunk.length;
    if (size > cap) throw new ReportRefused(overReason(cap), 'gzip_expands', { size: MiB(cap), bytes: data.length, smart_count: data.length });
    out.push(chunk);
  });
  // Small pieces: one piece can inflate at most ~1000 times its size before the count is checked.
  const piece = 4096;
  try {
    for (let at = 0; at < data.length; at += piece) inflater.push(data.subarray(at, at + piece), at + piece >= data.length);
  } catch (error) {
    if (error instanceof ReportRefused) throw error;
    throw new ReportRefused('malformed', 'gzip_unreadable', { error: (error as Error).message });
  }
  return Buffer.concat(out);
}

async function unzip(data: Buffer): Promise<{ name: string; data: Buffer }[]> {
  const cap = capFor(data.length);
  const zip = await yauzl.fromBufferPromise(data, { lazyEntries: true, validateEntrySizes: true }).catch((error: Error) => {
    throw new ReportRefused('malformed', 'zip_unreadable', { error: error.message });
  });
  if (zip.entryCount > limits.zipEntries) {
    zip.close();
    throw new ReportRefused('malformed', 'zip_entries', { count: zip.entryCount, max: limits.zipEntries, smart_count: zip.entryCount });
  }
  const files: { name: string; data: Buffer }[] = [];
  let total = 0;
  return new Promise((resolve, reject) => {
    const fail = (error: unknown) => {
      zip.close();
      reject(error instanceof ReportRefused ? error : new ReportRefused('malformed', 'zip_unreadable', { error: (error as Error).message }));
    };
    zip.on('error', fail);
    zip.on('end', () => resolve(files));
    zip.on('entry', (entry: yauzl.Entry) => {
      if (entry.fileName.endsWith('/')) return zip.readEntry();
      // The sizes the archive declares are checked first, then the bytes actually made.
      if (total + entry.uncompressedSize > cap) return fail(new ReportRefused(overReason(cap), 'zip_entry_declares', { name: entry.fileName, size: MiB(entry.uncompressedSize) }));
      zip.openReadStream(entry, (error, stream) => {
        if (error) return fail(error);
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => {
          total += chunk.length;
          if (total > cap) {
            stream.destroy();
            return fail(new ReportRefused(overReason(cap), 'zip_expands', { size: MiB(cap) }));
          }
          chunks.push(chunk);
        });
        stream.on('error', fail);
        stream.on('end', () => {
          files.push({ name: entry.fileName.toLowerCase(), data: Buffer.concat(chunks) });
          zip.readEntry();
        });
      });
    });
    zip.readEntry();
  });
}

/** The documents in one attachment (one, except for a zip of several files). */
export async function documentsOf(name: string, data: Buffer): Promise<{ name: string; data: Buffer }[]> {
  if (data.length > limits.reportBytes) throw new ReportRefused('too_large', 'document_too_large', { name: name || '-', size: MiB(data.length) });
  if (isGzip(data)) return [{ name: name.replace(/\.gz$/, ''), data: gunzip(data) }];
  if (isZip(data)) return unzip(data);
  return [{ name, data }];
}
