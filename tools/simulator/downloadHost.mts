// The file host behind `download_link`: a separate origin that needs no credentials and streams
// a PDF-looking body of any size in fixed chunks, so that 50 MB never sits in memory at once.
import { Readable } from 'node:stream';
import { jsonAnswer, type Answer } from './httpIo.mts';
import type { SimulatorState } from './state.mts';
import type { LoggedRequest } from './types.mts';

const CHUNK_SIZE = 64 * 1024;
const HEADER = Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1');
const TRAILER = Buffer.from('\n%%EOF\n', 'latin1');
const FILLER = Buffer.alloc(CHUNK_SIZE, '0 0 0 rg 0 0 612 792 re f\n', 'latin1');

async function* throttled(
	chunks: Iterable<Buffer>,
	bytesPerSecond: number,
): AsyncGenerator<Buffer> {
	const started = Date.now();
	let sent = 0;
	for (const chunk of chunks) {
		yield chunk;
		sent += chunk.length;
		const ahead = (sent / bytesPerSecond) * 1000 - (Date.now() - started);
		if (ahead > 0) await new Promise((resolve) => setTimeout(resolve, ahead));
	}
}

/**
 * A stream of exactly `size` bytes starting with `%PDF-1.4` and, when it fits, ending with
 * `%%EOF`, at most `bytesPerSecond` fast when that is set. `onChunk` hears of every chunk as the
 * stream hands it on, so that a test can tell how much of a file left before the client stopped it.
 */
export function pdfLikeStream(
	size: number,
	bytesPerSecond = 0,
	onChunk: (bytes: number) => void = () => undefined,
): Readable {
	function* pieces(): Generator<Buffer> {
		const head = HEADER.subarray(0, Math.min(HEADER.length, size));
		yield head;
		const tail = size - head.length >= TRAILER.length ? TRAILER : Buffer.alloc(0);
		let fill = size - head.length - tail.length;
		while (fill > 0) {
			const piece = Math.min(fill, CHUNK_SIZE);
			yield FILLER.subarray(0, piece);
			fill -= piece;
		}
		if (tail.length > 0) yield tail;
	}
	function* chunks(): Generator<Buffer> {
		for (const piece of pieces()) {
			onChunk(piece.length);
			yield piece;
		}
	}
	return Readable.from(bytesPerSecond > 0 ? throttled(chunks(), bytesPerSecond) : chunks(), {
		objectMode: false,
	});
}

/** The whole file the download host serves for a document of `size` bytes. */
export async function pdfLikeBytes(size: number): Promise<Buffer> {
	const chunks: Buffer[] = [];
	for await (const chunk of pdfLikeStream(size)) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks);
}

export function createDownloadHandler(state: SimulatorState): (request: LoggedRequest) => Answer {
	return (request) => {
		const token = /^\/files\/([^/]+)$/.exec(request.path)?.[1];
		const document = token ? state.documentByToken(token) : undefined;
		if (!document || !state.isFinished(document)) return jsonAnswer(404, { detail: 'Not found.' });
		if (request.method !== 'GET' && request.method !== 'HEAD') {
			return jsonAnswer(
				405,
				{ detail: `Method "${request.method}" not allowed.` },
				{ allow: 'GET, HEAD' },
			);
		}
		const size = state.documentSizeBytes;
		return {
			status: 200,
			headers: {
				'content-type': 'application/pdf',
				...(state.downloadChunked ? {} : { 'content-length': String(size) }),
				'content-disposition': `attachment; filename="cuentas-anuales-${document.nif}-${document.year}.pdf"`,
			},
			body: () => {
				const stream = pdfLikeStream(size, state.downloadBytesPerSecond, (bytes) => {
					state.downloadBytesSent += bytes;
				});
				// Open until the file is sent or the client hangs up: one that stops reading keeps it.
				state.downloadsOpen++;
				stream.once('close', () => state.downloadsOpen--);
				return stream;
			},
		};
	};
}
